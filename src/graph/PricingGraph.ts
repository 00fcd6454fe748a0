import { NATIVE_TOKEN_ADDRESS, type Catalog, type CatalogChain } from '../catalog/loadCatalog.ts';
import { poolFromSnapshot, type Pool } from '../protocols/registry.ts';
import { createWrapPool } from '../protocols/wrap.ts';
import type { PoolGraph } from './PoolGraph.ts';
import type { SnapshotPool } from './snapshot.ts';
import { usdPrices } from './usdPrices.ts';

/** A pool in the adjacency: what candidate selection reads without converting its state. */
export interface PoolEntry {
  readonly address: string;
  readonly dex: string;
  readonly version: string;
  /** `dex/version`, the deployment DEX filters name ('/' for the wrap pseudo-pool). */
  readonly deployment: string;
  /** Lower-case, token0 < token1. */
  readonly token0: string;
  readonly token1: string;
  /** USD value of the balances where a price is known (float, for pruning only); the wrap pool ranks first. */
  readonly score: number;
  /** The snapshot state (absent for the wrap pseudo-pool). */
  readonly state: SnapshotPool | undefined;
}

/** Most values ChainPoolIndex.memo keeps per index. */
const MEMO_LIMIT = 4096;

/**
 * One chain's pools as routing needs them: each token's pools (the wrap pseudo-pool joins the native asset to its
 * wrapped token), deepest first, and their priceable form, converted from snapshot state on first use and kept,
 * so the cost does not grow with pools no quote touches. Immutable for its graph; a new graph builds a new index.
 */
export class ChainPoolIndex {
  /** Lower-case native pseudo-address and wrapped native token. */
  readonly native: string;
  readonly wrappedNative: string;
  /** Lower-case base token addresses (catalogue `baseTokens`). */
  readonly baseTokens: readonly string[];
  private readonly adjacency = new Map<string, PoolEntry[]>();
  private readonly converted = new Map<PoolEntry, Pool | Error>();
  private readonly memos = new Map<string, unknown>();

  constructor(
    readonly chain: CatalogChain,
    pools: readonly SnapshotPool[],
  ) {
    this.native = NATIVE_TOKEN_ADDRESS.toLowerCase();
    this.wrappedNative = chain.wrappedNativeToken.toLowerCase();
    this.baseTokens = chain.baseTokens.map((t) => t.toLowerCase());
    const byAddress = new Map(chain.tokens.map((t) => [t.address.toLowerCase(), t]));
    const prices = usdPrices(chain, pools, (a) => byAddress.get(a.toLowerCase()));
    for (const state of pools) {
      this.add({ address: state.address, dex: state.dex, version: state.version, deployment: `${state.dex}/${state.version}`, token0: state.token0.toLowerCase(), token1: state.token1.toLowerCase(), score: usdScore(state, byAddress, prices), state });
    }
    if (this.wrappedNative && byAddress.has(this.native) && byAddress.has(this.wrappedNative)) {
      const wrap = createWrapPool(NATIVE_TOKEN_ADDRESS, chain.wrappedNativeToken);
      const entry: PoolEntry = { address: wrap.address, dex: wrap.dex, version: wrap.version, deployment: '/', token0: wrap.token0, token1: wrap.token1, score: Number.MAX_VALUE, state: undefined };
      this.converted.set(entry, wrap);
      this.add(entry);
    }
    for (const list of this.adjacency.values()) list.sort((a, b) => b.score - a.score || (a.address < b.address ? -1 : 1));
  }

  private add(entry: PoolEntry): void {
    for (const token of [entry.token0, entry.token1]) {
      const list = this.adjacency.get(token);
      if (list) list.push(entry);
      else this.adjacency.set(token, [entry]);
    }
  }

  /** The pools of a token (lower-case address), deepest first. */
  poolsOf(token: string): readonly PoolEntry[] {
    return this.adjacency.get(token) ?? [];
  }

  /**
   * A value derived from this index's pools alone (e.g. a pair's candidate paths), computed once per key and kept
   * with the index: a state update or reload builds a new index, so nothing kept here outlives the state it was
   * derived from. At most MEMO_LIMIT keys; the oldest go first.
   */
  memo<T>(key: string, make: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = make();
    if (this.memos.size >= MEMO_LIMIT) this.memos.delete(this.memos.keys().next().value!);
    this.memos.set(key, value);
    return value;
  }

  /** The priceable pool of an entry, or undefined when its state does not convert (left out of every route). */
  pool(entry: PoolEntry): Pool | undefined {
    let pool = this.converted.get(entry);
    if (pool === undefined) {
      try {
        pool = poolFromSnapshot(entry.state!);
      } catch (error) {
        pool = error instanceof Error ? error : new Error(String(error));
      }
      this.converted.set(entry, pool);
    }
    return pool instanceof Error ? undefined : pool;
  }
}

/** USD value of a pool's balances as a float (pruning only); a side without a price counts as the other side. */
function usdScore(pool: SnapshotPool, tokens: ReadonlyMap<string, { decimals: number }>, prices: ReadonlyMap<string, bigint>): number {
  const side = (address: string, balance: string): number | undefined => {
    const a = address.toLowerCase();
    const price = prices.get(a);
    const token = tokens.get(a);
    if (price === undefined || !token) return undefined;
    return (Number(BigInt(balance)) / 10 ** token.decimals) * (Number(price) / 1e18);
  };
  const v0 = side(pool.token0, pool.balance0);
  const v1 = side(pool.token1, pool.balance1);
  if (v0 === undefined && v1 === undefined) return 0;
  return (v0 ?? v1!) + (v1 ?? v0!);
}

/**
 * The pool graph as the pricing code needs it: per chain a ChainPoolIndex, built on first use and cached, so
 * start-up cost does not grow with chains that are never quoted.
 */
export class PricingGraph {
  private readonly chains = new Map<number, ChainPoolIndex | null>();

  constructor(
    readonly graph: PoolGraph,
    private readonly catalog: Catalog,
  ) {}

  /** The chain's index, or undefined when the chain has no snapshot. */
  chain(chainId: number): ChainPoolIndex | undefined {
    let index = this.chains.get(chainId);
    if (index === undefined) {
      const chain = this.catalog.chain(chainId);
      index = chain && this.graph.snapshot(chainId) ? new ChainPoolIndex(chain, this.graph.pools(chainId)) : null;
      this.chains.set(chainId, index);
    }
    return index ?? undefined;
  }
}
