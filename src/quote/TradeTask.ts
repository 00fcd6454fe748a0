import { deploymentId } from '../catalog/Catalog.ts';
import type { PricingGraph } from '../graph/PricingGraph.ts';
import { snapshotGasPriceWei } from '../graph/snapshot.ts';
import { bestTradesByDeployment, type DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import { defaultLimits } from '../routing/RoutingLimits.ts';
import type { TradeSearch } from '../routing/TradeFinder.ts';
import type { EncodedTrades } from './tradeCodec.ts';

/** What the API sends a pricing worker: the search only, never pool state, and the state version to run it on. */
export interface TradeTask extends TradeSearch {
  /** Snapshot generation (reloads) the API process is serving; a worker behind it reloads. */
  readonly generation: number;
  /** Followed blocks the API has applied within that generation; a worker behind it applies them first. */
  readonly updates: number;
}

/**
 * What a worker returns: outcomes in their flat form (decodeTrades rebuilds them), or a plain error value (class
 * identity does not survive the thread hop).
 */
export type TradeTaskResult = { ok: true; trades: EncodedTrades } | { ok: false; error: { code: string; message: string } };

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
      findTrades(graph, { ...search, limits: defaultLimits(deployments), perDeployment: true });
    }
  }
}
