import type Koa from 'koa';
import { type AppDeps, createApp } from '../../src/app.ts';
import type { Catalog } from '../../src/catalog/Catalog.ts';
import type { Config } from '../../src/config.ts';
import type { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { createPricer, type Pricer } from '../../src/quote/Pricer.ts';
import type { ApiKeyStore } from '../../src/store/apiKeyStore.ts';
import type { QuoteStore } from '../../src/store/quoteStore.ts';
import { quoteAppBase } from './quoteAppBase.ts';
import { type RequestOptions, request, type TestResponse } from './testApp.ts';

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
  request<B = unknown>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<B>>;
  /** Closes the worker pool and the stores and removes the temporary DATA_DIR. */
  close(): Promise<void>;
}

/**
 * Builds the full quote path over a catalogue and a snapshot folder (fixtures by default): a real
 * Piscina pricing pool, the in-memory quote store and the file API-key store in a fresh temporary
 * DATA_DIR. Redis is never used (REDIS_URL is not read from the environment). `now`: the quote service's clock
 * (milliseconds; default Date.now). Call close() at the end.
 */
export function buildQuoteTestApp(
  options: { catalogDir?: string; snapshotDir?: string; env?: NodeJS.ProcessEnv; now?: () => number } = {},
): QuoteTestApp {
  const base = quoteAppBase(options, 'sqs-quote-data-', { WORKER_THREADS: '1' });
  const { config, catalog, store, keys, dataDir } = base;
  let graph = base.loadGraph();
  let generation = 0;
  const pricer = createPricer(config, { generation: () => generation });
  const deps = base.deps(() => graph, pricer);
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
      graph = base.loadGraph();
      generation += 1;
    },
    request: (method, url, o) => request(app, method, url, o),
    close: () => base.close(pricer.close()),
  };
}
