import type { BookDetail, BookSummary, UploadCount } from '@yidu/shared/books';

/** Test fixtures for the books pages (not shipped: only tests import this file). */
export function makeBook(overrides: Partial<BookSummary> = {}): BookSummary {
  return {
    bookCode: 'b1',
    bookName: 'Moby-Dick',
    bookAuthor: 'Herman Melville',
    bookDescribe: 'Call me Ishmael.',
    category: 'Novel',
    bookStatus: 1,
    coverUrl: null,
    format: 'epub',
    originalLanguage: 'en',
    readLanguage: 'zh',
    pageCount: 524,
    chapterCount: 142,
    readers: 3,
    isOwner: true,
    inLibrary: true,
    updateAt: '2026-11-01T10:00:00.000Z',
    createdAt: '2026-10-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeDetail(overrides: Partial<BookDetail> = {}): BookDetail {
  const base = {
    ...makeBook(),
    sourcePages: null,
    features: ['annotation'],
    contents: [
      { title: 'Loomings', generated: null, level: 1, page: 13, blockId: 'c1-b1' },
      { title: 'The Carpet-Bag', generated: null, level: 1, page: 18, blockId: 'c2-b1' },
    ],
  };
  return { ...base, ...overrides } as BookDetail;
}

export function makeCounts(overrides: Partial<UploadCount> = {}): UploadCount {
  return {
    today: 1,
    thisMonth: 5,
    dailyLimit: 20,
    monthlyLimit: 100,
    maxFileMb: 20,
    contactEmail: 'help@example.com',
    ...overrides,
  };
}

export const page = (items: BookSummary[], total = items.length) => ({ items, total, page: 1, pageSize: 24 });
