let lastLink: { search: string; target: { page: number; blockId: string } | undefined } | undefined;

/**
 * The paragraph a link names (`?page=12&block=c3-b4`, as Readwise and Obsidian notes link back), the
 * same object for the same address so that the reader jumps once per arrival.
 */
export function paragraphLinkTarget(search: string): { page: number; blockId: string } | undefined {
  if (lastLink?.search === search) return lastLink.target;
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const blockId = params.get('block');
  const target = Number.isInteger(page) && page > 0 && blockId ? { page, blockId } : undefined;
  lastLink = { search, target };
  return target;
}
