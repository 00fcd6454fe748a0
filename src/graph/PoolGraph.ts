import type { Catalog } from '../catalog/loadCatalog.ts';
import type { Snapshot, SnapshotPool } from './snapshot.ts';

/** Key of an unordered token pair (lower-case addresses, lower first). */
export function pairKey(tokenA: string, tokenB: string): string {
  const a = tokenA.toLowerCase();
  const b = tokenB.toLowerCase();
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

interface ChainPools {
  readonly snapshot: Snapshot;
  readonly pools: readonly SnapshotPool[];
  readonly byPair: ReadonlyMap<string, readonly SnapshotPool[]>;
}

/**
 * The in-memory pool graph: every chain's snapshot, its pools indexed by unordered token pair.
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
      const byPair = new Map<string, SnapshotPool[]>();
      // Lower-case address of each catalogue token as written in the snapshot ('' when not in the catalogue):
      // addresses repeat across pools, so each is looked up once.
      const lowered = new Map<string, string>();
      const lower = (address: string): string => {
        let l = lowered.get(address);
        if (l === undefined) {
          l = catalog.token(chain.chainId, address) ? address.toLowerCase() : '';
          lowered.set(address, l);
        }
        return l;
      };
      for (const pool of snapshot.pools) {
        if (!dexes.has(`${pool.dex}/${pool.version}`)) {
          this.ignored.push(`${chain.slug} ${pool.address}: DEX ${pool.dex} ${pool.version} not in the catalogue`);
          continue;
        }
        const a = lower(pool.token0);
        const b = lower(pool.token1);
        if (a === '' || b === '') {
          this.ignored.push(`${chain.slug} ${pool.address}: token not in the catalogue`);
          continue;
        }
        pools.push(pool);
        const key = a < b ? `${a}:${b}` : `${b}:${a}`;
        const list = byPair.get(key);
        if (list) list.push(pool);
        else byPair.set(key, [pool]);
      }
      this.chains.set(chain.chainId, { snapshot, pools, byPair });
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

  /** The pools that trade tokenA against tokenB directly, on every DEX. */
  poolsForPair(chainId: number, tokenA: string, tokenB: string): readonly SnapshotPool[] {
    return this.chains.get(chainId)?.byPair.get(pairKey(tokenA, tokenB)) ?? [];
  }

  /** Chain ids that have a snapshot. */
  chainIds(): number[] {
    return [...this.chains.keys()];
  }
}
