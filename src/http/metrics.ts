import type { Context } from 'koa';
import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import { BaseError } from '../errors/BaseError.ts';
import { type LiveState, stateAgeSeconds } from '../graph/liveState.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';

/** What the metrics read at scrape time. */
export interface MetricsDeps {
  /** The pool graph being served (snapshot block and age per chain). */
  readonly graph: () => PoolGraph;
  /** The pricing pool (queue depth); absent when the quote endpoints are not served. */
  readonly pricer?: { queueSize(): number };
  /** Followed chains (FOLLOW=true): lag, state age and the followers' counters. */
  readonly liveState?: LiveState;
  /** Node.js process metrics (CPU, memory, event loop lag, GC); default true. */
  readonly processMetrics?: boolean;
  /** Milliseconds since the epoch (snapshot age). */
  readonly now?: () => number;
  /**
   * The route template a path belongs to, for requests refused before routing (rate limit, body
   * errors); createApp derives it from its routers. Unknown paths are labelled `(unmatched)`.
   */
  readonly routeOf?: (path: string) => string | undefined;
}

/** The service's Prometheus metrics: a registry of its own, the request middleware and the scrape output. */
export interface Metrics {
  readonly registry: Registry;
  /**
   * Counts and times a request the routes answered (its status as they set it), from `started` (performance.now() when
   * it came in); the request boundary (requestBoundary.ts) calls it before the error boundary writes any envelope.
   */
  answered(ctx: Context, started: number): void;
  /** Counts and times a request whose handling threw `error`, by the status the error boundary will answer. */
  failed(ctx: Context, started: number, error: unknown): void;
  /** The text exposition format and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
  /** Counts a pool whose snapshot state does not convert (left out of every route), in `pool_conversion_failures_total`. */
  poolConversionFailed(chainId: number): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Routes whose outcomes are counted in `quote_outcomes_total`, by the route template Koa's router matched. */
const QUOTE_ROUTES = new Set(['/quotes', '/quotes/routes']);
const UNMATCHED = '(unmatched)';
/** Upper bounds (seconds) of the latency histogram's buckets. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Counts and latency of one (method, route template). `buckets[i]` counts requests in bucket i only (not cumulative). */
interface RouteStats {
  statuses: Map<number, number>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface ScrapedValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** A metric whose values are computed at scrape time, in the shape the prom-client registry renders. */
function scraped(name: string, help: string, type: 'counter' | 'histogram', values: () => ScrapedValue[]): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => undefined,
  };
  return metric as unknown as Metric;
}

/** The status the error boundary will answer for an error (src/http/errorHandler.ts rules). */
function statusOf(error: unknown): number {
  if (error instanceof BaseError) return error.status;
  const e = (error ?? {}) as { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown };
  if (e.type === 'entity.too.large') return 413;
  if (e.type === 'entity.parse.failed') return 400;
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
  return status >= 400 && status < 500 && e.expose !== false ? status : status === 413 ? 413 : 500;
}

/** The stable outcome label of a quote request: `success`, the error's code, or `HTTP_<status>`. */
function outcomeOf(status: number, error: unknown): string {
  if (status < 400) return 'success';
  if (error instanceof BaseError) return error.code;
  return `HTTP_${status}`;
}

/**
 * Builds the metrics: `http_requests_total{method,route,status}`,
 * `http_request_duration_seconds{method,route}` (route = the router's path template, `(unmatched)`
 * otherwise), `quote_outcomes_total{endpoint,outcome}`, `pricing_queue_depth`, `pool_conversion_failures_total{chain_id}`,
 * `snapshot_age_seconds{chain_id}`, `snapshot_block_number{chain_id}`, and Node's process metrics.
 * Per request it costs three Map lookups and a few additions (about 0.5 µs).
 */
export function createMetrics(deps: MetricsDeps): Metrics {
  const registry = new Registry();
  const now = deps.now ?? Date.now;
  // Quote outcomes by endpoint, counted in plain maps like the request counts below (no label hashing per request).
  const outcomes = new Map<string, Map<string, number>>();
  registry.registerMetric(
    scraped(
      'quote_outcomes_total',
      'Quote requests (POST /quotes, POST /quotes/routes) by outcome: success or the error code.',
      'counter',
      () => {
        const values: ScrapedValue[] = [];
        for (const [endpoint, byOutcome] of outcomes)
          for (const [outcome, value] of byOutcome) values.push({ labels: { endpoint, outcome }, value });
        return values;
      },
    ),
  );
  new Gauge({
    name: 'pricing_queue_depth',
    help: 'Pricing tasks waiting for a worker thread.',
    registers: [registry],
    collect() {
      this.set(deps.pricer ? deps.pricer.queueSize() : 0);
    },
  });
  new Gauge({
    name: 'snapshot_age_seconds',
    help: 'Seconds since the block of the pool-state snapshot being served, per chain.',
    labelNames: ['chain_id'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const graph = deps.graph();
      const t = Math.floor(now() / 1000);
      for (const chainId of graph.chainIds())
        this.set({ chain_id: String(chainId) }, Math.max(0, t - graph.snapshot(chainId)!.blockTimestamp));
    },
  });
  new Gauge({
    name: 'snapshot_block_number',
    help: 'Block number of the pool-state snapshot being served, per chain.',
    labelNames: ['chain_id'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const graph = deps.graph();
      for (const chainId of graph.chainIds()) this.set({ chain_id: String(chainId) }, graph.snapshot(chainId)!.blockNumber);
    },
  });
  const conversionFailures = new Counter({
    name: 'pool_conversion_failures_total',
    help: 'Pools whose snapshot state does not convert to a priceable pool (left out of every route), per chain; each pool and reason once.',
    labelNames: ['chain_id'] as const,
    registers: [registry],
  });
  if (deps.liveState) registerLiveStateMetrics(registry, deps.liveState, now);
  if (deps.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  // Request counts and latencies are kept in plain per-route records (no label hashing, no garbage per
  // request) and handed to the registry at scrape time as two ordinary metrics.
  const byMethod = new Map<string, Map<string, RouteStats>>();
  registry.registerMetric(
    scraped('http_requests_total', 'HTTP requests answered, by method, route template and status.', 'counter', () => {
      const values: ScrapedValue[] = [];
      for (const [method, byRoute] of byMethod) {
        for (const [route, stats] of byRoute)
          for (const [status, value] of stats.statuses) values.push({ labels: { method, route, status }, value });
      }
      return values;
    }),
  );
  registry.registerMetric(
    scraped(
      'http_request_duration_seconds',
      'Time from receiving a request to its response being ready, by method and route template.',
      'histogram',
      () => {
        const values: ScrapedValue[] = [];
        for (const [method, byRoute] of byMethod) {
          for (const [route, stats] of byRoute) {
            let cumulative = 0;
            for (let i = 0; i <= BUCKETS.length; i++) {
              cumulative += stats.buckets[i];
              values.push({
                metricName: 'http_request_duration_seconds_bucket',
                labels: { le: i < BUCKETS.length ? BUCKETS[i] : '+Inf', method, route },
                value: cumulative,
              });
            }
            values.push({ metricName: 'http_request_duration_seconds_sum', labels: { method, route }, value: stats.sum });
            values.push({ metricName: 'http_request_duration_seconds_count', labels: { method, route }, value: stats.count });
          }
        }
        return values;
      },
    ),
  );

  function record(ctx: Context, started: number, status: number, error: unknown): void {
    const seconds = (performance.now() - started) / 1000;
    const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
    const route = (ctx as unknown as { _matchedRoute?: unknown })._matchedRoute;
    const label = typeof route === 'string' ? route : (deps.routeOf?.(ctx.path) ?? UNMATCHED);
    let byRoute = byMethod.get(method);
    if (!byRoute) {
      byRoute = new Map();
      byMethod.set(method, byRoute);
    }
    let stats = byRoute.get(label);
    if (!stats) {
      stats = { statuses: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
      byRoute.set(label, stats);
    }
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) bucket++;
    stats.buckets[bucket] += 1;
    stats.sum += seconds;
    stats.count += 1;
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
    if (method === 'POST' && QUOTE_ROUTES.has(label)) {
      let byOutcome = outcomes.get(label);
      if (!byOutcome) {
        byOutcome = new Map();
        outcomes.set(label, byOutcome);
      }
      const outcome = outcomeOf(status, error);
      byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
    }
  }

  return {
    registry,
    answered(ctx, started) {
      record(ctx, started, ctx.status, undefined);
    },
    failed(ctx, started, error) {
      record(ctx, started, statusOf(error), error);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    poolConversionFailed(chainId) {
      conversionFailures.inc({ chain_id: String(chainId) });
    },
  };
}

/**
 * Followed chains: `follow_lag_blocks{chain_id}` (head seen − block applied), `follow_state_age_seconds{chain_id}`
 * (since the state was last known current), and the followers' totals `follow_blocks_total`, `follow_events_total`,
 * `follow_reorgs_total`, `follow_rereads_total`, `follow_rpc_requests_total` (each by chain_id).
 */
function registerLiveStateMetrics(registry: Registry, live: LiveState, now: () => number): void {
  new Gauge({
    name: 'follow_lag_blocks',
    help: 'Blocks between the head a followed chain last reported and the block whose state is served.',
    labelNames: ['chain_id'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { status } of live.chains())
        this.set({ chain_id: String(status.chainId) }, Math.max(0, status.headBlock - status.appliedBlock));
    },
  });
  new Gauge({
    name: 'follow_state_age_seconds',
    help: 'Seconds since a followed chain was last known current (readiness fails above MAX_STATE_AGE_SECONDS).',
    labelNames: ['chain_id'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { status } of live.chains()) {
        const age = stateAgeSeconds(status, now());
        this.set({ chain_id: String(status.chainId) }, Number.isFinite(age) ? age : -1);
      }
    },
  });
  const totals = [
    ['follow_blocks_total', 'Blocks applied from a followed chain.', 'blocks'],
    ['follow_events_total', 'Pool events applied from a followed chain.', 'events'],
    ['follow_reorgs_total', 'Reorgs rolled back on a followed chain.', 'reorgs'],
    [
      'follow_rereads_total',
      'Pools re-read from the chain instead of applying an event (price left its window, unexpected log).',
      'rereads',
    ],
    ['follow_rpc_requests_total', 'Requests sent to a followed chain’s RPC endpoint.', 'rpcRequests'],
  ] as const;
  for (const [name, help, field] of totals) {
    new Counter({
      name,
      help,
      labelNames: ['chain_id'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { status, counters } of live.chains()) this.inc({ chain_id: String(status.chainId) }, counters[field]);
      },
    });
  }
}
