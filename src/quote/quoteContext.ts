import type { Catalog } from '../catalog/Catalog.ts';
import { ChainClients } from '../chain/chainClients.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import type { QuoteStore } from '../store/quoteStore.ts';
import type { Pricer } from './Pricer.ts';
import type { SnapshotInfo } from './Quote.ts';
import { AllowanceReader } from './quoteAllowances.ts';
import { QuoteSimulator } from './quoteSimulation.ts';

/** What QuoteService is built from. */
export interface QuoteServiceDeps {
  readonly catalog: Catalog;
  /** The pool state being served (the snapshot block a price came from). */
  readonly graph: () => PoolGraph;
  /** Finds trades on that state (createPricer), for same-chain quotes and a bridge route's swap legs. */
  readonly pricer: Pricer;
  readonly store: QuoteStore;
  /** Reads a request's `sender` allowances (RPC_URL_<chainId>); without it no chain can be read. */
  readonly allowances?: AllowanceReader;
  /** Simulates quotes' steps (RPC_URL_<chainId>); without it no chain can be simulated on. */
  readonly simulator?: QuoteSimulator;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
}

/** QuoteServiceDeps with its defaults filled in: what the quote makers (routeQuotes, sameChainQuote, ...) use. */
export interface QuoteContext {
  readonly catalog: Catalog;
  readonly graph: () => PoolGraph;
  readonly pricer: Pricer;
  readonly store: QuoteStore;
  readonly allowances: AllowanceReader;
  readonly simulator: QuoteSimulator;
  readonly now: () => number;
}

/** The context of deps: no allowance reader or simulator means no chain can be read or simulated on. */
export function quoteContext(deps: QuoteServiceDeps): QuoteContext {
  return {
    catalog: deps.catalog,
    graph: deps.graph,
    pricer: deps.pricer,
    store: deps.store,
    allowances: deps.allowances ?? new AllowanceReader(new ChainClients(new Map())),
    simulator: deps.simulator ?? new QuoteSimulator(new ChainClients(new Map())),
    now: deps.now ?? Date.now,
  };
}

/** The block the served pool state of a chain was read at and its age now; null when the chain has no snapshot. */
export function snapshotInfo(ctx: QuoteContext, chainId: number): SnapshotInfo | null {
  const snapshot = ctx.graph().snapshot(chainId);
  if (!snapshot) return null;
  return {
    blockNumber: snapshot.blockNumber,
    blockTimestamp: snapshot.blockTimestamp,
    ageSeconds: Math.max(0, Math.floor(ctx.now() / 1000) - snapshot.blockTimestamp),
  };
}
