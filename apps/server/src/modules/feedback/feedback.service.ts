import { randomBytes } from 'node:crypto';
import { FEEDBACK_IMAGE_MAX_BYTES, FEEDBACK_TYPES, type Feedback, type FeedbackPage } from '@yidu/shared';
import type { FeedbackStatus, FeedbackType, UserRow } from '../../db/schema.ts';
import { ImageError, imageKind, toJpeg } from '../../engines/images/images.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { UrlSigner } from '../../lib/signing.ts';
import type { FeedbackRepo, FeedbackRow } from './feedback.repo.ts';

/** Feedback: users send and read their own; admins read all and answer with a status and a reply. */
export class FeedbackService {
  private readonly d: { repo: FeedbackRepo; storage: FileStorage; signer: UrlSigner; logger: Logger };
  constructor(deps: { repo: FeedbackRepo; storage: FileStorage; signer: UrlSigner; logger: Logger }) {
    this.d = deps;
  }

  private present(row: FeedbackRow): Feedback {
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
    const id = await this.d.repo.insert({
      user_id: user.id,
      title,
      type: input.type as FeedbackType,
      description,
      image_key: imageKey,
      reply: null,
      replied_by: null,
    });
    this.d.logger.info({ userId: user.id, feedbackId: id }, 'feedback received');
    return this.detail(user, id);
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
    const { rows, total } = await this.d.repo.search(
      {
        userId: user.role !== 'admin' ? user.id : undefined,
        status: query.status as FeedbackStatus | undefined,
        type: query.type as FeedbackType | undefined,
        keyword: query.keyword,
      },
      { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
    );
    return {
      items: rows.map((r) => this.present(r)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  async detail(user: UserRow, id: number): Promise<Feedback> {
    const row = await this.d.repo.find(id);
    // Someone else's feedback is "not found" rather than "forbidden": its existence is not revealed.
    if (!row || (user.role !== 'admin' && row.user_id !== user.id)) throw fail('notFound');
    return this.present(row);
  }

  async setStatus(admin: UserRow, id: number, status: FeedbackStatus, reply?: string): Promise<Feedback> {
    const answer = reply !== undefined ? { reply: reply || null, repliedBy: admin.id } : undefined;
    if (!(await this.d.repo.setStatus(id, status, answer))) throw fail('notFound');
    return this.detail(admin, id);
  }
}
