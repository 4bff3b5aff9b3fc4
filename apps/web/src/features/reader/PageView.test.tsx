import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PageData } from '@yidu/shared/reader';
import { PageView, sidesOf } from './PageView.tsx';
import { AnnotationModal } from './AnnotationModal.tsx';

const data: PageData = {
  page: 1,
  pageCount: 1,
  chapter: { index: 1, title: 'One', generated: null },
  translated: true,
  charge: null,
  blocks: [
    {
      id: 'h',
      type: 'heading',
      text: 'Chapter One',
      html: null,
      translation: '第一章',
      status: 'done',
      level: 1,
      imageUrl: null,
      noteLabel: null,
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
    {
      id: 'p1',
      type: 'paragraph',
      text: 'It was a dark night.',
      html: 'It was a <em>dark</em> night.',
      translation: '那是一个<em>漆黑</em>的夜晚。',
      status: 'done',
      level: null,
      imageUrl: null,
      noteLabel: null,
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
    {
      id: 'p2',
      type: 'paragraph',
      text: 'Still waiting.',
      html: null,
      translation: null,
      status: 'pending',
      level: null,
      imageUrl: null,
      noteLabel: null,
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
    {
      id: 'p3',
      type: 'paragraph',
      text: 'Broken.',
      html: null,
      translation: null,
      status: 'failed',
      level: null,
      imageUrl: null,
      noteLabel: null,
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
    {
      id: 'n1',
      type: 'footnote',
      text: 'A note.',
      html: null,
      translation: '一条注释。',
      status: 'done',
      level: null,
      imageUrl: null,
      noteLabel: '1',
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
  ],
};

function renderPage(mode: 'simple' | 'default' | 'advanced', extra: Partial<Parameters<typeof PageView>[0]> = {}) {
  const props = {
    data,
    mode,
    marks: [],
    aiNotes: [],
    expanded: new Set<string>(),
    onToggleOriginal: vi.fn(),
    onRetry: vi.fn(),
    ...extra,
  };
  return { ...render(<PageView {...props} />), props };
}

describe('images', () => {
  it('says which image failed to load, so that an expired URL can be renewed', () => {
    const onImageError = vi.fn();
    const url = '/api/media/books/1/img-a.png?exp=1000&sig=x';
    const image = { ...data.blocks[0]!, id: 'img', type: 'image', text: 'A map', imageUrl: url, translation: null };
    renderPage('simple', { data: { ...data, blocks: [image] }, onImageError });
    fireEvent.error(screen.getByRole('img', { name: 'A map' }));
    expect(onImageError).toHaveBeenCalledWith(url);
  });

  it('says a picture is still being made, in its place, until it comes', () => {
    const image = {
      ...data.blocks[0]!,
      id: 'img',
      type: 'image',
      text: 'Figure 7',
      imageUrl: null,
      imagePending: true,
      translation: null,
    };
    const { rerender, props } = renderPage('simple', { data: { ...data, blocks: [image] } });
    expect(screen.getByRole('status').textContent).toContain('still being made');
    expect(screen.queryByRole('img')).toBeNull();
    const url = '/api/media/books/1/img-b.webp?exp=1000&sig=x';
    rerender(
      <PageView {...props} data={{ ...data, blocks: [{ ...image, imageUrl: url, imagePending: undefined }] }} />,
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('img', { name: 'Figure 7' }).getAttribute('src')).toBe(url);
  });
});

describe('reader modes', () => {
  it('defines what each mode shows', () => {
    expect(sidesOf('simple', true, true)).toEqual({ original: false, translation: true });
    expect(sidesOf('default', true, false)).toEqual({ original: false, translation: true });
    expect(sidesOf('default', true, true)).toEqual({ original: true, translation: true });
    expect(sidesOf('advanced', true, false)).toEqual({ original: true, translation: true });
    expect(sidesOf('simple', false, false)).toEqual({ original: true, translation: false });
  });

  it('simple: the translation only; the original until it comes, or while it failed, with a quiet mark', () => {
    const { props } = renderPage('simple');
    expect(screen.getByText('第一章').tagName).toBe('H2');
    expect(screen.getByText('漆黑').tagName).toBe('EM');
    expect(screen.queryByText('dark')).toBeNull();
    // Pending: the original, readable, marked as being translated.
    expect(screen.getByText('Still waiting.').getAttribute('data-side')).toBe('text');
    expect(
      screen.getByRole('status', { name: 'Translating…' }).closest('[data-block]')?.getAttribute('data-block'),
    ).toBe('p2');
    // Failed for now: the original, and a quiet way to try again now (no failure text).
    expect(screen.getByText('Broken.').getAttribute('data-side')).toBe('text');
    expect(screen.queryByText(/could not be translated/)).toBeNull();
    const again = screen.getByRole('button', { name: 'Translate this paragraph again' });
    expect(again.getAttribute('title')).toMatch(/retried automatically/);
    fireEvent.click(again);
    expect(props.onRetry).toHaveBeenCalledWith('p3');
    expect(screen.getAllByText('1')[0]!.className).toBe('yd-note-label');
    expect(screen.queryByRole('button', { name: 'Show the original' })).toBeNull();
  });

  it('default: the original on demand, by clicking the paragraph or its toggle', async () => {
    const { props, rerender } = renderPage('default');
    expect(screen.queryByText('dark')).toBeNull();
    // Paragraphs without their translation yet show the original, with nothing to toggle.
    expect(screen.getByText('Still waiting.')).toBeTruthy();
    expect(screen.getByText('Broken.')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Show the original' })).toHaveLength(3);
    await userEvent.click(screen.getByText('的夜晚。', { exact: false }));
    expect(props.onToggleOriginal).toHaveBeenCalledWith('p1');
    rerender(<PageView {...props} expanded={new Set(['p1'])} />);
    expect(screen.getByText('dark').tagName).toBe('EM');
    expect(screen.getByRole('button', { name: 'Hide the original' })).toBeTruthy();
  });

  it('a translation that arrives replaces the original it stood in for (simple) or joins it (advanced)', () => {
    const arrived = {
      ...data,
      blocks: data.blocks.map((b) => (b.id === 'p2' ? { ...b, status: 'done' as const, translation: '还在等。' } : b)),
    };
    const { props, rerender } = renderPage('simple');
    rerender(<PageView {...props} data={arrived} />);
    expect(screen.getByText('还在等。')).toBeTruthy();
    expect(screen.queryByText('Still waiting.')).toBeNull();
    rerender(<PageView {...props} data={arrived} mode="advanced" />);
    expect(screen.getByText('还在等。')).toBeTruthy();
    expect(screen.getByText('Still waiting.')).toBeTruthy();
  });

  it('advanced: original and translation of every paragraph', () => {
    renderPage('advanced');
    expect(screen.getByText('Chapter One')).toBeTruthy();
    expect(screen.getByText('第一章')).toBeTruthy();
    expect(screen.getByText('dark')).toBeTruthy();
    expect(screen.getByText('漆黑')).toBeTruthy();
    expect(document.querySelector('[data-block-text="p1"][data-side="text"]')).not.toBeNull();
    expect(document.querySelector('[data-block-text="p1"][data-side="translation"]')).not.toBeNull();
  });

  it('a book already in the target language shows just its text', () => {
    render(
      <PageView
        data={{ ...data, translated: false }}
        mode="simple"
        marks={[]}
        aiNotes={[]}
        expanded={new Set()}
        onToggleOriginal={vi.fn()}
        onRetry={vi.fn()}
      />,
    );
    expect(screen.getByText('dark')).toBeTruthy();
    expect(screen.queryByText('漆黑')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('draws highlights and underlines on the side they were made in', () => {
    const mark = (id: number, kind: 'highlight' | 'underline', inTranslation: boolean, start: number, end: number) => ({
      id,
      kind,
      bookCode: 'b',
      blockId: 'p1',
      page: 1,
      start,
      end,
      inTranslation,
      language: 'zh',
      quote: '',
      content: null,
      color: 'green',
      createdAt: '',
      updatedAt: '',
    });
    renderPage('advanced', { marks: [mark(1, 'highlight', false, 9, 13), mark(2, 'underline', true, 4, 6)] });
    expect(document.querySelector('[data-side="text"] .yd-hl.yd-c-green')?.textContent).toBe('dark');
    expect(document.querySelector('[data-side="translation"] .yd-ul')?.textContent).toBe('漆黑');
  });
});

describe('annotation modal', () => {
  it('refuses empty content with the SPEC §5.7 message and saves real content', async () => {
    const onSave = vi.fn();
    render(<AnnotationModal open quote="dark night" onSave={onSave} onCancel={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Annotation content cannot be empty');
    await user.type(screen.getByRole('textbox', { name: 'Note' }), '   ');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(onSave).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'Gothic opening');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    expect(onSave).toHaveBeenCalledWith('Gothic opening');
  });
});
