/**
 * What finished WordprocessingML tables and notes become: a data table one text block (a line per
 * row, a tab between cells), a layout table its paragraphs, a note one footnote block.
 */
import type { BlockDraft } from '../blocks.ts';
import { escapeHtml } from '../markup.ts';

export interface NoteBody {
  key: string;
  drafts: BlockDraft[];
}

export interface Cell {
  drafts: BlockDraft[];
}

export interface Table {
  rows: Cell[][];
}

/**
 * Tables used for page layout (one cell per row, or a few rows of long text) are read as their
 * paragraphs; data tables become one text block, a line per row and a tab between cells.
 */
export function tableDrafts(table: Table): BlockDraft[] {
  let maxCells = 0;
  let longCell = false;
  const cellTexts = table.rows.map((row) => {
    maxCells = Math.max(maxCells, row.length);
    return row.map((cell) => {
      const text = cell.drafts
        .filter((d) => d.type !== 'image')
        .map((d) => d.text)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      if (text.length > 300) longCell = true;
      return text;
    });
  });
  if (maxCells <= 1 || (longCell && table.rows.length <= 3)) {
    return table.rows.flatMap((row) => row.flatMap((cell) => cell.drafts));
  }
  const text = cellTexts
    .map((row) => row.filter(Boolean).join('\t'))
    .filter(Boolean)
    .join('\n');
  const noteRefs = new Set<string>();
  const images: BlockDraft[] = [];
  for (const row of table.rows)
    for (const cell of row)
      for (const d of cell.drafts) {
        if (d.type === 'image') images.push(d);
        for (const key of d.noteRefKeys ?? []) noteRefs.add(key);
      }
  const drafts: BlockDraft[] = [];
  if (text) {
    const draft: BlockDraft = { type: 'table', text };
    if (noteRefs.size) draft.noteRefKeys = [...noteRefs];
    drafts.push(draft);
  }
  return [...drafts, ...images];
}

/** One footnote block per note: its paragraphs joined (a note reads as one unit), images after it. */
export function noteDrafts(note: NoteBody, label: string | undefined): BlockDraft[] {
  const parts = note.drafts.filter((d) => d.type !== 'image' && d.text);
  const out: BlockDraft[] = [];
  if (parts.length) {
    const text = parts.map((d) => d.text.replace(/\n+/g, ' ')).join(' ');
    const draft: BlockDraft = { type: 'footnote', text, noteKey: note.key };
    if (label) draft.noteLabel = label;
    if (parts.some((d) => d.html))
      draft.html = parts.map((d) => (d.html ?? escapeHtml(d.text)).replace(/\n+/g, ' ')).join(' ');
    out.push(draft);
  }
  for (const d of note.drafts) if (d.type === 'image') out.push(d);
  return out;
}
