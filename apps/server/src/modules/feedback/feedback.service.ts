import { randomBytes } from 'node:crypto';
import { FEEDBACK_IMAGE_MAX_BYTES, FEEDBACK_TYPES, type Feedback, type FeedbackPage } from '@yidu/shared';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { FeedbackStatus, FeedbackTable, FeedbackType, UserRow } from '../../db/schema.ts';
import { ImageError, imageKind, toJpeg } from '../../engines/images/images.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { UrlSigner } from '../../lib/signing.ts';

type Row = Selectable<FeedbackTable> & { username: string | null };
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/** Feedback: users send and read their own; admins read all and answer with a status and a reply. */
export class FeedbackService {
  private readonly d: { db: Db; storage: FileStorage; signer: UrlSigner; logger: Logger };
  constructor(deps: { db: Db; storage: FileStorage; signer: UrlSigner; logger: Logger }) {
    this.d = deps;
  }

  private present(row: Row): Feedback {
    return {
      id: row.id,
      title: row.title,
      type: row.type,
      description: row.description,
      imageUrl: row.image_key ? this.d.signer.sign(`/api/media/${row.image_key}`) : null,
      status: row.status,
      reply: row.reply,
      user: row.user_id !== null ? { id: row.user_id, username: row.username ?? '' } : null,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    };
  }

  private base() {
    return this.d.db
      .selectFrom('feedback as f')
      .leftJoin('users as u', 'u.id', 'f.user_id')
      .selectAll('f')
      .select('u.username');
  }

  async add(
    user: UserRow,
    input: { title: string; type: string; description: string; image?: Buffer | undefined },
  ): Promise<Feedback> {
    const title = input.title.trim();
    const description = input.description.trim();
    if (!title || !description || title.length > 200 || description.length > 10_000)
      throw fail('badRequest', { reason: !title ? 'titleRequired' : 'descriptionRequired' });
    if (!(FEEDBACK_TYPES as readonly string[]).includes(input.type)) throw fail('badRequest', { reason: 'type' });
    let imageKey: string | null = null;
    if (input.image && input.image.length > 0) {
      if (input.image.length > FEEDBACK_IMAGE_MAX_BYTES) throw fail('imageTooLarge');
      if (!imageKind(input.image)) throw fail('notAnImage');
      try {
        // Re-encoded: metadata (EXIF, GPS) and anything hidden in the file are dropped.
        const encoded = await toJpeg(input.image, 2400, 2400, 85);
        imageKey = `feedback/${randomBytes(12).toString('hex')}.jpg`;
        await this.d.storage.put(imageKey, encoded.data);
      } catch (error) {
        if (error instanceof ImageError) throw fail('notAnImage', { detail: error.message });
        throw error;
      }
    }
    const row = await this.d.db
      .insertInto('feedback')
      .values({
        user_id: user.id,
        title,
        type: input.type as FeedbackType,
        description,
        image_key: imageKey,
        reply: null,
        replied_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.d.logger.info({ userId: user.id, feedbackId: row.id }, 'feedback received');
    return this.detail(user, row.id);
  }

  /** Admins see everyone's feedback, users their own. */
  async search(
    user: UserRow,
    query: {
      page: number;
      pageSize: number;
      status?: string | undefined;
      type?: string | undefined;
      keyword?: string | undefined;
    },
  ): Promise<FeedbackPage> {
    let base = this.base();
    if (user.role !== 'admin') base = base.where('f.user_id', '=', user.id);
    if (query.status) base = base.where('f.status', '=', query.status as FeedbackStatus);
    if (query.type) base = base.where('f.type', '=', query.type as FeedbackType);
    if (query.keyword) {
      const pattern = `%${escapeLike(query.keyword.toLowerCase())}%`;
      base = base.where((eb) =>
        eb.or([eb(sql`lower(f.title)`, 'like', pattern), eb(sql`lower(f.description)`, 'like', pattern)]),
      );
    }
    const [rows, count] = await Promise.all([
      base
        .orderBy('f.created_at', 'desc')
        .orderBy('f.id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      base
        .clearSelect()
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.map((r) => this.present(r)),
      total: Number(count.n),
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async detail(user: UserRow, id: number): Promise<Feedback> {
    const row = await this.base().where('f.id', '=', id).executeTakeFirst();
    // Someone else's feedback is "not found" rather than "forbidden": its existence is not revealed.
    if (!row || (user.role !== 'admin' && row.user_id !== user.id)) throw fail('notFound');
    return this.present(row);
  }

  async setStatus(admin: UserRow, id: number, status: FeedbackStatus, reply?: string): Promise<Feedback> {
    const updated = await this.d.db
      .updateTable('feedback')
      .set({
        status,
        ...(reply !== undefined ? { reply: reply || null, replied_by: admin.id } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw fail('notFound');
    return this.detail(admin, id);
  }
}
