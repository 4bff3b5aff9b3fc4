/**
 * A change that may take access away: a user's sessions, status or role (userId), or a book or who
 * holds a copy of it (bookId). `null` means anything may have changed (notifications were missed).
 */
export type AccessChange = { userId: number } | { bookId: number } | null;

/** The notifier topic the database triggers of migration 0010 announce changes on. */
export const ACCESS_TOPIC = 'access';

/**
 * The process's caches of sessions and book access listen here. Two sources feed it: the database
 * triggers through the notifier (changes made by any process), and the repositories of this process
 * right after their own writes, so that a caller sees its own logout or deletion at once rather than
 * when the notification comes back a moment later.
 */
export class AccessEvents {
  private readonly listeners = new Set<(change: AccessChange) => void>();

  subscribe(listener: (change: AccessChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: AccessChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/**
 * A bounded in-memory map whose entries a change of access drops. A lookup that raced with a change
 * (read from the database before the change, stored after it was announced) is not kept: `generation`
 * is taken before the read and the result is stored only if no change was heard meanwhile.
 */
export class AccessCache<T extends { userId: number; bookId?: number }> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private changes = 0;
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  /** Without events nothing would ever be dropped, so nothing is kept. */
  private readonly enabled: boolean;

  constructor(events: AccessEvents | undefined, options: { maxEntries: number; maxAgeMs: number }) {
    this.maxEntries = options.maxEntries;
    this.maxAgeMs = options.maxAgeMs;
    this.enabled = events !== undefined;
    events?.subscribe((change) => this.drop(change));
  }

  get generation(): number {
    return this.changes;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` unless access changed since `generation` was read. */
  set(key: string, value: T, generation: number): void {
    if (!this.enabled || generation !== this.changes) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: Date.now() });
  }

  private drop(change: AccessChange): void {
    this.changes++;
    if (change === null) {
      this.entries.clear();
      return;
    }
    for (const [key, { value }] of this.entries) {
      if ('userId' in change ? value.userId === change.userId : value.bookId === change.bookId)
        this.entries.delete(key);
    }
  }
}
