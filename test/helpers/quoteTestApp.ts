import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Koa from 'koa';
import { pino } from 'pino';
import { createApp, type AppDeps } from '../../src/app.ts';
import { loadCatalog, type Catalog } from '../../src/catalog/loadCatalog.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { createPricingPool, type Pricer } from '../../src/quote/pricingPool.ts';
import { QuoteService } from '../../src/quote/quoteService.ts';
import { createApiKeyStore, type ApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { createQuoteStore, type QuoteStore } from '../../src/store/quoteStore.ts';
import { fixtureCatalogDir, fixtureSnapshotDir, request, type RequestOptions, type TestResponse } from './testApp.ts';

/** The app with the quote endpoints wired as src/index.ts wires them, plus handles a test needs. */
export interface QuoteTestApp {
  readonly app: Koa;
  readonly deps: AppDeps;
  readonly config: Config;
  readonly catalog: Catalog;
  readonly pricer: Pricer;
  readonly store: QuoteStore;
  readonly keys: ApiKeyStore;
  /** The temporary DATA_DIR holding the API-key file. */
  readonly dataDir: string;
  /** The graph currently served. */
  graph(): PoolGraph;
  /** Re-reads the snapshot folder: a new graph in the API process and a new generation, so every worker reloads too. */
  reload(): void;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  /** Closes the worker pool and the stores and removes the temporary DATA_DIR. */
  close(): Promise<void>;
}

/**
 * Builds the full quote path over a catalogue and a snapshot folder (fixtures by default): a real
 * Piscina pricing pool, the in-memory quote store and the file API-key store in a fresh temporary
 * DATA_DIR. Redis is never used (REDIS_URL is not read from the environment). Call close() at the end.
 */
export function buildQuoteTestApp(options: { catalogDir?: string; snapshotDir?: string; env?: NodeJS.ProcessEnv } = {}): QuoteTestApp {
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-quote-data-'));
  const config = loadConfig({
    CATALOG_DIR: options.catalogDir ?? fixtureCatalogDir,
    SNAPSHOT_DIR: options.snapshotDir ?? fixtureSnapshotDir,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WORKER_THREADS: '1',
    ...(options.env ?? {}),
  });
  const catalog = loadCatalog(config.catalogDir);
  const load = (): PoolGraph => new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
  let graph = load();
  let generation = 0;
  const pricer = createPricingPool(config);
  const store = createQuoteStore(config);
  const keys = createApiKeyStore(config);
  const quotes = new QuoteService({ catalog, graph: () => graph, generation: () => generation, pricer, store });
  const deps: AppDeps = {
    config,
    catalog,
    graph: () => graph,
    logger: pino({ level: 'silent' }),
    quotes: { catalog, quotes, store, keys, defaultSlippageBps: config.defaultSlippageBps },
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    config,
    catalog,
    pricer,
    store,
    keys,
    dataDir,
    graph: () => graph,
    reload() {
      graph = load();
      generation += 1;
    },
    request: (method, url, o) => request(app, method, url, o),
    async close() {
      await Promise.allSettled([pricer.close(), store.close(), keys.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
