import { METHODS } from 'node:http';
import Router, { type Layer } from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Catalog } from './catalog/Catalog.ts';
import type { Config } from './config.ts';
import type { LiveState } from './graph/liveState.ts';
import type { PoolGraph } from './graph/PoolGraph.ts';
import { onUnconvertiblePool } from './graph/unconvertiblePools.ts';
import { jsonBody } from './http/jsonBody.ts';
import { createMetrics } from './http/metrics.ts';
import { createRateLimitStore, type RateLimitStore, rateLimit, rateLimitEnabled } from './http/rateLimit.ts';
import { requestBoundary } from './http/requestBoundary.ts';
import { isWarmUpRequest } from './http/warmUpRequests.ts';
import type { Pricer } from './quote/Pricer.ts';
import { blockchainsRouter } from './routes/blockchains.ts';
import { healthRouter } from './routes/health.ts';
import { metricsRouter } from './routes/metrics.ts';
import { openapiRouter } from './routes/openapi.ts';
import { pagesRouter } from './routes/pages.ts';
import { type QuoteRoutesDeps, quotesRouter } from './routes/quotes.ts';

/** What the app is built from; index.ts wires the real ones, tests their own. */
export interface AppDeps {
  readonly config: Config;
  readonly catalog: Catalog;
  /** The current pool graph (a reload swaps what this returns). */
  readonly graph: () => PoolGraph;
  readonly logger: Logger;
  /** The quote endpoints' dependencies; without them only the catalogue is served. */
  readonly quotes?: QuoteRoutesDeps;
  /** The pricing pool, for the readiness probe and the queue-depth metric. */
  readonly pricer?: Pricer;
  /** Rate-limit counters; when limits are configured and none is given, one is created from config (Redis or memory). */
  readonly rateLimitStore?: RateLimitStore;
  /** The chains this process follows (FOLLOW=true), for /readyz and /metrics. */
  readonly liveState?: LiveState;
  /** Whether the process has sent itself its warm-up requests, for /readyz (src/index.ts). */
  readonly warmedUp?: () => boolean;
  /** The token the process's own warm-up requests carry: they are not rate limited (warmUpRequests.ts). */
  readonly warmUpToken?: string;
}

/** The template of a route (`/quotes/:quoteId`): its path, or for a RegExp route its name. */
export function routeTemplate(layer: Pick<Layer, 'path' | 'name'>): string {
  return typeof layer.path === 'string' ? layer.path : (layer.name ?? String(layer.path));
}

/**
 * Builds the Koa app. Middleware order: the request boundary (request id and log line, error envelope, metrics: one
 * middleware), rate limit (only when a limit is configured), JSON body, routes. Never listens.
 */
export function createApp(deps: AppDeps): Koa {
  const { config, quotes } = deps;
  const app = new Koa({ proxy: config.trustProxy });
  app.silent = true;
  const routers = [
    healthRouter({
      catalog: deps.catalog,
      graph: deps.graph,
      pricer: deps.pricer,
      store: quotes?.store,
      keys: quotes?.keys,
      liveState: deps.liveState,
      warmedUp: deps.warmedUp,
    }),
    blockchainsRouter(deps.catalog, deps.graph),
    openapiRouter(),
    pagesRouter(),
  ];
  if (quotes) routers.push(quotesRouter(quotes, deps.graph));
  // One router holding every route file's routes: a request is matched once, not once per file. Every method
  // Node's HTTP parser lets through counts as implemented, so one a path does not serve (TRACE, QUERY, ...) is a
  // 405 with an Allow header, like PUT and DELETE, instead of the router's 501.
  const root = new Router({ methods: [...METHODS] });
  const routeOf = (path: string): string | undefined => {
    const layer = root.match(path, 'GET').path[0];
    return layer ? routeTemplate(layer) : undefined;
  };
  const metrics = createMetrics({ graph: deps.graph, pricer: deps.pricer, routeOf, liveState: deps.liveState });
  routers.push(metricsRouter(metrics));
  for (const router of routers) root.use(router.routes());

  // A pool whose state does not convert is left out of every route by whichever thread priced it: logged and
  // counted here, once per pool and reason.
  onUnconvertiblePool((pool) => {
    deps.logger.warn(
      { chainId: pool.chainId, pool: pool.address, reason: pool.reason },
      'pool left out of every route: its state does not convert',
    );
    metrics.poolConversionFailed(pool.chainId);
  });
  app.use(requestBoundary(deps.logger, metrics));
  if (rateLimitEnabled(config)) {
    const { warmUpToken } = deps;
    app.use(
      rateLimit({
        ...config,
        store: deps.rateLimitStore ?? createRateLimitStore(config, deps.logger),
        keys: quotes?.keys,
        skip: warmUpToken === undefined ? undefined : (ctx) => isWarmUpRequest(ctx, warmUpToken),
      }),
    );
  }
  app.use(jsonBody(config.bodyLimitBytes));
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
