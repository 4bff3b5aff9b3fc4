import { z } from 'zod';

/**
 * In the browser, schemas are checked without zod's compiled fast path: to find out whether it may
 * compile, zod first tries `new Function('')`, which the web app's content security policy forbids
 * (no 'unsafe-eval'), and every page reported a violation. The server keeps the fast path.
 */
export function validateWithoutEval(): void {
  z.config({ jitless: true });
}
