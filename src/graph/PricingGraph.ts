import { type Catalog, type CatalogChain, type CatalogToken, type DeploymentId, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { chainContext } from '../protocols/chainContext.ts';
import type { SnapshotContext } from '../protocols/PoolProtocol.ts';
import { type Pool, type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import { deriveBaseTokens } from './baseTokens.ts';
import type { BlockUpdate } from './blockUpdate.ts';
import { LayeredMap } from './layeredMap.ts';
import type { PoolGraph } from './PoolGraph.ts';
import { PairMemos } from './pairMemos.ts';
import { PathTree } from './pathTree.ts';
import { buildPoolLists, deepestFirst, type ListKey, ListNames, listKeysOf, pairListKey, tokenListKey, UNNAMED } from './poolLists.ts';
import { servedChain } from './servedChain.ts';
import { lowerCaseOnce, type SharedStrings, sharedDeployment } from './sharedStrings.ts';
import { SortedLists } from './sortedLists.ts';
import { reportUnconvertiblePool } from './unconvertiblePools.ts';
import { chainUsdPrices, type UsdPrice, usdFloat, usdPrices } from './usdPrices.ts';

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
 * One chain's pools as routing needs them: each token's pools, each pair's pools and each token's pools to a base
 * token, deepest first (the native asset has none: routes start and end at its wrapped token), so candidate
 * selection reads only the pools it may choose whatever the size of the graph; and their priceable form, converted
 * from snapshot state on first use and kept, so the cost does not grow with pools no quote touches. Immutable for
 * its graph; a followed block derives a new index from it (withChanges).
 */
export class ChainPoolIndex {
  /** Lower-case native pseudo-address and wrapped native token. */
  readonly native: string;
  readonly wrappedNative: string;
  /**
   * Lower-case base token addresses: the catalogue's `baseTokens`, or when it names none, chosen from the pools
   * (deriveBaseTokens) when the index is built, and kept by every index derived from it.
   */
  readonly baseTokens: readonly string[];
  /** Whether the base tokens were chosen from the pools (the catalogue names none). */
  readonly baseTokensDerived: boolean;
  /** Pool lists by key (poolLists.ts: a token's, a pair's, a token's to base tokens). */
  private readonly lists: SortedLists<ListKey, PoolEntry>;
  /** The numbers of the tokens and deployments in the lists' keys, shared with the indexes derived from this one. */
  private readonly names: ListNames;
  /** How many names were given when this index was made: a name given since is of a token or deployment no list of it has. */
  private readonly named: number;
  /**
   * The entries' lower-case token addresses and deployment ids, one string each for all of them (by the pool's address
   * as written; by dex and version), shared with the indexes derived from this one.
   */
  private readonly shared: SharedStrings;
  private readonly bases: ReadonlySet<string>;
  /** Priceable pools by entry, shared by every index derived from this one (an entry never changes state). */
  private readonly converted: WeakMap<PoolEntry, Pool | Error>;
  /**
   * Entries by pool address: the entry, or for a pool of more than two tokens its entries, one per token pair
   * (PoolProtocol.pairViews).
   */
  private readonly entries: LayeredMap<string, PoolEntry | readonly PoolEntry[]>;
  /** The chain's catalogue facts its pools' pricing depends on (fromSnapshot's context: the v4 hooks it lists). */
  private readonly context: SnapshotContext;
  private readonly memos = new Map<string, unknown>();
  /** A pair's candidate paths, kept across followed blocks that leave the list heads they were selected from (pairMemo). */
  private readonly pairs = new PairMemos();
  /**
   * What searches keep per path of pools (routing/candidates.ts: each path's candidate), shared with the indexes
   * derived from this one, which drop the paths through the pools their block changed (withChanges).
   */
  readonly paths: PathTree<PoolEntry>;
  /** Chain tokens by lower-case address, and USD prices (pruning scores) as of the index's first state. */
  private readonly tokens: ReadonlyMap<string, CatalogToken>;
  private readonly prices: ReadonlyMap<string, UsdPrice>;
  /**
   * Each entry's score in the order the entries were made (the pools' order; a pool's pair views in theirs), for an
   * index built from a chain's pools (undefined for one derived by withChanges): what another thread building the
   * index of the same pools with the same prices may take instead of scoring them again (workerHandover.ts).
   */
  readonly entryScores: Float64Array | undefined;

  /**
   * `prices`: usdPrices of `pools` when the caller has them (else computed here). `scores`: the entryScores of an
   * index of the same pools and prices (else computed here; also when their count is not the entries').
   */
  constructor(
    readonly chain: CatalogChain,
    pools: readonly SnapshotPool[],
    derived?: ChainPoolIndex,
    prices?: ReadonlyMap<string, UsdPrice>,
    scores?: Float64Array,
  ) {
    this.native = NATIVE_TOKEN_ADDRESS.toLowerCase();
    this.wrappedNative = chain.wrappedNativeToken.toLowerCase();
    this.context = chainContext(chain);
    if (derived) {
      this.lists = new SortedLists(deepestFirst, derived.lists);
      this.names = derived.names;
      this.named = this.names.size;
      this.shared = derived.shared;
      this.paths = derived.paths;
      this.baseTokens = derived.baseTokens;
      this.baseTokensDerived = derived.baseTokensDerived;
      this.bases = derived.bases;
      this.converted = derived.converted;
      this.entries = new LayeredMap(derived.entries);
      this.tokens = derived.tokens;
      this.prices = derived.prices;
      this.entryScores = undefined;
      return;
    }
    this.paths = new PathTree<PoolEntry>();
    this.converted = new WeakMap();
    this.names = new ListNames();
    this.shared = { lowerCase: new Map(), deployments: new Map() };
    this.tokens = new Map(chain.tokens.map((t) => [t.address.toLowerCase(), t]));
    this.prices = prices ?? usdPrices(chain, pools, (a) => this.tokens.get(a.toLowerCase()));
    const entries = (scores && this.entriesScored(pools, scores)) ?? pools.flatMap((state) => this.entriesOf(state));
    this.entryScores = Float64Array.from(entries, (e) => e.score);
    this.baseTokensDerived = chain.baseTokens.length === 0;
    this.baseTokens = this.baseTokensDerived
      ? deriveBaseTokens(entries, (t) => this.tokens.has(t))
      : chain.baseTokens.map((t) => t.toLowerCase());
    this.bases = new Set(this.baseTokens);
    const byAddress = new Map<string, PoolEntry | PoolEntry[]>();
    for (const entry of entries) {
      const other = byAddress.get(entry.address);
      byAddress.set(entry.address, other === undefined ? entry : Array.isArray(other) ? [...other, entry] : [other, entry]);
    }
    this.lists = new SortedLists(deepestFirst, buildPoolLists(entries, this.bases, this.names));
    this.named = this.names.size;
    this.entries = new LayeredMap(byAddress);
  }

  /**
   * The index after some pools changed (a followed block): their entries replaced, removed pools dropped, each at its
   * place in the lists that hold it (no list is re-sorted); every other list, entry and converted pool is shared
   * with this index. The new index has its own memos (nothing derived from the old state carries over), except the
   * pair values (pairMemo) whose list heads the change left as they were, and the paths kept per pools (paths) through
   * none of the changed pools. Scores use this index's USD prices.
   */
  withChanges(pools: readonly SnapshotPool[], removed: readonly string[]): ChainPoolIndex {
    const next = new ChainPoolIndex(this.chain, [], this);
    // Per list, the first place where the old and the new list may differ: what a kept pair value may have read.
    const changedAt = new Map<ListKey, number>();
    const changed = (key: ListKey, at: number): void => {
      if (!((changedAt.get(key) ?? Number.POSITIVE_INFINITY) <= at)) changedAt.set(key, at);
    };
    const replaced: PoolEntry[] = [];
    for (const address of [...removed, ...pools.map((p) => p.address)]) {
      const old = entriesIn(next.entries.get(address));
      if (old.length === 0) continue;
      replaced.push(...old);
      next.entries.delete(address);
      for (const entry of old)
        for (const key of listKeysOf(entry, next.bases, next.names)) {
          changed(key, this.lists.positionOf(key, entry));
          next.lists.remove(key, entry);
        }
    }
    const inserted: PoolEntry[] = [];
    for (const state of pools) {
      const entries = next.entriesOf(state);
      if (entries.length > 0) next.entries.set(entries[0].address, entries.length === 1 ? entries[0] : entries);
      for (const entry of entries) for (const key of listKeysOf(entry, next.bases, next.names)) next.lists.insert(key, entry);
      inserted.push(...entries);
    }
    for (const entry of inserted)
      for (const key of listKeysOf(entry, next.bases, next.names)) changed(key, next.lists.positionOf(key, entry));
    // A token or deployment named since this index was made: a list this index read as unnamed (empty) may have pools now.
    if (this.names.size > this.named) changed(UNNAMED, 0);
    next.pairs.carry(this.pairs, changedAt);
    next.paths.drop(replaced);
    return next;
  }

  /**
   * A pool's entries: itself, or for a pool of more than two tokens one per pair of catalogued tokens
   * (PoolProtocol.pairViews), each with the pool's address.
   */
  private entriesOf(state: SnapshotPool, score = (s: SnapshotPool) => usdScore(s, this.tokens, this.prices)): PoolEntry[] {
    const views = snapshotProtocol(state.version).pairViews?.(state);
    if (!views) return [this.entryOf(state, score)];
    return views
      .filter((v) => this.tokens.has(v.token0.toLowerCase()) && this.tokens.has(v.token1.toLowerCase()))
      .map((v) => this.entryOf(v, score));
  }

  /** The entries of `pools` scored in order from `scores`, or undefined when they are not as many as the entries. */
  private entriesScored(pools: readonly SnapshotPool[], scores: Float64Array): PoolEntry[] | undefined {
    let k = 0;
    const entries = pools.flatMap((state) => this.entriesOf(state, () => scores[k++]));
    return k === scores.length ? entries : undefined;
  }

  private entryOf(state: SnapshotPool, score: (state: SnapshotPool) => number): PoolEntry {
    return {
      address: state.address,
      dex: state.dex,
      version: state.version,
      deployment: sharedDeployment(this.shared, state.dex, state.version),
      token0: lowerCaseOnce(this.shared.lowerCase, state.token0),
      token1: lowerCaseOnce(this.shared.lowerCase, state.token1),
      score: score(state),
      state,
    };
  }

  /** The catalogue token of a lower-case address on this chain. */
  token(address: string): CatalogToken | undefined {
    return this.tokens.get(address);
  }

  /** The pools of a token (lower-case address), deepest first; with `deployment`, only that deployment's. */
  poolsOf(token: string, deployment?: DeploymentId): readonly PoolEntry[] {
    return this.list(tokenListKey(this.names, 't', token, deployment));
  }

  /** The pools between two tokens (lower-case addresses), deepest first. */
  pairPools(a: string, b: string): readonly PoolEntry[] {
    return this.list(pairListKey(this.names, a, b));
  }

  /**
   * The pools of a token (lower-case address) whose other token is a base token, deepest first; with `deployment`,
   * only that deployment's.
   */
  basePoolsOf(token: string, deployment?: DeploymentId): readonly PoolEntry[] {
    return this.list(tokenListKey(this.names, 'b', token, deployment));
  }

  /** A list by key, noted as read when a pair value is being made (pairMemo). */
  private list(key: ListKey): readonly PoolEntry[] {
    const list = this.lists.get(key);
    this.pairs.read(key, list);
    return list;
  }

  /**
   * A pair's value derived from the heads of the lists it reads (its candidate paths: findRoutes), computed once per
   * key and kept with this index and every index a followed block derives from it, unless the block changed a list it
   * read within the entries it looked at (readTo; a list read without readTo counts whole). At most 4096 keys.
   */
  pairMemo<T>(key: string, make: () => T): T {
    return this.pairs.get(key, make);
  }

  /** While a pair value is made: only the first `depth` entries of `list` (from this index) were looked at (Infinity: all). */
  readTo(list: readonly PoolEntry[], depth: number): void {
    this.pairs.readTo(list, depth);
  }

  /** Whether a pair value of the key is kept (tests). */
  hasPairMemo(key: string): boolean {
    return this.pairs.has(key);
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
        pool = snapshotProtocol(entry.state.version).fromSnapshot(entry.state, this.context);
      } catch (error) {
        pool = error instanceof Error ? error : new Error(String(error));
        reportUnconvertiblePool({ chainId: this.chain.chainId, address: entry.address, reason: pool.message });
      }
      this.converted.set(entry, pool);
    }
    return pool instanceof Error ? undefined : pool;
  }
}

/** The entries kept for a pool address (ChainPoolIndex.entries), as a list. */
function entriesIn(kept: PoolEntry | readonly PoolEntry[] | undefined): readonly PoolEntry[] {
  if (kept === undefined) return [];
  return Array.isArray(kept) ? kept : [kept as PoolEntry];
}

/** USD value of a pool's balances as a float (pruning only); a side without a price counts as the other side. */
function usdScore(pool: SnapshotPool, tokens: ReadonlyMap<string, unknown>, prices: ReadonlyMap<string, UsdPrice>): number {
  const side = (address: string, balance: string): number | undefined => {
    const a = address.toLowerCase();
    const price = prices.get(a);
    if (price === undefined || !tokens.has(a)) return undefined;
    return usdFloat(BigInt(balance), price);
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
