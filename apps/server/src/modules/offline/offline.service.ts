import { findLanguage, OFFLINE_PAGES_PER_CALL, type OfflinePages, type PageData } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { pageChargeKey } from '../reader/page-charges.ts';
import { isTranslatable } from '../reader/page-translator.ts';
import { OfflineRepo } from './offline.repo.ts';

/**
 * Pages to keep on a device for reading offline. Only what the reader may already read is given:
 * a page in the book's own language, a page with nothing to translate, or a page whose translation is
 * complete and charged to this reader (or free at the current prices). Nothing is charged and nothing
 * is translated here, so a download is never a way around the points, and an untranslated page is
 * left out (listed as missing) rather than shown without its translation.
 */
export class OfflineService {
  private readonly repo: OfflineRepo;
  private readonly books: BooksService;
  private readonly points: PointsService;
  constructor(deps: { db: Db; books: BooksService; points: PointsService }) {
    this.repo = new OfflineRepo(deps.db);
    this.books = deps.books;
    this.points = deps.points;
  }

  async pages(user: UserRow, code: string, language: string, from: number, to: number): Promise<OfflinePages> {
    const { book } = await this.books.view(user, code);
    const target = findLanguage(language);
    if (!target) throw fail('noSuchLanguage');
    if (book.status !== 'ready') throw fail('bookNotFound');
    const last = Math.min(to, book.page_count, from + OFFLINE_PAGES_PER_CALL - 1);
    if (from > last) return { pageCount: book.page_count, pages: [], missing: [] };

    const translated = book.original_language !== target.code;
    const [rows, chapters] = await Promise.all([
      this.repo.blocks(book.id, target.code, from, last),
      this.repo.chapters(book.id),
    ]);
    const titles = new Map(chapters.map((c) => [c.idx, c]));
    const byPage = new Map<number, typeof rows>();
    for (const row of rows) byPage.set(row.page, [...(byPage.get(row.page) ?? []), row]);

    const keys = [...byPage.keys()].map((page) => pageChargeKey(book.id, target.code, page));
    const [charged, prices] = await Promise.all([this.points.chargedKeys(user.id, keys), this.points.prices()]);
    const free = prices.translation === 0 && prices.translationCached === 0;
    const images = await this.books.pageImages(
      book,
      user,
      rows.flatMap((b) => (b.image_id ? [b.image_id] : [])),
    );

    const pages: PageData[] = [];
    const missing: number[] = [];
    for (let page = from; page <= last; page++) {
      const blocks = byPage.get(page) ?? [];
      const wanted = translated ? blocks.filter(isTranslatable) : [];
      const paid = wanted.length === 0 || free || charged.has(pageChargeKey(book.id, target.code, page));
      if (!paid || wanted.some((b) => b.translation === null)) {
        missing.push(page);
        continue;
      }
      const chapter = blocks[0]?.chapter_idx ?? 1;
      pages.push({
        page,
        pageCount: book.page_count,
        chapter: {
          index: chapter,
          title: titles.get(chapter)?.title ?? '',
          generated: titles.get(chapter)?.generated ?? null,
        },
        blocks: blocks.map((b) => {
          const translatable = translated && isTranslatable(b);
          return {
            id: b.block_id,
            type: b.type,
            text: b.text,
            html: b.html,
            translation: translatable ? b.translation : null,
            status: 'done' as const,
            level: b.level,
            ...images.of(b.image_id),
            noteLabel: b.note_label,
            noteRefs: b.note_refs,
            pdfPage: b.pdf_page,
            pdfRegions: b.pdf_regions,
            ...(b.referenced_by?.length ? { referencedBy: b.referenced_by } : {}),
          };
        }),
        translated,
        charge: null,
      });
    }
    return { pageCount: book.page_count, pages, missing };
  }
}
