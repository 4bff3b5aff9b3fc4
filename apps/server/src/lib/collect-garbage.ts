/**
 * A full garbage collection on request, for work that knows when it has just let go of a lot: V8
 * otherwise grows the heap to hold garbage in proportion to what is alive, and a process's peak
 * memory is set by that growth, not by what it keeps.
 *
 * Node exposes `gc` only with --expose-gc; the flag is turned on at run time and the function taken
 * from a new context (as Jest does for --logHeapUsage), so neither the server nor the tests need the
 * flag. Each isolate (thread) collects its own heap.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) {
      gc = exposed;
    } else {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    }
  }
  gc();
}
