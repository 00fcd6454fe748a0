import { fileURLToPath } from 'node:url';
import type { Catalog, CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots, type Snapshot } from '../../src/graph/snapshot.ts';
import { type UsdPrice, usdPrices } from '../../src/graph/usdPrices.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';

/** The project's catalogue folder (catalog/). */
export const projectCatalogDir = fileURLToPath(new URL('../../catalog', import.meta.url));
/** The shipped snapshot folder (seeds/snapshots/: the devnet's and devnet-b's snapshots). */
export const shippedSnapshotDir = fileURLToPath(new URL('../../seeds/snapshots', import.meta.url));

/** The shipped devnet's state over the project catalogue, as the graph and routing tests read it. */
export interface ShippedDevnetGraph {
  readonly catalog: Catalog;
  /** Every shipped snapshot. */
  readonly snapshots: readonly Snapshot[];
  /** The devnet's snapshot (chain 31337). */
  readonly snapshot: Snapshot;
  readonly chainId: number;
  readonly chain: CatalogChain;
  /** The pool graph over every shipped snapshot. */
  readonly graph: PoolGraph;
  /** The devnet's pools in that graph. */
  readonly pools: readonly SnapshotPool[];
  /** The devnet pools' tokens, lower case, each once, in the pools' order. */
  readonly tokens: readonly string[];
  /** USD prices over the devnet's pools (tokens looked up in its catalogue chain). */
  readonly prices: ReadonlyMap<string, UsdPrice>;
}

let made: ShippedDevnetGraph | undefined;

/**
 * The shipped devnet graph: the project catalogue, the shipped snapshots and the devnet chain's (31337) pools,
 * tokens and USD prices. Read once per process: every caller gets the same objects, which nothing may change.
 */
export function shippedDevnetGraph(): ShippedDevnetGraph {
  if (made) return made;
  const chainId = 31337;
  const catalog = loadCatalog(projectCatalogDir);
  const { snapshots } = loadSnapshots(shippedSnapshotDir);
  const snapshot = snapshots.find((s) => s.chainId === chainId);
  if (!snapshot) throw new Error(`the devnet snapshot (chain ${chainId}) is missing from ${shippedSnapshotDir}`);
  const chain = catalog.chain(chainId)!;
  const graph = new PoolGraph(snapshots, catalog);
  const pools = graph.pools(chainId);
  const tokens = [...new Set(pools.flatMap((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()]))];
  const prices = usdPrices(chain, pools, (a) => chain.tokens.find((x) => x.address.toLowerCase() === a.toLowerCase()));
  made = { catalog, snapshots, snapshot, chainId, chain, graph, pools, tokens, prices };
  return made;
}
