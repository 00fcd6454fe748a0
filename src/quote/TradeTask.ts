import type { PricingGraph } from '../graph/PricingGraph.ts';
import { snapshotGasPriceWei } from '../graph/snapshot.ts';
import { bestTradesByDeployment, type DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import type { TradeSearch } from '../routing/TradeFinder.ts';

/** What the API sends a pricing worker: the search only, never pool state, and the state version to run it on. */
export interface TradeTask extends TradeSearch {
  /** Snapshot generation (reloads) the API process is serving; a worker behind it reloads. */
  readonly generation: number;
  /** Followed blocks the API has applied within that generation; a worker behind it applies them first. */
  readonly updates: number;
}

/** What a worker returns: outcomes, or a plain error value (class identity does not survive the thread hop). */
export type TradeTaskResult = { ok: true; trades: DeploymentTrade[] } | { ok: false; error: { code: string; message: string } };

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
