import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageData } from '@yidu/shared/reader';
import { blockDomId } from './PageView.tsx';
import { pickVoice, readingSegments, type ReadAloudMode, type Segment } from './wordsToLearn.ts';

export type ReadAloudState = 'idle' | 'playing' | 'paused';
/** The attribute on the block being read (React does not manage it, so re-renders keep it). */
export const READING_ATTR = 'data-reading';
const VOICES_KEY = 'yd-read-aloud-voices';

const synthesis = (): SpeechSynthesis | undefined =>
  typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : undefined;

function storedVoices(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(VOICES_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

interface Options {
  data: PageData | undefined;
  page: number | null;
  pageCount: number;
  /** BCP 47 tags of the book's language and of the reader's. */
  originalLang: string | undefined;
  targetLang: string | undefined;
  /** Turns to the next page (reading goes on there once it has loaded). */
  onNextPage: () => void;
}

/**
 * Reads the page aloud with the browser's speech synthesis, paragraph by paragraph (the original,
 * the translation or both), marking the paragraph being read and turning to the next page at the end
 * of one. Waits for a translation that is still coming; a page the reader turns to themselves is read
 * from its top.
 */
export function useReadAloud({ data, page, pageCount, originalLang, targetLang, onNextPage }: Options) {
  const [state, setState] = useState<ReadAloudState>('idle');
  const [mode, setMode] = useState<ReadAloudMode>('both');
  const [rate, setRate] = useState(1);
  /** The paragraph being read: its page, its number among the page's read paragraphs, its block. */
  const [current, setCurrent] = useState<{ page: number; paragraph: number; blockId: string } | null>(null);
  const [finished, setFinished] = useState(false);
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>([]);
  const [chosen, setChosen] = useState<Record<string, string>>(storedVoices);
  const [tick, setTick] = useState(0);
  const index = useRef(0);
  const readingPage = useRef<number | null>(null);
  const utterance = useRef<SpeechSynthesisUtterance | null>(null);
  const marked = useRef<string | null>(null);
  const supported = synthesis() !== undefined && typeof SpeechSynthesisUtterance !== 'undefined';

  useEffect(() => {
    const synth = synthesis();
    if (!synth) return;
    const load = () => setVoices(synth.getVoices());
    load();
    synth.addEventListener?.('voiceschanged', load);
    return () => synth.removeEventListener?.('voiceschanged', load);
  }, []);

  const mark = useCallback((blockId: string | null) => {
    if (marked.current) document.getElementById(blockDomId(marked.current))?.removeAttribute(READING_ATTR);
    marked.current = blockId;
    if (!blockId) return;
    const element = document.getElementById(blockDomId(blockId));
    element?.setAttribute(READING_ATTR, '');
    element?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, []);

  const silence = useCallback(() => {
    utterance.current = null;
    synthesis()?.cancel();
  }, []);

  const stop = useCallback(() => {
    silence();
    index.current = 0;
    readingPage.current = null;
    setState('idle');
    setCurrent(null);
    mark(null);
  }, [silence, mark]);

  const start = useCallback(() => {
    if (!supported || page === null) return;
    silence();
    index.current = 0;
    readingPage.current = page;
    setFinished(false);
    setState('playing');
    setTick((n) => n + 1);
  }, [supported, page, silence]);

  const pause = useCallback(() => {
    synthesis()?.pause();
    setState('paused');
  }, []);
  const resume = useCallback(() => {
    synthesis()?.resume();
    setState('playing');
  }, []);

  // The reader turned the page: read the new one from its top.
  useEffect(() => {
    if (state === 'idle' || page === null || readingPage.current === page) return;
    silence();
    index.current = 0;
    readingPage.current = page;
    mark(null);
    setTick((n) => n + 1);
  }, [page, state, silence, mark]);

  // Speak the next segment whenever nothing is being said.
  useEffect(() => {
    const synth = synthesis();
    if (state !== 'playing' || !synth || utterance.current || page === null) return;
    if (!data || data.page !== page) return; // the page is still loading
    const segments = readingSegments(data.blocks, mode, data.translated);
    if (index.current >= segments.length) {
      if (page < pageCount) {
        index.current = 0;
        onNextPage();
      } else {
        stop();
        setFinished(true);
      }
      return;
    }
    const segment: Segment = segments[index.current]!;
    if (segment.pending) return; // its translation is on its way: data changes when it arrives
    const lang = segment.side === 'original' ? originalLang : targetLang;
    const spoken = new SpeechSynthesisUtterance(segment.text);
    if (lang) spoken.lang = lang;
    const voice = pickVoice(voices, lang, lang ? chosen[lang] : undefined);
    if (voice) spoken.voice = voice;
    spoken.rate = rate;
    const paragraph = new Set(segments.slice(0, index.current + 1).map((s) => s.blockId)).size;
    const at = { page, paragraph, blockId: segment.blockId };
    spoken.onstart = () => {
      if (utterance.current !== spoken) return;
      mark(segment.blockId);
      setCurrent(at);
    };
    const next = () => {
      if (utterance.current !== spoken) return; // stopped, or replaced after a page turn
      utterance.current = null;
      index.current += 1;
      setTick((n) => n + 1);
    };
    spoken.onend = next;
    spoken.onerror = (event) => {
      // 'interrupted' and 'canceled' are our own cancel(); anything else skips the segment.
      if (event.error !== 'interrupted' && event.error !== 'canceled') next();
    };
    utterance.current = spoken;
    synth.speak(spoken);
  }, [
    state,
    data,
    page,
    pageCount,
    mode,
    rate,
    voices,
    chosen,
    originalLang,
    targetLang,
    tick,
    onNextPage,
    stop,
    mark,
  ]);

  // Nothing goes on speaking after the reader is closed.
  useEffect(() => () => synthesis()?.cancel(), []);

  const chooseVoice = useCallback((lang: string, voiceURI: string | null) => {
    setChosen((old) => {
      const next = { ...old };
      if (voiceURI) next[lang] = voiceURI;
      else delete next[lang];
      try {
        localStorage.setItem(VOICES_KEY, JSON.stringify(next));
      } catch {
        // storage unavailable: the choice lasts this session
      }
      return next;
    });
  }, []);

  const changeMode = useCallback(
    (next: ReadAloudMode) => {
      if (state !== 'idle') stop();
      setMode(next);
    },
    [state, stop],
  );

  return {
    supported,
    state,
    mode,
    setMode: changeMode,
    rate,
    setRate,
    voices,
    chosen,
    chooseVoice,
    current,
    finished,
    start,
    pause,
    resume,
    stop,
  };
}

export type ReadAloud = ReturnType<typeof useReadAloud>;
