import type { Catalog } from '../catalog/loadCatalog.ts';
import type { Snapshot, SnapshotPool } from './snapshot.ts';

interface ChainPools {
  readonly snapshot: Snapshot;
  readonly pools: readonly SnapshotPool[];
}

/**
 * The in-memory pool graph: every chain's snapshot and its pools whose DEX and tokens are in the catalogue (the
 * token → pools index routing uses is src/graph/PricingGraph.ts, built from this per chain on first use).
 * Immutable; a snapshot reload builds a new graph and swaps it in whole.
 */
export class PoolGraph {
  private readonly chains = new Map<number, ChainPools>();
  /** Pools dropped because their chain, DEX or tokens are not in the catalogue. */
  readonly ignored: string[] = [];

  constructor(snapshots: readonly Snapshot[], catalog: Catalog) {
    for (const snapshot of snapshots) {
      const chain = catalog.chain(snapshot.chainId);
      if (!chain) {
        this.ignored.push(`chain ${snapshot.chainId}: not in the catalogue`);
        continue;
      }
      const dexes = new Set(chain.dexes.map((d) => `${d.slug}/${d.version}`));
      const pools: SnapshotPool[] = [];
      // Whether each token address as written in the snapshot is a catalogue token: addresses repeat across pools,
      // so each is looked up once.
      const known = new Map<string, boolean>();
      const listed = (address: string): boolean => {
        let k = known.get(address);
        if (k === undefined) known.set(address, (k = catalog.token(chain.chainId, address) !== undefined));
        return k;
      };
      for (const pool of snapshot.pools) {
        if (!dexes.has(`${pool.dex}/${pool.version}`)) {
          this.ignored.push(`${chain.slug} ${pool.address}: DEX ${pool.dex} ${pool.version} not in the catalogue`);
          continue;
        }
        if (!listed(pool.token0) || !listed(pool.token1)) {
          this.ignored.push(`${chain.slug} ${pool.address}: token not in the catalogue`);
          continue;
        }
        pools.push(pool);
      }
      this.chains.set(chain.chainId, { snapshot, pools });
    }
  }

  /** The snapshot a chain's pools come from, if any. */
  snapshot(chainId: number): Snapshot | undefined {
    return this.chains.get(chainId)?.snapshot;
  }

  /** Every pool of a chain (empty when it has no snapshot). */
  pools(chainId: number): readonly SnapshotPool[] {
    return this.chains.get(chainId)?.pools ?? [];
  }

  /** Chain ids that have a snapshot. */
  chainIds(): number[] {
    return [...this.chains.keys()];
  }
}
