import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import type { Logger } from './logger.ts';

const CHANNEL = 'yidu_events';
/** Heard locally after the connection came back: events may have been missed while it was down. */
export const RECONNECTED_TOPIC = 'notifier.reconnected';
type Listener = (data: unknown) => void;

/**
 * Cross-process events over PostgreSQL LISTEN/NOTIFY: a worker announces finished translations and
 * every API process (on any machine) hears it and pushes them to its connected readers.
 */
export class Notifier {
  private readonly url: string;
  private readonly logger: Logger;
  private client: pg.Client | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private stopped = false;

  constructor(url: string, logger: Logger) {
    this.url = url;
    this.logger = logger;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'yidu-notifier' });
    client.on('notification', (message) => {
      if (!message.payload) return;
      try {
        const { topic, data } = JSON.parse(message.payload) as { topic: string; data: unknown };
        this.emit(topic, data);
      } catch (error) {
        this.logger.warn({ err: error }, 'bad notification');
      }
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      this.logger.warn({ err: error }, 'notifier connection lost; reconnecting');
      this.client = undefined;
      void client.end().catch(() => {});
      void this.reconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      void client.end().catch(() => {});
      throw error;
    }
    this.client = client;
  }

  /**
   * Keeps trying (1 s, 2 s, 4 s … at most 15 s apart) until the database answers again. Notifications
   * sent meanwhile are lost, so listeners of RECONNECTED_TOPIC drop whatever they cached.
   */
  private async reconnect(): Promise<void> {
    for (let delay = 1000; !this.stopped; delay = Math.min(delay * 2, 15_000)) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      if (this.stopped) return;
      try {
        await this.start();
        this.logger.info('notifier reconnected');
        this.emit(RECONNECTED_TOPIC, null);
        return;
      } catch (error) {
        this.logger.warn({ err: error }, 'notifier reconnect failed; trying again');
      }
    }
  }

  private emit(topic: string, data: unknown): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(data);
  }

  subscribe(topic: string, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(topic);
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}

/** Announces an event to every process listening (payloads stay small: ids, not texts). */
export async function notify(db: Db, topic: string, data: unknown): Promise<void> {
  await sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify({ topic, data })})`.execute(db);
}
