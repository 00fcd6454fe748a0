import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { Logger } from 'pino';
import type { Catalog } from './catalog/loadCatalog.ts';
import type { Config } from './config.ts';
import type { PoolGraph } from './graph/PoolGraph.ts';
import { errorHandler } from './http/errorHandler.ts';
import { requestLogger } from './http/requestLogger.ts';
import { blockchainsRouter } from './routes/blockchains.ts';
import { healthRouter } from './routes/health.ts';
import { quotesRouter, type QuoteRoutesDeps } from './routes/quotes.ts';

/** What the app is built from; index.ts wires the real ones, tests their own. */
export interface AppDeps {
  readonly config: Config;
  readonly catalog: Catalog;
  /** The current pool graph (a reload swaps what this returns). */
  readonly graph: () => PoolGraph;
  readonly logger: Logger;
  /** The quote endpoints' dependencies; without them only the catalogue is served. */
  readonly quotes?: QuoteRoutesDeps;
}

/** Builds the Koa app: request log, error boundary, body parser, routes. Never listens. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true;
  app.use(requestLogger(deps.logger));
  app.use(errorHandler(deps.logger));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: `${deps.config.bodyLimitBytes}b`, strict: true }));
  const routers = [healthRouter(), blockchainsRouter(deps.catalog, deps.graph)];
  if (deps.quotes) routers.push(quotesRouter(deps.quotes));
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
