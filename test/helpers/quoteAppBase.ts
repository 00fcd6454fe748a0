import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { AppDeps } from '../../src/app.ts';
import type { Catalog } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { ChainClients } from '../../src/chain/chainClients.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { Pricer } from '../../src/quote/Pricer.ts';
import { AllowanceReader } from '../../src/quote/quoteAllowances.ts';
import { QuoteService } from '../../src/quote/quoteService.ts';
import { QuoteSimulator } from '../../src/quote/quoteSimulation.ts';
import { QuoteTxStatusReader } from '../../src/quote/quoteTxStatus.ts';
import { type ApiKeyStore, createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { createQuoteStore, type QuoteStore } from '../../src/store/quoteStore.ts';
import { fixtureCatalogDir, fixtureSnapshotDir } from './testApp.ts';

/** What the quote test apps (quoteTestApp.ts, stubQuoteApp.ts) share: config, catalogue, stores, wiring. */
export interface QuoteAppBase {
  readonly config: Config;
  readonly catalog: Catalog;
  /** The temporary DATA_DIR holding the API-key file. */
  readonly dataDir: string;
  readonly store: QuoteStore;
  readonly keys: ApiKeyStore;
  /** Reads the snapshot folder into a new graph. */
  loadGraph(): PoolGraph;
  /** AppDeps with the quote path wired as src/index.ts wires it, over this graph and pricer. */
  deps(graph: () => PoolGraph, pricer: Pricer): AppDeps;
  /** Waits for the other closings given, closes the stores and removes DATA_DIR. */
  close(...others: ReadonlyArray<Promise<unknown> | undefined>): Promise<void>;
}

/**
 * Config over a catalogue and a snapshot folder (fixtures by default) with a fresh temporary DATA_DIR,
 * silent logs, `defaults` and then `options.env`; the in-memory quote store and the file API-key store; the quote
 * service's clock `options.now` (milliseconds; default Date.now).
 * REDIS_URL is never read from the environment.
 */
export function quoteAppBase(
  options: { catalogDir?: string; snapshotDir?: string; env?: NodeJS.ProcessEnv; now?: () => number },
  dataDirPrefix: string,
  defaults: NodeJS.ProcessEnv = {},
): QuoteAppBase {
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  const config = loadConfig({
    CATALOG_DIR: options.catalogDir ?? fixtureCatalogDir,
    SNAPSHOT_DIR: options.snapshotDir ?? fixtureSnapshotDir,
    // Exactly the folder named: no shipped layer beneath it (its graph and the workers' read the same files).
    SHIPPED_SNAPSHOT_DIR: 'none',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...defaults,
    ...(options.env ?? {}),
  });
  const catalog = loadCatalog(config.catalogDir);
  const store = createQuoteStore(config);
  const keys = createApiKeyStore(config);
  return {
    config,
    catalog,
    dataDir,
    store,
    keys,
    loadGraph: () => new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog),
    deps: (graph, pricer) => ({
      config,
      catalog,
      graph,
      logger: pino({ level: 'silent' }),
      quotes: {
        catalog,
        quotes: new QuoteService({
          catalog,
          graph,
          pricer,
          store,
          allowances: new AllowanceReader(new ChainClients(config.rpcUrls)),
          simulator: new QuoteSimulator(new ChainClients(config.rpcUrls)),
          now: options.now,
        }),
        store,
        keys,
        defaultSlippageBps: config.defaultSlippageBps,
        txStatus: new QuoteTxStatusReader({ catalog, rpcUrls: config.rpcUrls, now: options.now }),
      },
    }),
    async close(...others) {
      await Promise.allSettled([...others, store.close(), keys.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
