import type { AiAnnotation } from '@yidu/shared';
import { z } from 'zod';

/** What the AI aids make of text: model output turned into notes, and search snippets. */

const ANNOTATION_JSON = z.object({
  notes: z.array(z.object({ p: z.coerce.number(), term: z.string(), kind: z.string(), note: z.string() })),
});
const KINDS = new Set(['word', 'name', 'idiom', 'allusion', 'grammar', 'other']);

/** Model output → notes anchored to blocks; anything malformed is dropped, never trusted. */
export function parseAnnotations(text: string, blocks: { block_id: string; text: string }[]): AiAnnotation[] {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let parsed;
  try {
    parsed = ANNOTATION_JSON.safeParse(JSON.parse(json));
  } catch {
    return [];
  }
  if (!parsed.success) return [];
  return parsed.data.notes.flatMap((n) => {
    const block = blocks[n.p - 1];
    if (!block || !n.term.trim() || !n.note.trim()) return [];
    const start = block.text.indexOf(n.term);
    return [
      {
        blockId: block.block_id,
        term: n.term.slice(0, 200),
        kind: (KINDS.has(n.kind) ? n.kind : 'other') as AiAnnotation['kind'],
        note: n.note.slice(0, 1000),
        start,
        end: start === -1 ? -1 : start + n.term.length,
      },
    ];
  });
}

export const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');

export function snippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  const at = Math.max(
    0,
    Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), text.length),
  );
  const start = Math.max(0, at - 80);
  const end = Math.min(text.length, at + 160);
  return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
}
