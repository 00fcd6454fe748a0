import { type Catalog, type CatalogChain, deploymentId, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import type { SnapshotPool } from '../protocols/registry.ts';
import type { BlockUpdate } from './blockUpdate.ts';
import { LayeredMap } from './layeredMap.ts';
import type { Snapshot } from './snapshot.ts';

interface ChainPools {
  /** The snapshot the chain's state started from, with its block metadata moved to the last applied update. */
  readonly snapshot: Snapshot;
  /**
   * Pools by address (as written in the snapshot): a followed block derives the next chain's from it, copying only the
   * pools changed since its base (LayeredMap), not every pool of the chain.
   */
  readonly byAddress: LayeredMap<string, SnapshotPool>;
  /** byAddress's values, built on first use (by what reads every pool: prices, the pool list, a full index). */
  list?: readonly SnapshotPool[];
}

/**
 * The in-memory pool graph: every chain's snapshot and its pools whose DEX and tokens are in the catalogue (the
 * token → pools index routing uses is src/graph/PricingGraph.ts, built from this per chain on first use).
 * Immutable: a snapshot reload builds a new graph, and a followed block (withUpdate) a new graph that shares every
 * chain and pool the block did not change.
 */
export class PoolGraph {
  private readonly chains: Map<number, ChainPools>;
  /** Pools dropped because their chain, DEX or tokens are not in the catalogue. */
  readonly ignored: string[];

  /** The graph of a set of snapshots (`derived`: the chains of a graph built by withUpdate). */
  constructor(
    snapshots: readonly Snapshot[],
    private readonly catalog: Catalog,
    derived?: { chains: Map<number, ChainPools>; ignored: string[] },
  ) {
    this.chains = derived?.chains ?? new Map();
    this.ignored = derived?.ignored ?? [];
    for (const snapshot of snapshots) {
      const chain = catalog.chain(snapshot.chainId);
      if (!chain) {
        this.ignored.push(`chain ${snapshot.chainId}: not in the catalogue`);
        continue;
      }
      const accepts = poolFilter(catalog, chain);
      const byAddress = new LayeredMap<string, SnapshotPool>();
      for (const pool of snapshot.pools) {
        const problem = accepts(pool);
        if (problem) this.ignored.push(`${chain.slug} ${pool.address}: ${problem}`);
        else byAddress.set(pool.address, pool);
      }
      this.chains.set(chain.chainId, { snapshot, byAddress });
    }
  }

  /** The snapshot a chain's pools come from, if any (block metadata: the last applied update's). */
  snapshot(chainId: number): Snapshot | undefined {
    return this.chains.get(chainId)?.snapshot;
  }

  /** Every pool of a chain (empty when it has no snapshot). */
  pools(chainId: number): readonly SnapshotPool[] {
    const chain = this.chains.get(chainId);
    if (!chain) return [];
    chain.list ??= Array.from(chain.byAddress.entries(), ([, pool]) => pool);
    return chain.list;
  }

  /** One pool of a chain by its address as the snapshot writes it. */
  pool(chainId: number, address: string): SnapshotPool | undefined {
    return this.chains.get(chainId)?.byAddress.get(address);
  }

  /** Chain ids that have a snapshot. */
  chainIds(): number[] {
    return [...this.chains.keys()];
  }

  /**
   * The graph after one followed block: the chain's changed and new pools replaced (those outside the catalogue left
   * out, as at load), removed pools dropped, its block metadata (and token supplies, when it carries them) moved to
   * the update's; every other chain and pool is shared with this graph (the chain's pools by address derived, not
   * copied: the work is the block's pools, not the chain's); a `full` update replaces the chain's pools.
   * Returns this graph unchanged when the chain has no snapshot or the update is not newer than the chain's state
   * (e.g. after a reload to a later snapshot) and is neither a reorg nor full.
   */
  withUpdate(update: BlockUpdate): PoolGraph {
    const current = this.chains.get(update.chainId);
    const chain = this.catalog.chain(update.chainId);
    if (!current || !chain || (update.blockNumber <= current.snapshot.blockNumber && !update.reorg && !update.full)) return this;
    const byAddress = update.full ? new LayeredMap<string, SnapshotPool>() : new LayeredMap(current.byAddress);
    const accepts = poolFilter(this.catalog, chain);
    for (const address of update.removed) byAddress.delete(address);
    for (const pool of update.pools) if (!accepts(pool)) byAddress.set(pool.address, pool);
    // The cold-start snapshot's own pool list is not kept: pools(chainId) is the chain's state.
    const snapshot: Snapshot = {
      ...current.snapshot,
      blockNumber: update.blockNumber,
      blockTimestamp: update.blockTimestamp,
      gasPriceWei: update.gasPriceWei,
      ...(update.totalSupplies ? { totalSupplies: update.totalSupplies } : {}),
      pools: [],
    };
    return new PoolGraph([], this.catalog, {
      chains: new Map(this.chains).set(update.chainId, { snapshot, byAddress }),
      ignored: this.ignored,
    });
  }
}

/** Why a pool of a chain is left out of the graph (its DEX or a token is not in the catalogue), or undefined. */
function poolFilter(catalog: Catalog, chain: CatalogChain): (pool: SnapshotPool) => string | undefined {
  const dexes = new Set(chain.dexes.map((d) => deploymentId(d.slug, d.version)));
  // Whether each token address as written in the snapshot is a catalogue token: addresses repeat across pools,
  // so each is looked up once. v4 pools hold the native asset as currency 0x0000…0000: the catalogue's native token.
  const known = new Map<string, boolean>();
  const listed = (address: string): boolean => {
    let k = known.get(address);
    if (k === undefined) {
      k = catalog.token(chain.chainId, BigInt(address) === 0n ? NATIVE_TOKEN_ADDRESS : address) !== undefined;
      known.set(address, k);
    }
    return k;
  };
  return (pool) => {
    if (!dexes.has(deploymentId(pool.dex, pool.version))) return `DEX ${pool.dex} ${pool.version} not in the catalogue`;
    if (!listed(pool.token0) || !listed(pool.token1)) return 'token not in the catalogue';
    return undefined;
  };
}
