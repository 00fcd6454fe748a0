import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import { type AppDeps, createApp } from '../../src/app.ts';
import type { Catalog } from '../../src/catalog/Catalog.ts';
import type { Config } from '../../src/config.ts';
import type { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { RateLimitStore } from '../../src/http/rateLimit.ts';
import type { QuoteSearch } from '../../src/quote/describedQuote.ts';
import type { RouteSearch } from '../../src/quote/describedRoutes.ts';
import type { Pricer } from '../../src/quote/Pricer.ts';
import { findQuote, findRoutes, findTrades } from '../../src/quote/TradeTask.ts';
import type { TradeSearch } from '../../src/routing/TradeFinder.ts';
import type { ApiKeyStore } from '../../src/store/apiKeyStore.ts';
import type { QuoteStore } from '../../src/store/quoteStore.ts';
import { quoteAppBase } from './quoteAppBase.ts';
import { type RequestOptions, request, type TestResponse } from './testApp.ts';

/**
 * A Pricer that prices in the calling thread with the same code the workers run (findTrades, findRoutes, findQuote over a
 * PricingGraph), so tests reach the pricing path without worker threads.
 */
export class InProcessPricer implements Pricer {
  #pricing: PricingGraph;
  tasks = 0;
  constructor(graph: PoolGraph, catalog: Catalog) {
    this.#pricing = new PricingGraph(graph, catalog);
  }
  async findTrades(search: TradeSearch) {
    this.tasks += 1;
    return findTrades(this.#pricing, search);
  }
  async findRoutes(search: RouteSearch) {
    this.tasks += 1;
    return findRoutes(this.#pricing, search);
  }
  async findQuote(search: QuoteSearch) {
    this.tasks += 1;
    return findQuote(this.#pricing, search);
  }
  async close(): Promise<void> {}
  queueSize(): number {
    return 0;
  }
}

/** A valid quote request on the fixture chain (1001): 1 unit of 0x11..11 for 0x22..22. */
export const fixtureQuoteRequest = {
  originChainId: 1001,
  destinationChainId: 1001,
  tokenIn: '0x1111111111111111111111111111111111111111',
  tokenOut: '0x2222222222222222222222222222222222222222',
  amount: '1',
  recipientAddress: '0x000000000000000000000000000000000000dEaD',
};

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
  request<B = unknown>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<B>>;
  /** Closes the stores and removes the temporary DATA_DIR. */
  close(): Promise<void>;
}

/**
 * The whole app over the fixture catalogue and snapshot (or the given folders), quote endpoints included, without worker
 * threads: the in-process pricer, the in-memory quote store and the file API-key store in a fresh
 * temporary DATA_DIR holding one key (org `acme`). REDIS_URL is never read from the environment.
 */
export async function buildStubQuoteApp(
  options: {
    env?: NodeJS.ProcessEnv;
    rateLimitStore?: RateLimitStore;
    pricer?: Pricer;
    catalogDir?: string;
    snapshotDir?: string;
    /** The quote service's clock, milliseconds (default Date.now). */
    now?: () => number;
    /** The token the process's own warm-up requests carry (AppDeps.warmUpToken). */
    warmUpToken?: string;
  } = {},
): Promise<StubQuoteApp> {
  const base = quoteAppBase(options, 'sqs-stub-data-');
  const { config, catalog, store, keys } = base;
  const graph = base.loadGraph();
  const pricer = new InProcessPricer(graph, catalog);
  const { key: apiKey } = await keys.create('acme');
  const deps: AppDeps = {
    ...base.deps(() => graph, options.pricer ?? pricer),
    pricer: options.pricer ?? pricer,
    rateLimitStore: options.rateLimitStore,
    warmUpToken: options.warmUpToken,
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
    close: () => base.close(options.rateLimitStore?.close()),
  };
}

/**
 * The status and body answering POST /quotes for 100 USDC from the devnet (31337) to the second devnet (31338) with
 * the `extra` fields, from a stub app on the shipped catalogue and snapshots (closed after): the cross-chain
 * refusals of options that are same-chain only.
 */
export async function shippedCrossChainQuote(extra: Record<string, unknown>): Promise<[number, unknown]> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const shipped = await buildStubQuoteApp({ catalogDir: `${root}catalog`, snapshotDir: `${root}seeds/snapshots` });
  try {
    const res = await shipped.request('POST', '/quotes', {
      body: {
        originChainId: 31337,
        destinationChainId: 31338,
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '100',
        recipientAddress: '0x00000000000000000000000000000000000000aa',
        ...extra,
      },
      headers: { authorization: `Bearer ${shipped.apiKey}` },
    });
    return [res.status, res.body];
  } finally {
    await shipped.close();
  }
}
