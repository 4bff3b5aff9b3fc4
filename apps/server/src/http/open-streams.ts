/**
 * Caps the long-lived streams (a page's server-sent events) one reader may hold open in this
 * process: each holds a connection, timers and a page check every few seconds, and one account held
 * 500 of them. A reader with a few tabs on a few devices needs a handful; past the cap the stream is
 * refused (tooManyStreams) and the web app follows the page by asking for it instead.
 */
export class OpenStreams {
  private readonly perUser: number;
  private readonly perSession: number;
  private readonly byUser = new Map<number, number>();
  private readonly bySession = new Map<number, number>();

  constructor(limits: { perUser: number; perSession: number }) {
    this.perUser = limits.perUser;
    this.perSession = limits.perSession;
  }

  /** Takes a place for a new stream: its release function, or undefined when a cap is reached. */
  open(userId: number, sessionId: number): (() => void) | undefined {
    const user = this.byUser.get(userId) ?? 0;
    const session = this.bySession.get(sessionId) ?? 0;
    if (user >= this.perUser || session >= this.perSession) return undefined;
    this.byUser.set(userId, user + 1);
    this.bySession.set(sessionId, session + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.byUser, userId);
      decrement(this.bySession, sessionId);
    };
  }
}

function decrement(counts: Map<number, number>, key: number): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
