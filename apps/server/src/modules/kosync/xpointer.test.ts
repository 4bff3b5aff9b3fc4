import { describe, expect, it } from 'vitest';
import { renderBlock, renderedElements, type ExportBlock, type RenderContext } from '../export/epub-content.ts';
import { elementPath } from './xpointer.ts';

const block = (over: Partial<ExportBlock>): ExportBlock => ({
  blockId: 'c1-b1',
  type: 'paragraph',
  text: 'Text.',
  html: null,
  level: null,
  imageId: null,
  noteLabel: null,
  referencedBy: null,
  translatable: true,
  translation: '译文。',
  ...over,
});

/** Every kind of block the export writes, including a picture that did not make it into the book. */
const BLOCKS: ExportBlock[] = [
  block({ blockId: 'c1-b1', type: 'heading', level: 2 }),
  block({ blockId: 'c1-b2' }),
  block({ blockId: 'c1-b3', type: 'quote' }),
  block({ blockId: 'c1-b4', type: 'listItem' }),
  block({ blockId: 'c1-b5', type: 'table', text: 'a | b' }),
  block({ blockId: 'c1-b6', type: 'code', translatable: false, translation: null }),
  block({ blockId: 'c1-b7', type: 'separator', text: '', translatable: false, translation: null }),
  block({
    blockId: 'c1-b8',
    type: 'image',
    imageId: 'img1',
    text: 'A caption',
    translatable: false,
    translation: null,
  }),
  block({ blockId: 'c1-b9', type: 'image', imageId: 'gone', text: '', translatable: false, translation: null }),
  block({
    blockId: 'c1-b10',
    type: 'image',
    imageId: 'gone',
    text: 'Lost picture',
    translatable: false,
    translation: null,
  }),
  block({ blockId: 'c1-b11', type: 'footnote', noteLabel: '1' }),
  block({ blockId: 'c1-b12', translatable: false, translation: null, text: ' ' }),
  block({ blockId: 'c1-b13' }),
];

describe('where a block is in an exported EPUB', () => {
  for (const mode of ['bilingual', 'translated'] as const) {
    const ctx: RenderContext = {
      mode,
      originalLang: 'en',
      targetLang: 'zh-CN',
      fileOf: () => undefined,
      imageHref: (id) => (id === 'img1' ? '../images/img1.png' : undefined),
    };
    it(`names the top-level elements renderBlock writes (${mode})`, () => {
      for (const b of BLOCKS) {
        const written = renderBlock(b, ctx)
          .split('\n')
          .filter(Boolean)
          .map((line) => /^<(\w+)/.exec(line)![1]);
        expect(renderedElements(b, ctx), b.blockId).toEqual(written);
      }
    });
    it(`counts each element among its own kind (${mode})`, () => {
      const body = BLOCKS.map((b) => renderBlock(b, ctx)).join('\n');
      const lines = body.split('\n').filter(Boolean);
      for (const b of BLOCKS) {
        const path = elementPath(BLOCKS, b.blockId, ctx);
        if (b.blockId === 'c1-b9') {
          // Nothing is written for it: the next block's element stands for it.
          expect(path).toBe(elementPath(BLOCKS, 'c1-b10', ctx));
          continue;
        }
        const [, tag, n] = /^(\w+)\[(\d+)\]$/.exec(path!)!;
        const same = lines.filter((line) => line.startsWith(`<${tag}`) && /^<(\w+)/.exec(line)![1] === tag);
        expect(same[Number(n) - 1], b.blockId).toContain(`id="${b.blockId}"`);
      }
    });
  }
});
