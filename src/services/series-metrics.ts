// Request counts and durations for GET /metrics, kept per series in plain numbers and handed to
// prom-client's registry as metrics of its own when it is scraped. prom-client hashes the label
// set on every observation, which on a cached answer costs more than the rest of the request; the
// series here are looked up once (per method, route and status) and then observed with a few
// additions. The exposition (names, labels, buckets, _sum, _count) is prom-client's own.
import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  /** Observations at or below each bucket's bound (cumulative when exposed). */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** An observer of one series: what a request calls. */
export interface SeriesObserver {
  observe(seconds: number): void;
}

/** The value objects prom-client's registry formats (as its own metrics' get() return them). */
interface MetricValue {
  value: number;
  labels: Labels;
  metricName?: string;
}

/**
 * A histogram (`name`) and a counter (`countName`) over the same labelled series: every
 * observation counts in both. Registered in a prom-client registry as two metrics.
 */
export class SeriesHistogram {
  private readonly series = new Map<string, Series>();

  constructor(private readonly options: { name: string; help: string; countName: string; countHelp: string; buckets: readonly number[] }) {}

  /** The observer of the series with these labels; `key` names the set (labels are not hashed per call). */
  observer(key: string, labels: Labels): SeriesObserver {
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels, buckets: new Float64Array(this.options.buckets.length), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const s = series;
    const bounds = this.options.buckets;
    return {
      observe(seconds) {
        s.sum += seconds;
        s.count++;
        for (let i = 0; i < bounds.length; i++) {
          if (seconds <= bounds[i]!) {
            s.buckets[i]!++;
            break;
          }
        }
      },
    };
  }

  register(registry: Registry): void {
    const { name, help, countName, countHelp, buckets } = this.options;
    const all = () => [...this.series.values()];
    const histogram = {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => ({
        name,
        help,
        type: 'histogram',
        aggregator: 'sum',
        values: all().flatMap((s): MetricValue[] => {
          let cumulative = 0;
          const lines = buckets.map((le, i): MetricValue => {
            cumulative += s.buckets[i]!;
            return { value: cumulative, labels: { ...s.labels, le: String(le) }, metricName: `${name}_bucket` };
          });
          lines.push({ value: s.count, labels: { ...s.labels, le: '+Inf' }, metricName: `${name}_bucket` });
          lines.push({ value: s.sum, labels: s.labels, metricName: `${name}_sum` });
          lines.push({ value: s.count, labels: s.labels, metricName: `${name}_count` });
          return lines;
        }),
      }),
      reset: () => this.series.clear(),
    };
    const counter = {
      name: countName,
      help: countHelp,
      type: 'counter',
      aggregator: 'sum',
      get: () => ({
        name: countName,
        help: countHelp,
        type: 'counter',
        aggregator: 'sum',
        values: all().map((s): MetricValue => ({ value: s.count, labels: s.labels })),
      }),
      reset: () => this.series.clear(),
    };
    // The registry takes any object with a name and get() shaped like its own metrics'.
    registry.registerMetric(histogram as unknown as Metric);
    registry.registerMetric(counter as unknown as Metric);
  }
}
