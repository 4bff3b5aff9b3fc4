/**
 * Per-engine request budget: at most `concurrency` requests in flight and `requestsPerMinute`
 * started in any rolling minute. Waiting callers are served in arrival order.
 */
export class EngineLimiter {
  private readonly concurrency: number;
  private readonly requestsPerMinute: number | undefined;
  private active = 0;
  private readonly queue: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private readonly starts: number[] = [];
  private rateGate: Promise<void> = Promise.resolve();

  constructor(concurrency: number | undefined, requestsPerMinute: number | undefined) {
    this.concurrency = Math.max(1, Math.floor(concurrency ?? 4));
    this.requestsPerMinute =
      requestsPerMinute && requestsPerMinute > 0 ? Math.max(1, Math.floor(requestsPerMinute)) : undefined;
  }

  get inFlight(): number {
    return this.active;
  }

  /** Resolves with a release function once a slot is free and the minute's budget allows a start. */
  async acquire(
    signal: AbortSignal | undefined,
    sleep: (ms: number) => Promise<void>,
    now: () => number,
  ): Promise<() => void> {
    if (signal?.aborted) throw signal.reason;
    if (this.active >= this.concurrency) {
      await new Promise<void>((resolve, reject) => {
        const entry = {
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject,
        };
        const onAbort = () => {
          const at = this.queue.indexOf(entry);
          if (at !== -1) this.queue.splice(at, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.queue.push(entry);
      });
    } else {
      this.active++;
    }
    // The slot is ours now (a releasing holder hands it over without decrementing).
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next.resolve();
      else this.active--;
    };
    try {
      await this.waitForRate(signal, sleep, now);
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  /** Serialised so that concurrent callers do not all see the same free minute slot. */
  private waitForRate(
    signal: AbortSignal | undefined,
    sleep: (ms: number) => Promise<void>,
    now: () => number,
  ): Promise<void> {
    const limit = this.requestsPerMinute;
    if (limit === undefined) return Promise.resolve();
    const turn = this.rateGate.then(async () => {
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const t = now();
        while (this.starts.length > 0 && (this.starts[0] as number) <= t - 60_000) this.starts.shift();
        if (this.starts.length < limit) {
          this.starts.push(t);
          return;
        }
        await sleep((this.starts[0] as number) + 60_000 - t);
      }
    });
    this.rateGate = turn.catch(() => undefined);
    return turn;
  }
}
