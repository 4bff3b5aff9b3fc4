/**
 * A small Prometheus registry (text exposition format 0.0.4): counters and histograms kept in this
 * process, rendered on scrape together with gauges read from the database.
 */
type Labels = Record<string, string>;

const key = (labels: Labels) =>
  Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');

export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();
  private readonly histograms = new Map<
    string,
    { help: string; buckets: number[]; values: Map<string, { counts: number[]; sum: number; count: number }> }
  >();

  counter(name: string, help: string): (labels?: Labels, by?: number) => void {
    const entry = { help, values: new Map<string, number>() };
    this.counters.set(name, entry);
    return (labels = {}, by = 1) => {
      const k = key(labels);
      entry.values.set(k, (entry.values.get(k) ?? 0) + by);
    };
  }

  histogram(name: string, help: string, buckets = LATENCY_BUCKETS): (labels: Labels, value: number) => void {
    const entry = { help, buckets, values: new Map<string, { counts: number[]; sum: number; count: number }>() };
    this.histograms.set(name, entry);
    return (labels, value) => {
      const k = key(labels);
      let v = entry.values.get(k);
      if (!v) entry.values.set(k, (v = { counts: buckets.map(() => 0), sum: 0, count: 0 }));
      buckets.forEach((b, i) => {
        if (value <= b) v.counts[i]! += 1;
      });
      v.sum += value;
      v.count += 1;
    };
  }

  render(gauges: { name: string; help: string; values: { labels: Labels; value: number }[] }[] = []): string {
    const out: string[] = [];
    for (const [name, { help, values }] of this.counters) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [k, v] of values) out.push(`${name}${k ? `{${k}}` : ''} ${v}`);
    }
    for (const [name, { help, buckets, values }] of this.histograms) {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
      for (const [k, v] of values) {
        const sep = k ? ',' : '';
        buckets.forEach((b, i) => out.push(`${name}_bucket{${k}${sep}le="${b}"} ${v.counts[i]}`));
        out.push(
          `${name}_bucket{${k}${sep}le="+Inf"} ${v.count}`,
          `${name}_sum${k ? `{${k}}` : ''} ${v.sum}`,
          `${name}_count${k ? `{${k}}` : ''} ${v.count}`,
        );
      }
    }
    for (const gauge of gauges) {
      out.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
      for (const v of gauge.values) {
        const k = key(v.labels);
        out.push(`${gauge.name}${k ? `{${k}}` : ''} ${v.value}`);
      }
    }
    return out.join('\n') + '\n';
  }
}

/** The process's registry and the instruments the code records into. */
export const metrics = new Metrics();
export const httpDuration = metrics.histogram(
  'yidu_http_request_duration_seconds',
  'HTTP request latency by route and status',
);
export const errorsTotal = metrics.counter('yidu_errors_total', 'API errors answered, by error key');
export const translatedSegments = metrics.counter(
  'yidu_translated_segments_total',
  'Segments translated by an engine (not from memory), by engine',
);
export const translationFailures = metrics.counter(
  'yidu_translation_failures_total',
  'Translation requests that failed on every engine, by error kind',
);
export const memoryHits = metrics.counter(
  'yidu_translation_memory_hits_total',
  'Segments served from the shared translation memory',
);
