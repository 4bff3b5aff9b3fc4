import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { anchorOfSelection, offsetsWithin } from './selection.ts';
import { parseInline, renderInline } from './inlineMarkup.tsx';

function setup() {
  return render(
    <div>
      <p data-block-text="b1" data-side="text">
        {renderInline(parseInline('The <em>quick</em> brown <strong>fox</strong> jumps'), {
          decorations: [{ start: 0, end: 3, className: 'hl' }],
        })}
      </p>
      <p data-block-text="b1" data-side="translation">
        敏捷的<b>棕色</b>狐狸
      </p>
      <p data-block-text="b2" data-side="text">
        Second block
      </p>
    </div>,
  ).container;
}

function textNode(root: Node, text: string): Text {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.nodeValue === text) return node as Text;
  throw new Error(`no text node ${text}`);
}

function select(start: [Node, number], end: [Node, number]): Selection {
  const range = document.createRange();
  range.setStart(...start);
  range.setEnd(...end);
  const selection = window.getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
  return selection;
}

describe('selection anchors', () => {
  it('counts a line break of verse as the one character it is in the text, and draws highlights across it', () => {
    const text = 'Little Harry Hughes and his schoolfellows all\nWent out for to play ball.';
    const start = text.indexOf('all');
    const end = text.indexOf('Went') + 4;
    const root = render(
      <p data-block-text="v1" data-side="text" style={{ whiteSpace: 'pre-line' }}>
        {renderInline(parseInline(null, text), { decorations: [{ start, end, className: 'hl' }] })}
      </p>,
    ).container;
    expect(root.querySelector('.hl')!.textContent).toBe('all\nWent');
    const selection = select([textNode(root, 'all\nWent'), 0], [textNode(root, 'all\nWent'), 8]);
    expect(anchorOfSelection(selection)).toEqual({
      blockId: 'v1',
      inTranslation: false,
      start,
      end,
      quote: 'all\nWent',
    });
  });

  it('gives offsets in the rendered text of the block, across inline elements and decorations', () => {
    const root = setup();
    // "quick brown f": from inside <em> to inside <strong>.
    const selection = select([textNode(root, 'quick'), 0], [textNode(root, 'fox'), 1]);
    expect(anchorOfSelection(selection)).toEqual({
      blockId: 'b1',
      inTranslation: false,
      start: 4,
      end: 17,
      quote: 'quick brown f',
    });
  });

  it('knows selections made in the translation', () => {
    const root = setup();
    const selection = select([textNode(root, '棕色'), 0], [textNode(root, '狐狸'), 2]);
    expect(anchorOfSelection(selection)).toMatchObject({
      blockId: 'b1',
      inTranslation: true,
      start: 3,
      end: 7,
      quote: '棕色狐狸',
    });
  });

  it('clamps a selection running into the next block to the block where it starts', () => {
    const root = setup();
    const selection = select([textNode(root, ' jumps'), 1], [textNode(root, 'Second block'), 6]);
    const anchor = anchorOfSelection(selection)!;
    expect(anchor.blockId).toBe('b1');
    expect(anchor.quote).toBe('jumps');
  });

  it('ignores collapsed selections and text outside blocks', () => {
    const root = setup();
    const collapsed = select([textNode(root, 'quick'), 2], [textNode(root, 'quick'), 2]);
    expect(anchorOfSelection(collapsed)).toBeNull();
    const other = document.createElement('p');
    other.textContent = 'outside';
    document.body.appendChild(other);
    expect(anchorOfSelection(select([other.firstChild!, 0], [other.firstChild!, 3]))).toBeNull();
    const range = document.createRange();
    range.setStart(other.firstChild!, 0);
    range.setEnd(other.firstChild!, 3);
    expect(offsetsWithin(root.querySelector('p')!, range)).toBeNull();
    other.remove();
  });
});
