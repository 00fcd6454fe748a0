import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { createApp } from './app.ts';
import { loadCatalog } from './catalog/loadCatalog.ts';
import { ChainClients } from './chain/chainClients.ts';
import { runPrimary } from './cluster.ts';
import { type Config, loadConfig } from './config.ts';
import type { ChainFollower } from './follow/ChainFollower.ts';
import { FollowStreamReader } from './follow/followStream.ts';
import { startFollowers } from './follow/startFollowers.ts';
import { GraphHolder } from './graph/GraphHolder.ts';
import type { LiveState } from './graph/liveState.ts';
import { pricingGraphOf } from './graph/PricingGraph.ts';
import { createWarmUpToken, sendWarmUpRequests, warmUpRequests } from './http/warmUpRequests.ts';
import { createLogger } from './logger.ts';
import { createPricer } from './quote/Pricer.ts';
import { AllowanceReader } from './quote/quoteAllowances.ts';
import { QuoteService } from './quote/quoteService.ts';
import { QuoteSimulator } from './quote/quoteSimulation.ts';
import { QuoteTxStatusReader } from './quote/quoteTxStatus.ts';
import { warmUp } from './quote/TradeTask.ts';
import { createApiKeyStore } from './store/apiKeyStore.ts';
import { createQuoteStore } from './store/quoteStore.ts';

/**
 * Entry point: with WEB_CONCURRENCY > 1 this process becomes the cluster primary (src/cluster.ts) and each process it
 * forks serves; otherwise this process serves.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) return runPrimary(config, createLogger(config.logLevel));
  return serve(config);
}

/** One API process: config -> dependencies -> app -> listen; closes gracefully on SIGTERM/SIGINT. */
async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const catalog = loadCatalog(config.catalogDir);
  // Ready means ready: the pricing index and what a first search builds exist before the port opens (warmUp).
  const holder = new GraphHolder(catalog, config, logger, (graph) => warmUp(pricingGraphOf(graph, catalog)));
  const graph = () => holder.current();
  const start = graph();
  logger.info(
    {
      chains: catalog.chains.length,
      snapshots: start.chainIds().map((id) => ({
        chainId: id,
        block: start.snapshot(id)!.blockNumber,
        pools: start.pools(id).length,
        file: holder.snapshotFile(id),
      })),
    },
    'catalogue loaded',
  );
  // A followed state is newer than any snapshot file: reloading files would move it back and lose the blocks since.
  const followed = config.follow || config.followStream;
  if (config.snapshotWatch && !followed) holder.watch();
  process.on('SIGHUP', () =>
    followed
      ? logger.warn('SIGHUP ignored: FOLLOW=true keeps the state current; restart to start again from the snapshot files')
      : holder.reload('SIGHUP'),
  );

  const pricer = createPricer(config, {
    graph,
    catalog,
    generation: () => holder.generation(),
    updates: () => holder.updates(),
  });
  const store = createQuoteStore(config);
  const keys = createApiKeyStore(config, { logger });
  const chainClients = new ChainClients(config.rpcUrls);
  const quotes = new QuoteService({
    catalog,
    graph,
    pricer,
    store,
    allowances: new AllowanceReader(chainClients),
    simulator: new QuoteSimulator(chainClients),
  });
  // FOLLOW=true: every chain with an RPC URL is followed in this process and each block applied to the graph.
  const followers: ChainFollower[] = [];
  // FOLLOW_STREAM=true: the blocks `npm run follow` publishes are read from Redis and applied the same way.
  const reader = config.followStream
    ? new FollowStreamReader(
        { url: config.redisUrl!, prefix: config.redisKeyPrefix, chainIds: holder.current().chainIds(), logger },
        (update) => void holder.apply(update),
        (chainId) => holder.current().snapshot(chainId)?.blockNumber ?? 0,
      )
    : undefined;
  const liveState: LiveState | undefined = config.follow
    ? { maxAgeSeconds: config.maxStateAgeSeconds, chains: () => followers.map((f) => ({ status: f.status(), counters: f.metrics })) }
    : reader
      ? { maxAgeSeconds: config.maxStateAgeSeconds, chains: () => reader.chains() }
      : undefined;
  let warmedUp = false;
  const warmUpToken = createWarmUpToken();
  const app = createApp({
    config,
    catalog,
    graph,
    logger,
    quotes: {
      catalog,
      quotes,
      store,
      keys,
      defaultSlippageBps: config.defaultSlippageBps,
      txStatus: new QuoteTxStatusReader({ catalog, rpcUrls: config.rpcUrls }),
    },
    pricer,
    liveState,
    warmedUp: () => warmedUp,
    warmUpToken,
  });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port }, 'listening');
  // Ready means ready: the process sends itself a first request of each kind before /readyz says ready.
  const self = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`;
  void sendWarmUpRequests(self, warmUpRequests(catalog, graph()), warmUpToken).then(() => {
    warmedUp = true;
    logger.info('warm-up requests answered');
  });
  reader?.start();
  if (config.follow) {
    const rpcUrls = Object.fromEntries(config.rpcUrls);
    const options = {
      catalog,
      snapshotDir: config.snapshotDir,
      shippedSnapshotDir: config.shippedSnapshotDir,
      rpcUrls,
      rpcWsUrls: Object.fromEntries(config.rpcWsUrls),
      logger,
      pollIntervalMs: config.followPollMs,
      undoDepth: config.followUndoDepth,
      snapshotEveryBlocks: config.followSnapshotEvery,
    };
    followers.push(...(await startFollowers(options, (update) => void holder.apply(update))));
    logger.info({ chains: followers.map((f) => f.status()) }, 'following chains');
  }

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => {
      logger.error('in-flight requests did not finish in 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    holder.close();
    for (const follower of followers) void follower.stop();
    void reader?.stop();
    server.close(() => {
      void Promise.allSettled([pricer.close(), store.close(), keys.close()]).then(() => {
        logger.info('closed');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    // Logged once the listening socket is closed, so the line is true when it is read.
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
