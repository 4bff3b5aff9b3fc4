/**
 * HTTP range requests (RFC 9110 §14) for stored files: what to answer a GET or HEAD given its Range,
 * If-Range and If-None-Match headers and the file's size and entity tag.
 *
 * One range is served as 206 Partial Content. Several ranges are answered with the whole file (a
 * server may ignore Range; pdf.js asks for one range at a time, and multipart answers would let a
 * client ask for the same bytes many times over in one request). A Range header that cannot be
 * read, or names another unit, is ignored; one that names only bytes past the end is 416.
 */
export type RangeAnswer =
  { status: 200 } | { status: 206; start: number; end: number } | { status: 304 } | { status: 416 };

export interface RangeHeaders {
  range?: string | undefined;
  ifRange?: string | undefined;
  ifNoneMatch?: string | undefined;
}

export function answerRange(headers: RangeHeaders, file: { size: number; etag: string }): RangeAnswer {
  if (headers.ifNoneMatch !== undefined && matchesAny(headers.ifNoneMatch, file.etag)) return { status: 304 };
  if (headers.range === undefined) return { status: 200 };
  // If-Range: the range only while the client's copy is current (a date never is: no Last-Modified is sent).
  if (headers.ifRange !== undefined && headers.ifRange.trim() !== file.etag) return { status: 200 };
  const range = parseRange(headers.range, file.size);
  if (range === 'ignore') return { status: 200 };
  if (range === 'unsatisfiable') return { status: 416 };
  return { status: 206, ...range };
}

/** The one byte range a Range header asks for, clamped to the file. */
export function parseRange(header: string, size: number): { start: number; end: number } | 'ignore' | 'unsatisfiable' {
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return 'ignore';
  const specs = match[1]!.split(',').map((s) => s.trim());
  if (specs.length !== 1) return 'ignore';
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return 'ignore';
  const [, first, last] = spec;
  if (first !== '' && Number(first) >= size && Number.isSafeInteger(Number(first))) {
    return last === '' || Number(last) >= Number(first) ? 'unsatisfiable' : 'ignore';
  }
  if (first === '') {
    // A suffix: the last n bytes.
    const length = Number(last);
    if (!Number.isSafeInteger(length)) return 'ignore';
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return 'ignore';
  return { start, end: Math.min(end, size - 1) };
}

function matchesAny(list: string, etag: string): boolean {
  const weakless = (tag: string) => tag.trim().replace(/^W\//, '');
  return list.trim() === '*' || list.split(',').some((tag) => weakless(tag) === weakless(etag));
}
