import { deploymentId } from '../catalog/Catalog.ts';
import type { PricingGraph } from '../graph/PricingGraph.ts';
import { snapshotGasPriceWei } from '../graph/snapshot.ts';
import { bestTradesByDeployment, type DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import { defaultLimits } from '../routing/RoutingLimits.ts';
import type { TradeSearch } from '../routing/TradeFinder.ts';
import { type DeploymentQuote, describedQuotes, type QuoteSearch } from './describedQuote.ts';
import { type DeploymentRoute, describedRoutes, type RouteSearch } from './describedRoutes.ts';
import type { EncodedTrades } from './tradeCodec.ts';

/**
 * What the API sends a pricing worker: the search only, never pool state, and the state version to run it on. A
 * RouteSearch (POST /quotes/routes) is answered with its trades described (findRoutes), a QuoteSearch (POST /quotes)
 * with its trade described and its steps built (findQuote), any other with the trades.
 */
export type TradeTask = (TradeSearch | RouteSearch | QuoteSearch) & StateVersion;

/** The version of the served state a task must be priced on. */
export interface StateVersion {
  /** Snapshot generation (reloads) the API process is serving; a worker behind it reloads. */
  readonly generation: number;
  /** Followed blocks the API has applied within that generation; a worker behind it applies them first. */
  readonly updates: number;
}

/**
 * What a worker returns: outcomes in their flat form (decodeTrades rebuilds them), or a plain error value (class
 * identity does not survive the thread hop).
 */
export type TradeTaskResult =
  | { ok: true; trades: EncodedTrades }
  | { ok: true; routes: DeploymentRoute[] }
  | { ok: true; quotes: DeploymentQuote[] }
  | { ok: false; error: { code: string; message: string } };

/** Whether a search is POST /quotes/routes' (answered with described routes). */
export function isRouteSearch(search: TradeSearch | RouteSearch | QuoteSearch): search is RouteSearch {
  return 'slippageBps' in search;
}

/** Whether a search is POST /quotes' (answered with its trade described and its steps). */
export function isQuoteSearch(search: TradeSearch | RouteSearch | QuoteSearch): search is QuoteSearch {
  return 'quote' in search;
}

/**
 * Finds a search's trades on a pricing graph (Pricer.findTrades): the same code in a worker and in the API thread.
 * A search that leaves the gas price to the state is priced at the gas price recorded with the chain's snapshot.
 */
export function findTrades(graph: PricingGraph, search: TradeSearch): DeploymentTrade[] {
  const index = graph.chain(search.chainId);
  const snapshot = graph.graph.snapshot(search.chainId);
  if (!index || !snapshot) return [];
  const gasPriceWei = search.limits.gasPriceWei ?? snapshotGasPriceWei(snapshot);
  return bestTradesByDeployment(index, search, { ...search.limits, gasPriceWei }, search.perDeployment);
}

/** Finds a route search's trades and describes them (describedRoutes): the same code in a worker and in the API thread. */
export function findRoutes(graph: PricingGraph, search: RouteSearch): DeploymentRoute[] {
  return describedRoutes(graph.catalog, search, findTrades(graph, search));
}

/**
 * Finds a POST /quotes search's trade, describes it and builds its steps (describedQuotes) on the chain as served
 * (the index's, the one the trade was routed on): the same code in a worker and in the API thread.
 */
export function findQuote(graph: PricingGraph, search: QuoteSearch): DeploymentQuote[] {
  const index = graph.chain(search.chainId);
  return index ? describedQuotes(graph.catalog, index.chain, search, findTrades(graph, search)) : [];
}

/**
 * Builds before a first quote what pricing otherwise builds on first use (ready means ready): every chain's pool
 * index (its sorted pool lists), and per chain one default search (over every deployment, one per deployment as
 * POST /quotes/routes asks) from one whole wrapped native token to each base token, which fills the network-fee
 * rates of the bases and compiles the search and pricing code. Run by each worker before it takes a task and by
 * the API process before it listens.
 */
export function warmUp(graph: PricingGraph): void {
  for (const chainId of graph.graph.chainIds()) {
    const index = graph.chain(chainId);
    if (!index) continue;
    const deployments = index.chain.dexes.map((d) => deploymentId(d.slug, d.version));
    const amount = 10n ** BigInt(index.token(index.wrappedNative)?.decimals ?? 18);
    for (const base of index.baseTokens) {
      if (base === index.wrappedNative) continue;
      const search = { chainId, tokenIn: index.wrappedNative, tokenOut: base, tradeType: 'exactIn' as const, amount };
      findRoutes(graph, { ...search, limits: defaultLimits(deployments), perDeployment: true, slippageBps: 'auto' });
    }
  }
}
