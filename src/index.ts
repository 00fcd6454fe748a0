import { createServer } from 'node:http';
import { createApp } from './app.ts';
import { loadCatalog } from './catalog/loadCatalog.ts';
import { loadConfig } from './config.ts';
import { PoolGraph } from './graph/PoolGraph.ts';
import { loadSnapshots } from './graph/snapshot.ts';
import { createLogger } from './logger.ts';
import { createPricingPool } from './quote/pricingPool.ts';
import { QuoteService } from './quote/quoteService.ts';
import { createApiKeyStore } from './store/apiKeyStore.ts';
import { createQuoteStore } from './store/quoteStore.ts';

/** Entry point: config -> dependencies -> app -> listen; closes gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const catalog = loadCatalog(config.catalogDir);
  const { snapshots, errors } = loadSnapshots(config.snapshotDir);
  for (const error of errors) logger.error({ snapshotError: error }, 'snapshot refused');
  const graph = new PoolGraph(snapshots, catalog);
  for (const line of graph.ignored) logger.warn({ ignored: line }, 'snapshot pool ignored');
  logger.info({ chains: catalog.chains.length, snapshots: snapshots.map((s) => ({ chainId: s.chainId, block: s.blockNumber, pools: s.pools.length })) }, 'catalogue loaded');

  const generation = 0;
  const pricer = createPricingPool(config);
  const store = createQuoteStore(config);
  const keys = createApiKeyStore(config, { logger });
  const quotes = new QuoteService({ catalog, graph: () => graph, generation: () => generation, pricer, store });
  const app = createApp({
    config,
    catalog,
    graph: () => graph,
    logger,
    quotes: { catalog, quotes, store, keys, defaultSlippageBps: config.defaultSlippageBps },
  });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  logger.info({ port: typeof address === 'object' && address ? address.port : config.port }, 'listening');

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const timer = setTimeout(() => {
      logger.error('in-flight requests did not finish in 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    server.close(() => {
      void Promise.allSettled([pricer.close(), store.close(), keys.close()]).then(() => {
        logger.info('closed');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
