import { nameProblem, type NameProblem } from '@yidu/shared';
import type { ErrorKey } from '@yidu/shared';
import { fail } from '../../http/errors.ts';

const KEYS: Record<NameProblem, ErrorKey> = {
  invisibleCharacters: 'nameHasInvisibleCharacters',
  mixedScripts: 'nameMixesScripts',
  reserved: 'nameReserved',
};

/** Refuses an account or username that could pass for someone else's (see @yidu/shared names.ts). */
export function assertFitName(name: string, options: { allowReserved?: boolean } = {}): void {
  const problem = nameProblem(name, options);
  if (problem) throw fail(KEYS[problem]);
}
