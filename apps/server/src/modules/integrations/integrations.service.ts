import type { ReadwiseStatus } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { pageChargeKey } from '../reader/page-charges.ts';
import { highlightText, paragraphLink } from './highlight-text.ts';
import { IntegrationsRepo, type HighlightRow } from './integrations.repo.ts';
import { obsidianMarkdown } from './obsidian-markdown.ts';
import { ReadwiseClient, ReadwiseUnavailable, type ReadwiseHighlight } from './readwise.client.ts';

/** Highlights per request to Readwise. */
const BATCH = 100;
/** Marks made close together go to Readwise in one push. */
const AUTO_PUSH_DELAY_SECONDS = 5;
/** Readwise's limits per field (its API documentation). */
const MAX_TEXT = 8191;
const MAX_TITLE = 511;
const MAX_AUTHOR = 1024;

interface Deps {
  db: Db;
  books: BooksService;
  points: PointsService;
  queue: JobQueue;
  box: SecretBox;
  logger: Logger;
  publicUrl: string;
  readwiseUrl: string;
}

/**
 * Highlights and notes where readers keep them. Readwise: the reader's access token is kept sealed;
 * highlights, underlines and notes are pushed by the `readwise.push` job, in batches, on demand and
 * (when the reader wants) as they are made, each with its book, page, both languages and a link back
 * to its paragraph. Obsidian: one Markdown file per book.
 */
export class IntegrationsService {
  private readonly d: Deps;
  private readonly repo: IntegrationsRepo;
  private readonly readwise: ReadwiseClient;
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new IntegrationsRepo(deps.db);
    this.readwise = new ReadwiseClient(deps.readwiseUrl);
  }

  // ---------- Readwise ----------

  async readwiseStatus(user: UserRow): Promise<ReadwiseStatus> {
    const account = await this.repo.account(user.id);
    return {
      connected: !!account,
      tokenHint: account ? `…${account.token_hint}` : null,
      autoPush: account?.auto_push ?? true,
      lastPushAt: account?.last_push_at?.toISOString() ?? null,
      lastError: account?.last_error ?? null,
      pending: account ? await this.repo.countUnpushed(user.id) : 0,
    };
  }

  /** Keeps a new token once Readwise accepts it, and/or the auto-push choice; then pushes what is waiting. */
  async saveReadwise(
    user: UserRow,
    body: { token?: string | undefined; autoPush?: boolean | undefined },
  ): Promise<ReadwiseStatus> {
    if (body.token) {
      let accepted: boolean;
      try {
        accepted = await this.readwise.checkToken(body.token);
      } catch (error) {
        this.d.logger.warn({ err: error }, 'the Readwise token check failed');
        throw fail('readwiseUnavailable');
      }
      if (!accepted) throw fail('readwiseTokenRejected');
      await this.repo.saveAccount(user.id, {
        token_sealed: this.d.box.seal(body.token),
        token_hint: body.token.slice(-4),
        auto_push: body.autoPush,
      });
    } else {
      if (!(await this.repo.account(user.id))) throw fail('readwiseNotConnected');
      await this.repo.saveAccount(user.id, { auto_push: body.autoPush });
    }
    const status = await this.readwiseStatus(user);
    if (status.autoPush && status.pending > 0) await this.enqueue(user.id, 0);
    return status;
  }

  async disconnectReadwise(user: UserRow): Promise<void> {
    await this.repo.removeAccount(user.id);
  }

  /** "Send to Readwise now": everything not there yet, in the background. */
  async pushNow(user: UserRow): Promise<ReadwiseStatus> {
    if (!(await this.repo.account(user.id))) throw fail('readwiseNotConnected');
    await this.enqueue(user.id, 0);
    return this.readwiseStatus(user);
  }

  /** A highlight or note was made or changed: pushed shortly, when the reader pushes as they go. */
  async marksChanged(userId: number): Promise<void> {
    const account = await this.repo.account(userId);
    if (account?.auto_push && account.last_error !== 'readwiseTokenRejected')
      await this.enqueue(userId, AUTO_PUSH_DELAY_SECONDS);
  }

  private async enqueue(userId: number, startAfter: number): Promise<void> {
    await this.d.queue.send('readwise.push', { userId }, { singletonKey: `readwise:${userId}`, startAfter });
  }

  /**
   * The `readwise.push` job: every highlight the user's Readwise lacks, in batches. A 429 stops the
   * run and queues the next one after the `Retry-After` Readwise asked for; a refused token stops
   * pushing until the reader enters another; an unreachable Readwise fails the job, which pg-boss
   * retries with backoff. A mark is recorded as pushed only once Readwise took its batch.
   */
  async runPush(userId: number): Promise<void> {
    const account = await this.repo.account(userId);
    if (!account) return;
    const token = this.d.box.open(account.token_sealed);
    if (!token) {
      await this.repo.recordPush(userId, { ok: false, error: 'readwiseTokenRejected' });
      return;
    }
    for (;;) {
      const rows = await this.repo.highlights(userId, { unpushed: true, limit: BATCH });
      if (rows.length === 0) return;
      const readable = await this.readableTranslations(userId, rows);
      const highlights = rows.map((row) => this.toReadwise(row, readable.has(row.id)));
      let result;
      try {
        result = await this.readwise.push(token, highlights);
      } catch (error) {
        if (error instanceof ReadwiseUnavailable)
          await this.repo.recordPush(userId, { ok: false, error: 'readwiseUnavailable' });
        throw error;
      }
      if (!result.ok) {
        if (result.reason === 'rejected') {
          await this.repo.recordPush(userId, { ok: false, error: 'readwiseTokenRejected' });
          return;
        }
        await this.repo.recordPush(userId, { ok: false, error: 'tooManyRequests' });
        await this.d.queue.send('readwise.push', { userId }, { startAfter: result.retryAfter });
        return;
      }
      await this.repo.markPushed(userId, rows);
      await this.repo.recordPush(userId, { ok: true });
      if (rows.length < BATCH) return;
    }
  }

  private toReadwise(row: HighlightRow, translationReadable: boolean): ReadwiseHighlight {
    const text = highlightText(row, translationReadable);
    const note = [
      row.content?.trim() ?? '',
      text.other ? `[${text.otherLanguage}] ${text.other}` : '',
      row.chapter_title ? `— ${row.chapter_title}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    return {
      text: text.quote.slice(0, MAX_TEXT),
      title: row.title.slice(0, MAX_TITLE),
      author: row.author.slice(0, MAX_AUTHOR),
      source_type: 'yidu',
      category: 'books',
      note: note.slice(0, MAX_TEXT),
      location: row.page,
      location_type: 'page',
      highlighted_at: row.created_at.toISOString(),
      highlight_url: paragraphLink(this.d.publicUrl, row, 'zh'),
    };
  }

  /** The marks whose paragraph translation the reader may see: its page charged to them, or free. */
  private async readableTranslations(userId: number, rows: HighlightRow[]): Promise<Set<string>> {
    const key = (r: HighlightRow) => pageChargeKey(r.book_id, r.language ?? '', r.page);
    const [charged, prices] = await Promise.all([
      this.d.points.chargedKeys(userId, [...new Set(rows.map(key))]),
      this.d.points.prices(),
    ]);
    const free = prices.translation === 0 && prices.translationCached === 0;
    return new Set(rows.filter((r) => r.translation && (free || charged.has(key(r)))).map((r) => r.id));
  }

  // ---------- Obsidian ----------

  /** The book's highlights and notes as one Markdown file for an Obsidian vault. */
  async obsidian(user: UserRow, code: string): Promise<{ filename: string; markdown: string }> {
    const view = await this.d.books.view(user, code);
    const rows = await this.repo.highlights(user.id, { bookId: view.book.id });
    const readable = await this.readableTranslations(user.id, rows);
    const title = view.copy?.title ?? view.book.title;
    const reading = rows[0]?.language ?? view.copy?.read_language ?? user.language;
    const markdown = obsidianMarkdown(
      {
        title,
        author: view.copy?.author ?? view.book.author,
        language: view.book.original_language ?? '',
        translationLanguage: reading,
        link: `${this.d.publicUrl}/tabs/read/${encodeURIComponent(view.book.code)}/${encodeURIComponent(reading)}`,
        exportedAt: new Date().toISOString(),
      },
      rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        chapterTitle: row.chapter_title ?? '',
        page: row.page,
        text: highlightText(row, readable.has(row.id)),
        note: row.content ?? '',
        link: paragraphLink(this.d.publicUrl, row, reading),
      })),
    );
    const name =
      title
        .replace(/[^\p{L}\p{N} _-]+/gu, '')
        .trim()
        .slice(0, 80) || 'notes';
    return { filename: `${name}.md`, markdown };
  }
}
