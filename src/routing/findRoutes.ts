import type { DeploymentId } from '../catalog/Catalog.ts';
import type { ChainPoolIndex, PoolEntry } from '../graph/ChainPoolIndex.ts';
import { POOL_NATIVE } from './nativePools.ts';

/** Read once: the DFS compares against it per pool. */
const NATIVE = POOL_NATIVE;

import type { RoutingLimits } from './RoutingLimits.ts';

/** An unpriced path: pools and the tokens between them (tokens.length = pools.length + 1), lower-case. */
export interface PoolPath {
  readonly pools: readonly PoolEntry[];
  readonly tokens: readonly string[];
}

/**
 * Which pools a search may use (DEX filters). `deployment`: the one deployment it admits pools of, when it admits
 * only one: selection then reads that deployment's lists (ChainPoolIndex.poolsOf), not every pool of a hub token.
 */
export type PoolFilter = ((entry: PoolEntry) => boolean) & { readonly deployment?: DeploymentId };

/** Limits of a route search. */
export interface RouteSearchOptions extends Pick<RoutingLimits, 'maxHops'> {
  readonly allow: PoolFilter;
  /** Most paths returned (direct paths are always kept). */
  readonly maxRoutes?: number;
  /** Pools kept per token when selecting candidates. */
  readonly poolsPerToken?: number;
  /**
   * Native ETH pools (Uniswap v4, currency 0x0) join the wrapped native token's node (src/routing/nativePools.ts):
   * given only where an executor of the chain can swap them and wrap or unwrap between pools (bestTrade).
   */
  readonly nativeNode?: NativeNode;
}

/** The node of the native asset: the wrapped native token, which native ETH pools join. */
export interface NativeNode {
  /** The wrapped native token, lower case. */
  readonly wrapped: string;
  /**
   * Whether a path may start (end) at a native ETH pool: the trade's input (output) is the native asset. An ERC-20
   * end (the wrapped token itself) is held by the pool at that end.
   */
  readonly atIn: boolean;
  readonly atOut: boolean;
}

/** A candidate pool read at a node of the search: the node it leads to. */
interface Step {
  readonly entry: PoolEntry;
  readonly next: string;
}

/** Default number of paths priced per search. */
export const DEFAULT_MAX_ROUTES = 64;
const DEFAULT_POOLS_PER_TOKEN = 8;

/**
 * What one candidate selection reads with (selectCandidates): module-level functions over it, not closures per call
 * (the loader names every named closure it creates: a defineProperty each, per search).
 */
interface Selection {
  readonly index: ChainPoolIndex;
  readonly allow: PoolFilter;
  /** The one deployment whose lists are read (PoolFilter.deployment). */
  readonly only: DeploymentId | undefined;
  /** The wrapped native token where native ETH pools join its node, else undefined. */
  readonly wrapped: string | undefined;
}

/**
 * The first `limit` usable pools of a list (deepest first), added to `into`. What the selection depends on is noted
 * (ChainPoolIndex.pairMemo keeps it across blocks that change only deeper entries).
 */
function top(s: Selection, list: readonly PoolEntry[], limit: number, into: PoolEntry[] | Set<PoolEntry>): void {
  let taken = 0;
  let read = 0;
  const add = Array.isArray(into);
  for (let i = 0; i < list.length; i++) {
    if (taken >= limit) break;
    read++;
    const e = list[i];
    if (s.allow(e)) {
      if (add) (into as PoolEntry[]).push(e);
      else (into as Set<PoolEntry>).add(e);
      taken++;
    }
  }
  s.index.readTo(list, read < list.length ? read : Number.POSITIVE_INFINITY);
}

/** The first `limit` usable pools of a list, as an array (top). */
function topOf(s: Selection, list: readonly PoolEntry[], limit: number): PoolEntry[] {
  const out: PoolEntry[] = [];
  top(s, list, limit, out);
  return out;
}

/** A token's pools (`base`: those to a base token), of the selection's deployment where it has one. */
function listOf(s: Selection, token: string, base: boolean): readonly PoolEntry[] {
  return base ? s.index.basePoolsOf(token, s.only) : s.index.poolsOf(token, s.only);
}

/**
 * Lists each sorted deepest first (by score, descending), as one: the stable sort of their concatenation by score
 * (ties in list order, then within a list), merged rather than sorted. Scores that do not compare (NaN) are sorted.
 */
function deepestFirst(lists: readonly (readonly PoolEntry[])[], limit: number): PoolEntry[] {
  const at = new Array<number>(lists.length).fill(0);
  const out: PoolEntry[] = [];
  while (out.length < limit) {
    let pick = -1;
    for (let l = 0; l < lists.length; l++) {
      if (at[l] >= lists[l].length) continue;
      const score = lists[l][at[l]].score;
      if (Number.isNaN(score))
        return lists
          .flat()
          .sort((x, y) => y.score - x.score)
          .slice(0, limit);
      if (pick < 0 || score > lists[pick][at[pick]].score) pick = l;
    }
    if (pick < 0) break;
    out.push(lists[pick][at[pick]++]);
  }
  return out;
}

/**
 * The pools between two nodes, deepest first: at the wrapped native token's node, its own and native ETH's (one
 * list per pair of the nodes' tokens, merged).
 */
function pairPoolsOf(s: Selection, a: string, b: string): readonly PoolEntry[] {
  const w = s.wrapped;
  if (a !== w && b !== w) return s.index.pairPools(a, b);
  const lists: (readonly PoolEntry[])[] = [];
  for (const x of a === w ? [a, POOL_NATIVE] : [a]) for (const y of b === w ? [b, POOL_NATIVE] : [b]) lists.push(s.index.pairPools(x, y));
  return deepestFirst(lists, Number.POSITIVE_INFINITY);
}

/**
 * The first `limit` usable pools of a node, deepest first: one budget for the wrapped native token's node, whose
 * pools are its own and native ETH's (each list's first `limit` hold them, and each is read only that far), as they
 * would be were they all pools of the wrapped token.
 */
function nodeTop(s: Selection, token: string, base: boolean, limit: number): PoolEntry[] {
  if (token !== s.wrapped) return topOf(s, listOf(s, token, base), limit);
  return deepestFirst([topOf(s, listOf(s, token, base), limit), topOf(s, listOf(s, POOL_NATIVE, base), limit)], limit);
}

/** A pool's other token than the node it is read at (native ETH's pools at the wrapped token's node). */
function otherAt(s: Selection, e: PoolEntry, node: string): string {
  return e.token0 === node || (node === s.wrapped && e.token0 === POOL_NATIVE) ? e.token1 : e.token0;
}

/**
 * Candidate pools for a pair, bounded whatever the size of the graph (the idea of Uniswap's smart-order-router
 * candidate selection): every direct pool; the deepest pools touching tokenIn and tokenOut; the pools joining
 * either to a base token; the pools between base tokens; and for the tokens the deepest tokenIn and tokenOut pools
 * lead to, their pools to the other side and to the bases.
 */
export function selectCandidates(index: ChainPoolIndex, tokenIn: string, tokenOut: string, options: RouteSearchOptions): Set<PoolEntry> {
  const k = options.poolsPerToken ?? DEFAULT_POOLS_PER_TOKEN;
  const chosen = new Set<PoolEntry>();
  const native = options.nativeNode;
  const s: Selection = { index, allow: options.allow, only: options.allow.deployment, wrapped: native?.wrapped };
  const bases = index.baseTokens;
  // The distinct base tokens (the catalogue's list may name one twice), in order.
  let baseCount = 0;
  for (let i = 0; i < bases.length; i++) if (bases.indexOf(bases[i]) === i) baseCount++;
  // Each list read holds only the pools that may be chosen from it (a pair's, a token's to the bases), so the
  // selection reads a bounded number of pools whatever the size of the graph.
  top(s, pairPoolsOf(s, tokenIn, tokenOut), Number.MAX_SAFE_INTEGER, chosen);
  // Each end's deepest pools (read again below for its neighbours: the same list).
  const endTops: PoolEntry[][] = [];
  for (const end of tokenIn === tokenOut ? [tokenIn] : [tokenIn, tokenOut]) {
    const own = nodeTop(s, end, false, k);
    endTops.push(own);
    for (let i = 0; i < own.length; i++) chosen.add(own[i]);
    const toBases = nodeTop(s, end, true, 2 * baseCount + 2);
    for (let i = 0; i < toBases.length; i++) chosen.add(toBases[i]);
    // An end's pools to native ETH, which is no base token but shares the wrapped token's node.
    if (native && end !== native.wrapped && bases.includes(native.wrapped)) top(s, index.pairPools(end, POOL_NATIVE), 2, chosen);
  }
  for (let b = 0; b < bases.length; b++) {
    if (bases.indexOf(bases[b]) !== b) continue;
    const list = nodeTop(s, bases[b], true, 3);
    for (let i = 0; i < list.length; i++) chosen.add(list[i]);
  }
  if (options.maxHops >= 2) {
    for (let side = 0; side < 2; side++) {
      const end = side === 0 ? tokenIn : tokenOut;
      const far = side === 0 ? tokenOut : tokenIn;
      const own = endTops[side] ?? endTops[0];
      // The first four distinct tokens the end's deepest pools lead to.
      const neighbours: string[] = [];
      for (let i = 0; i < own.length && neighbours.length < 4; i++) {
        const n = otherAt(s, own[i], end);
        if (!neighbours.includes(n)) neighbours.push(n);
      }
      for (const n of neighbours) {
        top(s, pairPoolsOf(s, n, far), 2, chosen);
        top(s, index.basePoolsOf(n, s.only), 2, chosen);
      }
    }
  }
  return chosen;
}

/**
 * Every simple path from tokenIn to tokenOut (tokens as the pools hold them: the wrapped native token for the native
 * asset, see tradeEnds; with `nativeNode`, the wrapped token's node also joins native ETH pools, and a path's tokens
 * name nodes: nativePools.heldAt gives what each pool holds) over the candidate pools with at most maxHops pools, no
 * pool and no token used twice (a pool of native ETH and its wrapped token joins the node to itself: never used). Direct
 * paths (one pool) first, always included; then the others by their shallowest pool's score (deepest first; ties:
 * fewer hops first), as many as fit in maxRoutes.
 */
export function findRoutes(index: ChainPoolIndex, tokenIn: string, tokenOut: string, options: RouteSearchOptions): PoolPath[] {
  const candidates = selectCandidates(index, tokenIn, tokenOut, options);
  const native = options.nativeNode;
  const wrapped = native?.wrapped;
  /**
   * Each node's candidate pools with the node each leads to, in the candidates' order; and of those, the ones that
   * lead to tokenOut (the only ones a path's last hop may take: the same pools in the same order, without reading the
   * others).
   */
  const byToken = new Map<string, Step[]>();
  const toOut = new Map<string, Step[]>();
  for (const e of candidates) {
    const n0 = native && e.token0 === NATIVE ? (wrapped as string) : e.token0;
    const n1 = native && e.token1 === NATIVE ? (wrapped as string) : e.token1;
    if (n0 === n1) continue;
    addStep(byToken, n0, { entry: e, next: n1 });
    addStep(byToken, n1, { entry: e, next: n0 });
    if (n1 === tokenOut) addStep(toOut, n0, { entry: e, next: n1 });
    if (n0 === tokenOut) addStep(toOut, n1, { entry: e, next: n0 });
  }
  const walk: Walk = { byToken, toOut, tokenOut, maxHops: options.maxHops, native, found: [], pools: [], tokens: [tokenIn] };
  visit(walk, tokenIn, Number.MAX_VALUE, 0);
  const found = walk.found;
  found.sort(byHopsThenDepth);
  const limit = options.maxRoutes ?? DEFAULT_MAX_ROUTES;
  // Direct paths (one pool) are always priced; the others by depth.
  const kept: PoolPath[] = [];
  const rest: Found[] = [];
  for (const f of found) {
    if (f.path.pools.length <= 1) kept.push(f.path);
    else rest.push(f);
  }
  rest.sort(byDepth);
  const room = Math.max(0, limit - kept.length);
  for (let i = 0; i < rest.length && i < room; i++) kept.push(rest[i].path);
  return kept;
}

/** A path found, with its shallowest pool's score. */
interface Found {
  readonly path: PoolPath;
  readonly bottleneck: number;
}

function byHopsThenDepth(a: Found, b: Found): number {
  return a.path.pools.length - b.path.pools.length || b.bottleneck - a.bottleneck;
}

function byDepth(a: Found, b: Found): number {
  return b.bottleneck - a.bottleneck;
}

/** A step added to a node's list. */
function addStep(map: Map<string, Step[]>, t: string, step: Step): void {
  const list = map.get(t);
  if (list) list.push(step);
  else map.set(t, [step]);
}

/** findRoutes' walk: its candidate steps, the paths found, and the path being extended (pools, and tokens from tokenIn). */
interface Walk {
  readonly byToken: ReadonlyMap<string, readonly Step[]>;
  readonly toOut: ReadonlyMap<string, readonly Step[]>;
  readonly tokenOut: string;
  readonly maxHops: number;
  readonly native: NativeNode | undefined;
  readonly found: Found[];
  readonly pools: PoolEntry[];
  readonly tokens: string[];
}

/** Whether the path being extended already goes through a pool (a pool is its address: two pair views of one Balancer pool are the same pool, PoolProtocol.pairViews). */
function used(pools: readonly PoolEntry[], e: PoolEntry): boolean {
  for (let i = 0; i < pools.length; i++) if (pools[i] === e || pools[i].address === e.address) return true;
  return false;
}

/** Extends the walk's path from `token`, reached after `hops` pools whose shallowest scores `bottleneck`. */
function visit(w: Walk, token: string, bottleneck: number, hops: number): void {
  // The last hop a path may take reaches tokenOut or is no path: only the pools that lead there.
  const h = hops + 1;
  if (h > w.maxHops) return;
  const list = h < w.maxHops ? w.byToken.get(token) : w.toOut.get(token);
  if (!list) return;
  const { pools, tokens, native, tokenOut } = w;
  for (let i = 0; i < list.length; i++) {
    const { entry: e, next } = list[i];
    if (used(pools, e)) continue;
    if (tokens.includes(next)) continue;
    // An ERC-20 end that is the wrapped token is held by the pool at that end, never converted from native ETH.
    if (native && e.token0 === NATIVE) {
      if (pools.length === 0 && token === native.wrapped && !native.atIn) continue;
      if (next === tokenOut && next === native.wrapped && !native.atOut) continue;
    }
    const b = Math.min(bottleneck, e.score);
    if (next === tokenOut) {
      pools.push(e);
      tokens.push(next);
      w.found.push({ path: { pools: pools.slice(), tokens: tokens.slice() }, bottleneck: b });
      pools.pop();
      tokens.pop();
    } else if (h < w.maxHops) {
      pools.push(e);
      tokens.push(next);
      visit(w, next, b, h);
      pools.pop();
      tokens.pop();
    }
  }
}
