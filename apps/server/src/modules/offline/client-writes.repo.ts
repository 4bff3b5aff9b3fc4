import type { Db } from '../../db/client.ts';
import { fail } from '../../http/errors.ts';

export type ClientWriteKind = 'mark' | 'word';

/**
 * The only SQL about client-generated ids: a mark or word made on a device carries one, and an offline
 * queue sends it until it is answered. The first request claims the id and creates the thing in the
 * same transaction; a repeat — also one racing the first, which waits on the claim's unique key until
 * the first commits — gets the id of what the first made. The claim outlives what it names: a repeat
 * after a delete finds the claim and no target, and the mark stays deleted.
 */
export class ClientWrites {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Runs `create` once per user and client id; answers the id of what it made (now or before). The
   * caller then reads it back: nothing found means it was deleted since (`alreadyDeleted`).
   */
  async once(
    userId: number,
    clientId: string,
    kind: ClientWriteKind,
    create: (db: Db) => Promise<number | string>,
  ): Promise<{ id: number; created: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('client_writes')
        .values({ user_id: userId, client_id: clientId, kind })
        .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
        .returning('client_id')
        .executeTakeFirst();
      if (claimed) {
        const id = Number(await create(trx));
        await trx
          .updateTable('client_writes')
          .set({ target_id: id })
          .where('user_id', '=', userId)
          .where('client_id', '=', clientId)
          .execute();
        return { id, created: true };
      }
      const earlier = await trx
        .selectFrom('client_writes')
        .select(['kind', 'target_id'])
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow();
      // One id names one thing: a word's id sent for a mark is a client's mistake, not a repeat.
      if (earlier.kind !== kind || earlier.target_id === null) throw fail('badRequest', { reason: 'clientIdReused' });
      return { id: Number(earlier.target_id), created: false };
    });
  }
}
