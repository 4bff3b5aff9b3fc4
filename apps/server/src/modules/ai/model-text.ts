import type { AiAnnotation } from '@yidu/shared';
import { z } from 'zod';

/** What the AI aids make of model output: notes anchored to the text. */

const ANNOTATION_JSON = z.object({
  notes: z.array(z.object({ p: z.coerce.number(), term: z.string(), kind: z.string(), note: z.string() })),
});
const KINDS = new Set(['word', 'name', 'idiom', 'allusion', 'grammar', 'other']);

/** Model output → notes anchored to blocks; anything malformed is dropped, never trusted. */
export function parseAnnotations(text: string, blocks: { block_id: string; text: string }[]): AiAnnotation[] {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let parsed;
  try {
    parsed = ANNOTATION_JSON.safeParse(JSON.parse(json));
  } catch {
    return [];
  }
  if (!parsed.success) return [];
  return parsed.data.notes.flatMap((n) => {
    const block = blocks[n.p - 1];
    if (!block || !n.term.trim() || !n.note.trim()) return [];
    const start = block.text.indexOf(n.term);
    return [
      {
        blockId: block.block_id,
        term: n.term.slice(0, 200),
        kind: (KINDS.has(n.kind) ? n.kind : 'other') as AiAnnotation['kind'],
        note: n.note.slice(0, 1000),
        start,
        end: start === -1 ? -1 : start + n.term.length,
      },
    ];
  });
}
