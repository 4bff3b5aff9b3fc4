import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Mark } from '@yidu/shared/marks';
import { findLanguage } from '@yidu/shared/languages';
import { errorMessage } from '../../api/errors.ts';
import { readerApi, type HighlightStyle } from '../../api/reader.ts';
import { useUiLanguage } from '../../i18n/index.ts';
import type { HighlightColor } from './SelectionToolbar.tsx';
import type { SelectionAnchor } from './selection.ts';

/**
 * A book's marks (bookmarks, highlights, underlines, annotations) and what the reader does with them.
 * Each action updates the marks in the query cache when the server has it, and says so when it failed.
 */
export function useMarkActions(bookCode: string, language: string, bookName: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['readerMarks', bookCode], queryFn: () => readerApi.marks(bookCode) });
  const marks = useMemo(() => query.data ?? [], [query.data]);
  const setMarks = (update: (list: Mark[]) => Mark[]) =>
    client.setQueryData<Mark[]>(['readerMarks', bookCode], (old) => update(old ?? []));

  const anchorBody = (anchor: SelectionAnchor) => ({
    bookCode,
    blockId: anchor.blockId,
    start: anchor.start,
    end: anchor.end,
    quote: anchor.quote.slice(0, 5000),
    inTranslation: anchor.inTranslation,
    language: findLanguage(language)?.code ?? language,
  });

  const addStyled = async (anchor: SelectionAnchor, style: HighlightStyle, color: HighlightColor) => {
    try {
      const mark = await readerApi.addHighlight(anchorBody(anchor), style, color);
      setMarks((list) => [...list, mark]);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  /** True when the annotation was saved. */
  const addAnnotation = async (anchor: SelectionAnchor, content: string): Promise<boolean> => {
    try {
      const mark = await readerApi.addAnnotation(anchorBody(anchor), content);
      setMarks((list) => [...list, mark]);
      void message.success(t('reader.annotation.saved'));
      return true;
    } catch (error) {
      void message.error(t('reader.annotation.failed', { reason: errorMessage(error) }));
      return false;
    }
  };

  const deleteMark = async (mark: Mark) => {
    try {
      if (mark.kind === 'annotation') await readerApi.deleteAnnotation(mark.id);
      else if (mark.kind === 'bookmark') await readerApi.deleteBookmark(mark.id);
      else await readerApi.deleteHighlight(mark.id);
      setMarks((list) => list.filter((m) => m.id !== mark.id));
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  /** Adds a bookmark to the page, or removes the one it has. */
  const toggleBookmark = async (page: number, bookmark: Mark | undefined, firstBlockId: string | undefined) => {
    try {
      if (bookmark) {
        await readerApi.deleteBookmark(bookmark.id);
        setMarks((list) => list.filter((m) => m.id !== bookmark.id));
        void message.success(t('reader.bookmark.removed'));
      } else {
        const mark = await readerApi.addBookmark({ bookCode, page, blockId: firstBlockId });
        setMarks((list) => [...list, mark]);
        void message.success(t('reader.bookmark.added'));
      }
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  /** Downloads the notes as a Markdown file named after the book. */
  const exportNotes = async () => {
    try {
      const blob = await readerApi.exportNotes(bookCode, useUiLanguage.getState().language);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${bookName.replace(/[\\/:*?"<>|]+/g, ' ').trim() || bookCode}.md`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      void message.error(errorMessage(error));
    }
  };

  return {
    marks,
    loading: query.isPending,
    addStyled,
    addAnnotation,
    deleteMark,
    toggleBookmark,
    exportNotes,
  };
}
