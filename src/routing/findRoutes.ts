import type { DeploymentId } from '../catalog/Catalog.ts';
import type { ChainPoolIndex, PoolEntry } from '../graph/PricingGraph.ts';
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
 * Candidate pools for a pair, bounded whatever the size of the graph (the idea of Uniswap's smart-order-router
 * candidate selection): every direct pool; the deepest pools touching tokenIn and tokenOut; the pools joining
 * either to a base token; the pools between base tokens; and for the tokens the deepest tokenIn and tokenOut pools
 * lead to, their pools to the other side and to the bases.
 */
export function selectCandidates(index: ChainPoolIndex, tokenIn: string, tokenOut: string, options: RouteSearchOptions): Set<PoolEntry> {
  const k = options.poolsPerToken ?? DEFAULT_POOLS_PER_TOKEN;
  const chosen = new Set<PoolEntry>();
  /** The first `limit` usable pools of a list (deepest first). */
  const top = (list: readonly PoolEntry[], limit: number): PoolEntry[] => {
    const out: PoolEntry[] = [];
    let read = 0;
    for (const e of list) {
      if (out.length >= limit) break;
      read++;
      if (options.allow(e)) out.push(e);
    }
    // What the selection depends on (ChainPoolIndex.pairMemo keeps it across blocks that change only deeper entries).
    index.readTo(list, read < list.length ? read : Number.POSITIVE_INFINITY);
    return out;
  };
  const only = options.allow.deployment;
  const poolsOf = (t: string): readonly PoolEntry[] => index.poolsOf(t, only);
  const basePoolsOf = (t: string): readonly PoolEntry[] => index.basePoolsOf(t, only);
  const bases = new Set(index.baseTokens);
  const native = options.nativeNode;
  // Lists read at the wrapped native token's node: its own, and native ETH's where ETH pools join the node.
  const twins = (token: string): readonly string[] => (native && token === native.wrapped ? [token, POOL_NATIVE] : [token]);
  const pairPools = (a: string, b: string): readonly PoolEntry[] => {
    const lists = twins(a).flatMap((x) => twins(b).map((y) => index.pairPools(x, y)));
    return lists.length === 1 ? lists[0] : lists.flat().sort((x, y) => y.score - x.score);
  };
  /**
   * The first `limit` usable pools of a node, deepest first: one budget for the wrapped native token's node, whose
   * pools are its own and native ETH's (each list's first `limit` hold them, and each is read only that far), as
   * they would be were they all pools of the wrapped token.
   */
  const nodeTop = (token: string, of: (t: string) => readonly PoolEntry[], limit: number): PoolEntry[] => {
    const lists = twins(token).map((t) => top(of(t), limit));
    return lists.length === 1
      ? lists[0]
      : lists
          .flat()
          .sort((x, y) => y.score - x.score)
          .slice(0, limit);
  };
  /** A pool's other token than the node it is read at (native ETH's pools at the wrapped token's node). */
  const otherAt = (e: PoolEntry, node: string): string => (twins(node).includes(e.token0) ? e.token1 : e.token0);
  // Each list read holds only the pools that may be chosen from it (a pair's, a token's to the bases), so the
  // selection reads a bounded number of pools whatever the size of the graph.
  for (const e of top(pairPools(tokenIn, tokenOut), Number.MAX_SAFE_INTEGER)) chosen.add(e);
  for (const end of new Set([tokenIn, tokenOut])) {
    for (const e of nodeTop(end, poolsOf, k)) chosen.add(e);
    for (const e of nodeTop(end, basePoolsOf, 2 * bases.size + 2)) chosen.add(e);
    // An end's pools to native ETH, which is no base token but shares the wrapped token's node.
    if (native && end !== native.wrapped && bases.has(native.wrapped))
      for (const e of top(index.pairPools(end, POOL_NATIVE), 2)) chosen.add(e);
  }
  for (const base of bases) for (const e of nodeTop(base, basePoolsOf, 3)) chosen.add(e);
  if (options.maxHops >= 2) {
    for (const [end, far] of [
      [tokenIn, tokenOut],
      [tokenOut, tokenIn],
    ] as const) {
      const neighbours = [...new Set(nodeTop(end, poolsOf, k).map((e) => otherAt(e, end)))].slice(0, 4);
      for (const n of neighbours) {
        for (const e of top(pairPools(n, far), 2)) chosen.add(e);
        for (const e of top(basePoolsOf(n), 2)) chosen.add(e);
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
  const node = (t: string): string => (native && t === NATIVE ? (wrapped as string) : t);
  /**
   * Each node's candidate pools with the node each leads to, in the candidates' order; and of those, the ones that
   * lead to tokenOut (the only ones a path's last hop may take: the same pools in the same order, without reading the
   * others).
   */
  const byToken = new Map<string, Step[]>();
  const toOut = new Map<string, Step[]>();
  const add = (map: Map<string, Step[]>, t: string, step: Step): void => {
    const list = map.get(t);
    if (list) list.push(step);
    else map.set(t, [step]);
  };
  for (const e of candidates) {
    const n0 = node(e.token0);
    const n1 = node(e.token1);
    if (n0 === n1) continue;
    add(byToken, n0, { entry: e, next: n1 });
    add(byToken, n1, { entry: e, next: n0 });
    if (n1 === tokenOut) add(toOut, n0, { entry: e, next: n1 });
    if (n0 === tokenOut) add(toOut, n1, { entry: e, next: n0 });
  }
  const found: { path: PoolPath; bottleneck: number }[] = [];
  const pools: PoolEntry[] = [];
  const tokens: string[] = [tokenIn];
  const maxHops = options.maxHops;
  const used = (e: PoolEntry): boolean => {
    // A pool is its address: two pair views of one Balancer pool are the same pool (PoolProtocol.pairViews).
    for (let i = 0; i < pools.length; i++) if (pools[i] === e || pools[i].address === e.address) return true;
    return false;
  };
  const visit = (token: string, bottleneck: number, hops: number): void => {
    // The last hop a path may take reaches tokenOut or is no path: only the pools that lead there.
    const h = hops + 1;
    if (h > maxHops) return;
    const list = h < maxHops ? byToken.get(token) : toOut.get(token);
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      const { entry: e, next } = list[i];
      if (used(e)) continue;
      if (tokens.includes(next)) continue;
      // An ERC-20 end that is the wrapped token is held by the pool at that end, never converted from native ETH.
      if (native && e.token0 === NATIVE) {
        if (pools.length === 0 && token === wrapped && !native.atIn) continue;
        if (next === tokenOut && next === wrapped && !native.atOut) continue;
      }
      const b = Math.min(bottleneck, e.score);
      if (next === tokenOut) {
        pools.push(e);
        tokens.push(next);
        found.push({ path: { pools: [...pools], tokens: [...tokens] }, bottleneck: b });
        pools.pop();
        tokens.pop();
      } else if (h < maxHops) {
        pools.push(e);
        tokens.push(next);
        visit(next, b, h);
        pools.pop();
        tokens.pop();
      }
    }
  };
  visit(tokenIn, Number.MAX_VALUE, 0);
  found.sort((a, b) => a.path.pools.length - b.path.pools.length || b.bottleneck - a.bottleneck);
  const limit = options.maxRoutes ?? DEFAULT_MAX_ROUTES;
  // Direct paths (one pool) are always priced; the others by depth.
  const direct = (f: { path: PoolPath }): boolean => f.path.pools.length <= 1;
  const kept = found.filter(direct);
  const rest = found.filter((f) => !direct(f)).sort((a, b) => b.bottleneck - a.bottleneck);
  return [...kept, ...rest.slice(0, Math.max(0, limit - kept.length))].map((f) => f.path);
}
