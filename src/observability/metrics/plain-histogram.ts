/**
 * A histogram kept as plain numbers, written as prom-client's JSON at a scrape (the registry's
 * `getMetricsAsJSON` shape, which `scrape.ts` sums across threads). prom-client's own `observe`
 * hashes its labels on every call (4 µs for a labelled histogram under load, `front.ts`); here a
 * caller takes its series once (per operation type, per source) and an observation is a few
 * additions.
 */
import type { MetricType } from 'prom-client';
import type { MetricJson } from '../../protocol/metrics.js';

/** prom-client's JSON says `'histogram'`; its typings declare an enum that the package does not export. */
const HISTOGRAM = 'histogram' as unknown as MetricType;

/** One labelled series: counts per bucket (not cumulative), sum, count. */
export class HistogramSeries {
  private readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    const i = this.bounds.findIndex((le) => seconds <= le);
    if (i >= 0) this.counts[i]!++;
  }

  /** Its samples as the registry writes them (cumulative buckets, `+Inf`, sum, count); none before a first observation. */
  values(name: string): MetricJson['values'] {
    if (this.count === 0) return [];
    const values: MetricJson['values'] = [];
    let cumulative = 0;
    this.bounds.forEach((le, i) => {
      cumulative += this.counts[i]!;
      values.push({ labels: { le, ...this.labels }, value: cumulative, metricName: `${name}_bucket` });
    });
    values.push({ labels: { le: '+Inf', ...this.labels }, value: this.count, metricName: `${name}_bucket` });
    values.push({ labels: this.labels, value: this.sum, metricName: `${name}_sum` });
    values.push({ labels: this.labels, value: this.count, metricName: `${name}_count` });
    return values;
  }
}

export class PlainHistogram {
  private readonly all = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly buckets: readonly number[],
  ) {}

  /** The series of `labels` (the same one each time it is asked). */
  series(labels: Readonly<Record<string, string>>): HistogramSeries {
    const key = JSON.stringify(labels);
    let s = this.all.get(key);
    if (!s) this.all.set(key, (s = new HistogramSeries(labels, this.buckets)));
    return s;
  }

  json(): MetricJson {
    return { name: this.name, help: this.help, type: HISTOGRAM, values: [...this.all.values()].flatMap((s) => s.values(this.name)), aggregator: 'sum' };
  }
}
