import type { Catalog } from '../catalog/Catalog.ts';
import type { BlockUpdate } from './blockUpdate.ts';
import { ChainPoolIndex } from './ChainPoolIndex.ts';
import type { PoolGraph } from './PoolGraph.ts';
import { servedChain } from './servedChain.ts';
import { chainUsdPrices } from './usdPrices.ts';

/**
 * The pool graph as the pricing code needs it: per chain a ChainPoolIndex, built on first use and cached, so
 * start-up cost does not grow with chains that are never quoted.
 */
export class PricingGraph {
  private readonly chains: Map<number, ChainPoolIndex | null>;

  constructor(
    readonly graph: PoolGraph,
    readonly catalog: Catalog,
    chains?: Map<number, ChainPoolIndex | null>,
  ) {
    this.chains = chains ?? new Map();
  }

  /**
   * The pricing graph of `next`, the graph after `update` (PoolGraph.withUpdate): the updated chain's index, when it
   * was built, derived with its changed pools only (a full update: built again on first use); every other chain's
   * index shared.
   */
  withUpdate(next: PoolGraph, update: BlockUpdate): PricingGraph {
    const chains = new Map(this.chains);
    const index = chains.get(update.chainId);
    if (index && !update.full)
      chains.set(
        update.chainId,
        index.withChanges(
          update.pools.filter((p) => next.pool(update.chainId, p.address) === p),
          update.removed,
        ),
      );
    else chains.delete(update.chainId);
    return new PricingGraph(next, this.catalog, chains);
  }

  /** The chain's index, or undefined when the chain has no snapshot. */
  chain(chainId: number): ChainPoolIndex | undefined {
    let index = this.chains.get(chainId);
    if (index === undefined) {
      const chain = this.catalog.chain(chainId);
      const snapshot = this.graph.snapshot(chainId);
      // The chain as served (servedChain.ts): routing's approvalReset (gas) follows the seeding run's findings too, and
      // SwapRouter02's v2 pairs the router's own factoryV2().
      index =
        chain && snapshot
          ? new ChainPoolIndex(
              servedChain(chain, snapshot),
              this.graph.pools(chainId),
              undefined,
              chainUsdPrices(this.graph, this.catalog, chainId),
              scoresByGraph.get(this.graph)?.get(chainId),
            )
          : null;
      this.chains.set(chainId, index);
    }
    return index ?? undefined;
  }
}

const scoresByGraph = new WeakMap<PoolGraph, Map<number, Float64Array>>();

/**
 * Gives a graph's chain the entry scores (ChainPoolIndex.entryScores) of an index built elsewhere from the very same
 * pools and USD prices (workerHandover.ts: the API thread's), for its index, when built, to take.
 */
export function provideEntryScores(graph: PoolGraph, chainId: number, scores: Float64Array): void {
  let perChain = scoresByGraph.get(graph);
  if (!perChain) {
    perChain = new Map();
    scoresByGraph.set(graph, perChain);
  }
  perChain.set(chainId, scores);
}

const pricingGraphs = new WeakMap<PoolGraph, PricingGraph>();

/**
 * The pricing graph of a pool graph, kept with it: built on first use, or derived from the previous graph's when
 * the graph came from a followed block (derivePricingGraph).
 */
export function pricingGraphOf(graph: PoolGraph, catalog: Catalog): PricingGraph {
  let pricing = pricingGraphs.get(graph);
  if (!pricing) {
    pricing = new PricingGraph(graph, catalog);
    pricingGraphs.set(graph, pricing);
  }
  return pricing;
}

/** Registers the pricing graph of `next` (= previous.withUpdate(update)) derived from the previous one, if it was built. */
export function derivePricingGraph(previous: PoolGraph, next: PoolGraph, update: BlockUpdate): void {
  const pricing = pricingGraphs.get(previous);
  if (pricing && next !== previous) pricingGraphs.set(next, pricing.withUpdate(next, update));
}
