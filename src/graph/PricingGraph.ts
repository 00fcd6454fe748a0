import {
  type Catalog,
  type CatalogChain,
  type CatalogToken,
  type DeploymentId,
  deploymentId,
  NATIVE_TOKEN_ADDRESS,
} from '../catalog/Catalog.ts';
import { type Pool, type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import type { BlockUpdate } from './blockUpdate.ts';
import type { PoolGraph } from './PoolGraph.ts';
import { servedChain, tokenFacts } from './tokenFacts.ts';
import { reportUnconvertiblePool } from './unconvertiblePools.ts';
import { usdPrices } from './usdPrices.ts';

/** A pool in the adjacency: what candidate selection reads without converting its state. */
export interface PoolEntry {
  readonly address: string;
  readonly dex: string;
  readonly version: string;
  /** The deployment DEX filters name. */
  readonly deployment: DeploymentId;
  /** Lower-case, token0 < token1. */
  readonly token0: string;
  readonly token1: string;
  /** USD value of the balances where a price is known (float, for pruning only). */
  readonly score: number;
  readonly state: SnapshotPool;
}

/** Most values ChainPoolIndex.memo keeps per index. */
const MEMO_LIMIT = 4096;

/**
 * One chain's pools as routing needs them: each token's pools, deepest first (the native asset has none: routes
 * start and end at its wrapped token), and their priceable form, converted from snapshot state on first use and kept,
 * so the cost does not grow with pools no quote touches. Immutable for its graph; a new graph builds a new index.
 */
export class ChainPoolIndex {
  /** Lower-case native pseudo-address and wrapped native token. */
  readonly native: string;
  readonly wrappedNative: string;
  /** Lower-case base token addresses (catalogue `baseTokens`). */
  readonly baseTokens: readonly string[];
  private readonly adjacency: Map<string, PoolEntry[]>;
  /** Priceable pools by entry, shared by every index derived from this one (an entry never changes state). */
  private readonly converted: WeakMap<PoolEntry, Pool | Error>;
  /** Entries by pool address. */
  private readonly entries: Map<string, PoolEntry>;
  private readonly memos = new Map<string, unknown>();
  /** Chain tokens by lower-case address, and USD prices (pruning scores) as of the index's first state. */
  private readonly tokens: ReadonlyMap<string, CatalogToken>;
  private readonly prices: ReadonlyMap<string, bigint>;

  constructor(
    readonly chain: CatalogChain,
    pools: readonly SnapshotPool[],
    derived?: ChainPoolIndex,
  ) {
    this.native = NATIVE_TOKEN_ADDRESS.toLowerCase();
    this.wrappedNative = chain.wrappedNativeToken.toLowerCase();
    this.baseTokens = chain.baseTokens.map((t) => t.toLowerCase());
    if (derived) {
      this.adjacency = new Map(derived.adjacency);
      this.converted = derived.converted;
      this.entries = new Map(derived.entries);
      this.tokens = derived.tokens;
      this.prices = derived.prices;
      return;
    }
    this.adjacency = new Map();
    this.converted = new WeakMap();
    this.entries = new Map();
    this.tokens = new Map(chain.tokens.map((t) => [t.address.toLowerCase(), t]));
    this.prices = usdPrices(chain, pools, (a) => this.tokens.get(a.toLowerCase()));
    for (const state of pools) this.add(this.entryOf(state));
    for (const list of this.adjacency.values()) list.sort(deepestFirst);
  }

  /**
   * The index after some pools changed (a followed block): their entries replaced, removed pools dropped, only the
   * affected tokens' lists re-sorted; every other list, entry and converted pool is shared with this index. The new
   * index has its own memos (nothing derived from the old state carries over). Scores use this index's USD prices.
   */
  withChanges(pools: readonly SnapshotPool[], removed: readonly string[]): ChainPoolIndex {
    const next = new ChainPoolIndex(this.chain, [], this);
    const touched = new Set<string>();
    for (const address of [...removed, ...pools.map((p) => p.address)]) {
      const old = next.entries.get(address);
      if (!old) continue;
      next.entries.delete(address);
      for (const token of [old.token0, old.token1]) {
        next.adjacency.set(
          token,
          (next.adjacency.get(token) ?? []).filter((e) => e !== old),
        );
        touched.add(token);
      }
    }
    for (const state of pools) {
      const entry = next.entryOf(state);
      for (const token of [entry.token0, entry.token1]) {
        // A list shared with this index is copied before it is changed.
        if (!touched.has(token)) next.adjacency.set(token, [...(next.adjacency.get(token) ?? [])]);
        touched.add(token);
      }
      next.add(entry);
    }
    for (const token of touched) next.adjacency.get(token)!.sort(deepestFirst);
    return next;
  }

  private entryOf(state: SnapshotPool): PoolEntry {
    return {
      address: state.address,
      dex: state.dex,
      version: state.version,
      deployment: deploymentId(state.dex, state.version),
      token0: state.token0.toLowerCase(),
      token1: state.token1.toLowerCase(),
      score: usdScore(state, this.tokens, this.prices),
      state,
    };
  }

  private add(entry: PoolEntry): void {
    this.entries.set(entry.address, entry);
    for (const token of [entry.token0, entry.token1]) {
      const list = this.adjacency.get(token);
      if (list) list.push(entry);
      else this.adjacency.set(token, [entry]);
    }
  }

  /** The catalogue token of a lower-case address on this chain. */
  token(address: string): CatalogToken | undefined {
    return this.tokens.get(address);
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
    const found = this.memos.get(key);
    if (found !== undefined || this.memos.has(key)) return found as T;
    const value = make();
    if (this.memos.size >= MEMO_LIMIT) this.memos.delete(this.memos.keys().next().value!);
    this.memos.set(key, value);
    return value;
  }

  /**
   * The priceable pool of an entry, or undefined when its state does not convert: then it is left out of every
   * route, and reported once per entry (reportUnconvertiblePool: the API process logs and counts it).
   */
  pool(entry: PoolEntry): Pool | undefined {
    let pool = this.converted.get(entry);
    if (pool === undefined) {
      try {
        pool = snapshotProtocol(entry.state.version).fromSnapshot(entry.state);
      } catch (error) {
        pool = error instanceof Error ? error : new Error(String(error));
        reportUnconvertiblePool({ chainId: this.chain.chainId, address: entry.address, reason: pool.message });
      }
      this.converted.set(entry, pool);
    }
    return pool instanceof Error ? undefined : pool;
  }
}

/** Adjacency order: deepest first, then by address. */
function deepestFirst(a: PoolEntry, b: PoolEntry): number {
  return b.score - a.score || (a.address < b.address ? -1 : 1);
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
  private readonly chains: Map<number, ChainPoolIndex | null>;

  constructor(
    readonly graph: PoolGraph,
    private readonly catalog: Catalog,
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
      // The chain's tokens as served (tokenFacts.ts): routing's approvalReset (gas) follows the seeding run's findings too.
      index = chain && snapshot ? new ChainPoolIndex(servedChain(tokenFacts(snapshot), chain), this.graph.pools(chainId)) : null;
      this.chains.set(chainId, index);
    }
    return index ?? undefined;
  }
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
