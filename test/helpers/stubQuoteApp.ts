import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Koa from 'koa';
import { pino } from 'pino';
import { createApp, type AppDeps } from '../../src/app.ts';
import { loadCatalog, type Catalog } from '../../src/catalog/loadCatalog.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { RateLimitStore } from '../../src/http/rateLimit.ts';
import { priceSwap } from '../../src/quote/priceSwap.ts';
import type { Pricer, PriceTask } from '../../src/quote/pricingPool.ts';
import { QuoteService } from '../../src/quote/quoteService.ts';
import { createApiKeyStore, type ApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { createQuoteStore, type QuoteStore } from '../../src/store/quoteStore.ts';
import { fixtureCatalogDir, fixtureSnapshotDir, request, type RequestOptions, type TestResponse } from './testApp.ts';

/**
 * A Pricer that prices in the calling thread with the same code the workers run (PricingGraph +
 * priceSwap), so tests reach the pricing path without worker threads.
 */
export class InProcessPricer implements Pricer {
  #pricing: PricingGraph;
  tasks = 0;
  constructor(graph: PoolGraph) {
    this.#pricing = new PricingGraph(graph);
  }
  async price(task: PriceTask) {
    this.tasks += 1;
    return priceSwap(this.#pricing.candidates(task.chainId, task.tokenIn, task.tokenOut), task.tokenIn, task.amountIn);
  }
  async close(): Promise<void> {}
  queueSize(): number {
    return 0;
  }
}

export interface StubQuoteApp {
  readonly app: Koa;
  readonly deps: AppDeps;
  readonly config: Config;
  readonly catalog: Catalog;
  readonly graph: PoolGraph;
  readonly pricer: InProcessPricer;
  readonly store: QuoteStore;
  readonly keys: ApiKeyStore;
  /** A valid API key of organization `acme`. */
  readonly apiKey: string;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  /** Closes the stores and removes the temporary DATA_DIR. */
  close(): Promise<void>;
}

/**
 * The whole app over the fixture catalogue and snapshot (or the given folders), quote endpoints included, without worker
 * threads: the in-process pricer, the in-memory quote store and the file API-key store in a fresh
 * temporary DATA_DIR holding one key (org `acme`). REDIS_URL is never read from the environment.
 */
export async function buildStubQuoteApp(
  options: { env?: NodeJS.ProcessEnv; rateLimitStore?: RateLimitStore; pricer?: Pricer; catalogDir?: string; snapshotDir?: string } = {},
): Promise<StubQuoteApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-stub-data-'));
  const config = loadConfig({
    CATALOG_DIR: options.catalogDir ?? fixtureCatalogDir,
    SNAPSHOT_DIR: options.snapshotDir ?? fixtureSnapshotDir,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(options.env ?? {}),
  });
  const catalog = loadCatalog(config.catalogDir);
  const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
  const pricer = new InProcessPricer(graph);
  const store = createQuoteStore(config);
  const keys = createApiKeyStore(config);
  const { key: apiKey } = await keys.create('acme');
  const quotes = new QuoteService({ catalog, graph: () => graph, generation: () => 0, pricer: options.pricer ?? pricer, store });
  const deps: AppDeps = {
    config,
    catalog,
    graph: () => graph,
    logger: pino({ level: 'silent' }),
    quotes: { catalog, quotes, store, keys, defaultSlippageBps: config.defaultSlippageBps },
    pricer: options.pricer ?? pricer,
    rateLimitStore: options.rateLimitStore,
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    config,
    catalog,
    graph,
    pricer,
    store,
    keys,
    apiKey,
    request: (method, url, o) => request(app, method, url, o),
    async close() {
      await Promise.allSettled([store.close(), keys.close(), options.rateLimitStore?.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
