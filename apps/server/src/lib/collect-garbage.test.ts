import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.ts';

describe('collectGarbage', () => {
  it('collects an object nothing refers to any more, without --expose-gc', async () => {
    let kept: object | undefined = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(kept);
    kept = undefined;
    // A WeakRef keeps its target until the current job ends.
    await nextTurn();
    collectGarbage();
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
  });
});
