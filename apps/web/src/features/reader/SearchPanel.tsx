import { useState } from 'react';
import { Empty, Input, Segmented, Switch, Tag } from 'antd';
import { RobotOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SearchResult } from '@yidu/shared/ai';
import { readerApi } from '../../api/reader.ts';
import { HighlightedText } from './HighlightedText.tsx';
import { usePaidAction } from './paid.tsx';

export interface SearchPanelProps {
  bookCode: string;
  language: string;
  features: ReadonlySet<string>;
  onJump: (page: number, blockId?: string | null) => void;
}

type Order = 'relevance' | 'book';

/** Intelligent search: passages best first (or in book order) with their matches marked, and the AI's answer. */
export function SearchPanel({ bookCode, language, features, onJump }: SearchPanelProps) {
  const { t } = useTranslation();
  const paid = usePaidAction(bookCode);
  const [query, setQuery] = useState('');
  const [askAi, setAskAi] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SearchResult | null>(null);
  const [order, setOrder] = useState<Order>('relevance');

  const run = async () => {
    const q = query.trim();
    if (!q) return;
    setBusy(true);
    try {
      const found = await paid((confirm) => readerApi.search({ bookCode, language, query: q, ai: askAi, confirm }));
      if (found) setResult(found);
    } finally {
      setBusy(false);
    }
  };

  if (!features.has('search')) return <p className="yd-muted">{t('reader.search.unavailable')}</p>;
  return (
    <>
      <Input.Search
        placeholder={t('reader.search.placeholder')}
        aria-label={t('reader.search.placeholder')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onSearch={() => void run()}
        enterButton={<SearchOutlined aria-label={t('reader.search.go')} />}
        loading={busy}
        maxLength={500}
      />
      <label className="yd-search-ai">
        <Switch size="small" checked={askAi} onChange={setAskAi} /> {t('reader.search.askAi')}
      </label>
      {result && (
        <div className="yd-search-results">
          {result.answer && <AiAnswer result={result} onJump={onJump} />}
          {result.hits.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reader.search.none')} />
          ) : (
            <>
              <SearchSummary result={result} />
              <Segmented
                size="small"
                value={order}
                onChange={(value) => setOrder(value as Order)}
                options={[
                  { value: 'relevance', label: t('reader.search.order.relevance') },
                  { value: 'book', label: t('reader.search.order.book') },
                ]}
              />
              <SearchHits result={result} order={order} onJump={onJump} />
            </>
          )}
        </div>
      )}
    </>
  );
}

/** How many passages and matches, per word searched, and the words left out. */
function SearchSummary({ result }: { result: SearchResult }) {
  const { t } = useTranslation();
  const { stats, hits } = result;
  return (
    <div className="yd-search-summary" aria-live="polite">
      <div className="yd-search-count">
        {t('reader.search.summary', {
          passages: t('reader.search.passageCount', { count: stats.passages }),
          occurrences: t('reader.search.matchCount', { count: stats.occurrences }),
        })}
        {stats.passages > hits.length && <span> · {t('reader.search.showingBest', { count: hits.length })}</span>}
      </div>
      {stats.keywords.length > 1 && (
        <div className="yd-search-keywords">
          {stats.keywords.map((k) => (
            <Tag key={k.keyword} bordered={false}>
              {k.keyword} · {k.passages}
            </Tag>
          ))}
        </div>
      )}
      {stats.ignored.length > 0 && (
        <div className="yd-muted yd-search-ignored">
          {t('reader.search.ignored', { words: stats.ignored.join(t('reader.search.listSeparator')) })}
        </div>
      )}
      {stats.truncated && <div className="yd-muted">{t('reader.search.truncated')}</div>}
    </div>
  );
}

function SearchHits({
  result,
  order,
  onJump,
}: {
  result: SearchResult;
  order: Order;
  onJump: SearchPanelProps['onJump'];
}) {
  const { t } = useTranslation();
  const hits = order === 'book' ? [...result.hits].sort((a, b) => a.position - b.position) : result.hits;
  return (
    <ul className="yd-mark-list yd-search-hits">
      {hits.map((hit) => (
        <li key={hit.blockId} className="yd-mark">
          <button type="button" className="yd-mark-main yd-hit" onClick={() => onJump(hit.page, hit.blockId)}>
            <span className="yd-mark-text">
              <span className="yd-mark-kind">
                {hit.chapterTitle} · {t('reader.pageN', { page: hit.page })}
                {' · '}
                {t('reader.search.matchCount', { count: hit.occurrences })}
                {hit.inTranslation && (
                  <Tag bordered={false} className="yd-hit-tag">
                    {t('reader.search.inTranslation')}
                  </Tag>
                )}
              </span>
              <span className="yd-mark-content yd-hit-snippet">
                <HighlightedText text={hit.snippet} highlights={hit.highlights} />
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The AI's answer; each [n] jumps to the passage it cites. */
function AiAnswer({ result, onJump }: { result: SearchResult; onJump: SearchPanelProps['onJump'] }) {
  const { t } = useTranslation();
  const answer = result.answer!;
  return (
    <div className="yd-answer">
      <div className="yd-answer-title">
        <RobotOutlined /> {t('reader.search.answer')}
      </div>
      <p>
        {answer.text.split(/(\[\d+\])/).map((part, i) => {
          const n = /^\[(\d+)\]$/.exec(part)?.[1];
          const citation = n ? answer.citations.find((c) => c.n === Number(n)) : undefined;
          return citation ? (
            <button
              key={i}
              type="button"
              className="yd-cite"
              onClick={() => onJump(citation.page, citation.blockId)}
              title={t('reader.pageN', { page: citation.page })}
            >
              {part}
            </button>
          ) : (
            <span key={i}>{part}</span>
          );
        })}
      </p>
      {result.charge?.charged && (
        <div className="yd-muted">{t('reader.ai.charged', { points: result.charge.points })}</div>
      )}
    </div>
  );
}
