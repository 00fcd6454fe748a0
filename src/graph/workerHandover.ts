import { Catalog, type CatalogChain } from '../catalog/Catalog.ts';
import type { PoolGraph } from './PoolGraph.ts';
import { pricingGraphOf, provideEntryScores } from './PricingGraph.ts';
import { snapshotSource } from './snapshot.ts';
import { chainUsdPrices, provideUsdPrices, type UsdPrice } from './usdPrices.ts';

/**
 * One chain's USD prices and its index's pool scores as the API thread computed them, and the snapshot file version
 * they were computed from.
 */
interface HandedChain {
  readonly chainId: number;
  /** snapshotSource of the chain's snapshot: its file's path and version. */
  readonly source: string;
  readonly prices: ReadonlyMap<string, UsdPrice>;
  /** ChainPoolIndex.entryScores (absent for a chain the catalogue does not have). */
  readonly scores: Float64Array | undefined;
}

/**
 * What the API thread hands each pricing worker (workerData.handover) so that the worker does not build again what
 * is a pure function of inputs both threads share: the catalogue as the API loaded it (the worker builds its Catalog
 * from these chains instead of reading and checking the folder again, so both threads serve the same catalogue), and
 * each chain's USD prices and its index's pool scores on its start-up state, with the snapshot file version they
 * came from. A worker takes a chain's only for a snapshot it read from that same file version (identical bytes, same
 * catalogue: the same pools, hence the same prices and scores); any other state (a file changed since, a followed
 * block) is priced and scored by the worker itself, as before. The snapshot bytes and their tick regions travel beside this (snapshot.ts, sharedSnapshotFiles).
 */
export interface WorkerHandover {
  readonly catalogChains: readonly CatalogChain[];
  readonly chains: readonly HandedChain[];
}

/**
 * The handover of a graph the API thread built: every chain read from a file, with its prices and its index's scores
 * (both built here if they are not yet; the service has built them before it starts its workers).
 */
export function workerHandover(graph: PoolGraph, catalog: Catalog): WorkerHandover {
  const chains: HandedChain[] = [];
  for (const chainId of graph.chainIds()) {
    const source = snapshotSource(graph.snapshot(chainId)!);
    if (source === undefined) continue;
    const prices = chainUsdPrices(graph, catalog, chainId);
    chains.push({ chainId, source, prices, scores: pricingGraphOf(graph, catalog).chain(chainId)?.entryScores });
  }
  return { catalogChains: catalog.chains, chains };
}

/** The catalogue of a handover: the API thread's, rebuilt in this thread. */
export function handedCatalog(handover: WorkerHandover): Catalog {
  return new Catalog(handover.catalogChains);
}

/**
 * Gives a graph built with handedCatalog the handed USD prices and pool scores of each chain whose snapshot was read
 * from the file version they were computed from; returns those chains' ids.
 */
export function takeHandedChains(graph: PoolGraph, handover: WorkerHandover): number[] {
  const taken: number[] = [];
  for (const { chainId, source, prices, scores } of handover.chains) {
    const snapshot = graph.snapshot(chainId);
    if (snapshot === undefined || snapshotSource(snapshot) !== source) continue;
    provideUsdPrices(graph, chainId, prices);
    if (scores) provideEntryScores(graph, chainId, scores);
    taken.push(chainId);
  }
  return taken;
}
