// Prometheus metrics (docs/operations.md), in a registry of this instance's own: several apps in one
// process (tests) never share or clash. Labels are bounded: route templates, never raw URLs.
import type { QueryTiming } from './db/connection.js';
import type { Counter, Histogram, Registry } from 'prom-client';
import { promClient } from './prom-client.js';

/** Registers more metrics on the registry (outbox, webhook and network-push figures). */
export type MetricsExtension = (registry: Registry) => void;

/** From a millisecond to ten seconds: the request and statement durations worth telling apart. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATEMENTS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'with',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'pragma',
]);

/** The route label of a request that matched no route (404, 405): never the URL itself. */
export const UNMATCHED_ROUTE = 'unmatched';

/** A route template without its parameters' patterns: /api/bookings/:id(^\\d{1,10}$) -> /api/bookings/:id. */
export function routeLabel(template: string): string {
  return template.replace(/(:\w+)\([^/]*\)/g, '$1');
}

export class Metrics {
  readonly registry = new (promClient().Registry)();
  private readonly requestDurations: Histogram<'method' | 'route' | 'status'>;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly conditionals: Counter<'response'>;
  /** The names of 0.1.0, counting the same: deprecated, kept for the next release only. */
  private readonly deprecatedNotModified: Counter;
  private readonly deprecatedFull: Counter;
  private readonly queries: Histogram<'statement' | 'outcome'>;
  private processMetrics = false;

  /** `extensions`: the features' own figures (bookings live, the outbox), each registered on this registry. */
  constructor(extensions: readonly MetricsExtension[] = []) {
    const { Counter, Histogram } = promClient();
    const registers = [this.registry];
    const labelNames = ['method', 'route', 'status'] as const;
    this.requestDurations = new Histogram({
      name: 'sector_http_request_duration_seconds',
      help: 'Time to respond to HTTP requests, by method, route template and status',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.requests = new Counter({
      name: 'sector_http_requests_total',
      help: 'HTTP requests responded to, by method, route template and status',
      labelNames,
      registers,
    });
    this.conditionals = new Counter({
      name: 'sector_http_conditional_requests_total',
      help: "Conditional GETs (If-None-Match), by response: not_modified (304, the client's copy still holds) or full",
      labelNames: ['response'],
      registers,
    });
    this.deprecatedNotModified = new Counter({
      name: 'sector_response_cache_hits_total',
      help: 'Deprecated, use sector_http_conditional_requests_total{response="not_modified"}: conditional GETs that got a 304',
      registers,
    });
    this.deprecatedFull = new Counter({
      name: 'sector_response_cache_misses_total',
      help: 'Deprecated, use sector_http_conditional_requests_total{response="full"}: conditional GETs that got the full response',
      registers,
    });
    this.queries = new Histogram({
      name: 'sector_db_query_duration_seconds',
      help: 'Database statement durations, by kind of statement and outcome',
      labelNames: ['statement', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    for (const extend of extensions) extend(this.registry);
  }

  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = {
      method: METHODS.has(method) ? method : 'OTHER',
      route: route === undefined ? UNMATCHED_ROUTE : routeLabel(route),
      status: String(status),
    };
    this.requestDurations.observe(labels, seconds);
    this.requests.inc(labels);
  }

  observeConditional(notModified: boolean): void {
    this.conditionals.inc({ response: notModified ? 'not_modified' : 'full' });
    (notModified ? this.deprecatedNotModified : this.deprecatedFull).inc();
  }

  /** For the database's query listener. */
  readonly observeQuery = (event: QueryTiming): void => {
    const word = /^\s*(\w+)/.exec(event.sql)?.[1]?.toLowerCase() ?? '';
    const statement = STATEMENTS.has(word) ? word : 'other';
    this.queries.observe({ statement, outcome: event.failed ? 'error' : 'ok' }, event.durationMs / 1000);
  };

  /** The text exposition; process metrics join at the first scrape (no timers in processes never scraped). */
  async scrape(): Promise<{ contentType: string; body: string }> {
    if (!this.processMetrics) {
      this.processMetrics = true;
      promClient().collectDefaultMetrics({ register: this.registry });
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
