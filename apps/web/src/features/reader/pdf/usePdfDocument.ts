import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { OriginalFile } from '@yidu/shared/original-pages';
import { readerApi } from '../../../api/reader.ts';
import { openPdf, type OriginalSource } from './pdfjs.ts';

/** A URL this close to its expiry is renewed before it is used. */
const RENEW_BEFORE_MS = 5 * 60_000;

export const originalFileKey = (bookCode: string) => ['originalFile', bookCode] as const;

/**
 * The book's original PDF opened by pdf.js from its signed URL, which is renewed as it nears its
 * expiry (or when a range is refused) without opening the document again.
 */
export function usePdfDocument(bookCode: string): {
  doc: PDFDocumentProxy | null;
  error: unknown;
  retry: () => void;
} {
  const client = useQueryClient();
  const file = useQuery({
    queryKey: originalFileKey(bookCode),
    queryFn: () => readerApi.original(bookCode),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const latest = useRef<OriginalFile | undefined>(file.data);
  latest.current = file.data ?? latest.current;
  const [opened, setOpened] = useState<{ doc: PDFDocumentProxy | null; error: unknown }>({ doc: null, error: null });
  const [attempt, setAttempt] = useState(0);
  const size = file.data?.size;

  useEffect(() => {
    if (size === undefined) return;
    let alive = true;
    const renew = async () => {
      const fresh = await client.fetchQuery({
        queryKey: originalFileKey(bookCode),
        queryFn: () => readerApi.original(bookCode),
        staleTime: 0,
      });
      latest.current = fresh;
      return fresh.url;
    };
    const source: OriginalSource = {
      size,
      url: async () => {
        const known = latest.current;
        return known && Date.parse(known.expiresAt) - Date.now() > RENEW_BEFORE_MS ? known.url : renew();
      },
      renew,
    };
    const fail = (error: unknown) => alive && setOpened({ doc: null, error });
    const task = openPdf(source, fail);
    task.promise.then((doc) => alive && setOpened({ doc, error: null }), fail);
    return () => {
      alive = false;
      setOpened({ doc: null, error: null });
      void task.destroy();
    };
  }, [client, bookCode, size, attempt]);

  const retry = useCallback(() => {
    setAttempt((n) => n + 1);
    void file.refetch();
  }, [file]);

  return { doc: opened.doc, error: file.error ?? opened.error, retry };
}
