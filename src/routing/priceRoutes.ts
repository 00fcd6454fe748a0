import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { ChainPoolIndex } from '../graph/ChainPoolIndex.ts';
import type { LadderQuote, TradeType, V4LegKey } from '../protocols/PoolProtocol.ts';
import { type Pool, protocolOf } from '../protocols/registry.ts';
import type { PoolPath } from './findRoutes.ts';
import { heldAt } from './nativePools.ts';
import { minimumAmountOut } from './slippageLimits.ts';
import type { Leg } from './Trade.ts';

/** A path whose pools all convert, ready to price. */
export interface PricedPath {
  readonly path: PoolPath;
  readonly pools: readonly Pool[];
  /**
   * A path executed as consecutive stages (Route.stages, exact input): the hops at which a new stage starts, which
   * take the previous hop's output less `slippageBps` (minimumAmountOut), as the steps hand it over.
   */
  readonly handovers?: { readonly at: readonly number[]; readonly slippageBps: number };
}

/** One amount of a ladder through a whole path: the legs, or why it cannot be served. */
export type PathQuote = { readonly ok: true; readonly legs: readonly Leg[] } | { readonly ok: false; readonly code: RefusalCode };

/** A ladder quote of a pool that went through. */
type OkLadderQuote = LadderQuote & { ok: true };

/**
 * One amount priced through a whole path with its legs not made (pricePathHops): each pool's ladder quote, in hop
 * order. legsOf makes its legs.
 */
export type PathHops = readonly OkLadderQuote[];

/** The priceable pools of a path, or undefined when one does not convert. */
export function toPricedPath(index: ChainPoolIndex, path: PoolPath): PricedPath | undefined {
  const pools: Pool[] = [];
  for (const entry of path.pools) {
    const pool = index.pool(entry);
    if (!pool) return undefined;
    pools.push(pool);
  }
  return { path, pools };
}

/** Ladders already priced in one search, by the pools priced before and the pool, direction, side and amounts. */
export type LadderCache = Map<string, LadderQuote[]>;

/**
 * Prices an ascending list of amounts through a path, hop by hop, one walk per pool: exactIn forwards from the
 * inputs, exactOut backwards from the outputs (each hop's required input is the previous hop's output). Amounts
 * a hop refuses drop out of the later hops. Paths of one search that start with the same pools get the same
 * amounts there: those ladders are priced once and shared through `cache`.
 */
export function pricePath(path: PricedPath, tradeType: TradeType, amounts: readonly bigint[], cache?: LadderCache): PathQuote[] {
  return walkPath(path, tradeType, amounts, cache, undefined) as PathQuote[];
}

/**
 * pricePath making the legs of amount `legsAt` only (none where no amount is at it): each other amount that goes
 * through is its PathHops. The exact polish prices each share a step either side, and mostly only compares those
 * values: their legs (an object per pool) are made only for a side that becomes a share.
 */
export function pricePathHops(
  path: PricedPath,
  tradeType: TradeType,
  amounts: readonly bigint[],
  legsAt: number,
): (PathQuote | PathHops)[] {
  return walkPath(path, tradeType, amounts, undefined, legsAt);
}

/** The legs of an amount priced through `path` (pricePathHops), as pricePath makes them. */
export function legsOf(path: PricedPath, hops: PathHops): Leg[] {
  const legs: Leg[] = new Array(hops.length);
  for (let hop = 0; hop < hops.length; hop++) {
    const pool = path.pools[hop];
    const tokenIn = heldAt(pool, path.path.tokens[hop]);
    const tokenOut = heldAt(pool, path.path.tokens[hop + 1]);
    legs[hop] = pricedLeg(pool, tokenIn, tokenOut, hops[hop], protocolOf(pool.kind).legKey?.(pool));
  }
  return legs;
}

/** pricePath's walk: the legs of every amount (`legsAt` undefined) or of amount `legsAt` only (pricePathHops). */
function walkPath(
  path: PricedPath,
  tradeType: TradeType,
  amounts: readonly bigint[],
  cache: LadderCache | undefined,
  legsAt: number | undefined,
): (PathQuote | PathHops)[] {
  const n = path.pools.length;
  const count = amounts.length;
  // Entry i: amount i's legs (or, without legs, its ladder quotes) while it goes through, in hop order once complete;
  // its refusal once refused. No other array per amount.
  const results: (PathQuote | (Leg | OkLadderQuote)[])[] = new Array(count);
  for (let i = 0; i < count; i++) results[i] = new Array<Leg | OkLadderQuote>(n);
  // The amounts still alive: how many, their positions (undefined until one is refused: each is its own) and their
  // amounts at this hop (the given amounts until a hop's outputs, or a hand-over's minimums, are written into an array
  // of this call's). Kept in place, the amounts a hop refuses taken out: at most one array each per call, not per hop,
  // and none for positions nothing refused or amounts no later hop takes.
  let live = count;
  let alive: number[] | undefined;
  let current: readonly bigint[] = amounts;
  let own: bigint[] | undefined;
  let prefix = cache ? `${tradeType}:${amounts.join(',')}|` : '';
  for (let step = 0; step < n && live > 0; step++) {
    const hop = tradeType === 'exactIn' ? step : n - 1 - step;
    const pool = path.pools[hop];
    if (path.handovers && tradeType === 'exactIn' && path.handovers.at.includes(hop)) {
      const bps = path.handovers.slippageBps;
      own = current.map((a) => minimumAmountOut(a, bps));
      current = own;
      if (cache) prefix += `~${bps}/`;
    }
    // An amount that reaches a pool as nothing (the last pool's output, a hand-over's minimum of a tiny output) is
    // refused here as it would be alone: a pool's ladder holds positive amounts only (a zero would make a v3 pool
    // refuse its whole ladder, as UniswapV3Pool.swap reverts on it), and the others go on.
    if (step > 0 && current.includes(0n)) {
      alive ??= positions(live);
      const rest: bigint[] = [];
      let kept = 0;
      for (let j = 0; j < live; j++) {
        if (current[j] === 0n) results[alive[j]] = NOTHING;
        else {
          alive[kept++] = alive[j];
          rest.push(current[j]);
        }
      }
      alive.length = kept;
      live = kept;
      own = rest;
      current = rest;
      if (live === 0) break;
    }
    // What this pool holds at the path's nodes (native ETH where a v4 pool holds it at the wrapped token's node).
    const tokenIn = heldAt(pool, path.path.tokens[hop]);
    const tokenOut = heldAt(pool, path.path.tokens[hop + 1]);
    const zeroForOne = tokenIn === pool.token0;
    let quotes: LadderQuote[];
    const protocol = protocolOf(pool.kind);
    // The pool with its tokens in and out: a pool of more than two tokens is priced per pair (PoolProtocol.pairViews).
    // The amounts at this hop follow from the first amounts and the pools before it. (The key is built only with a
    // cache: most calls have none.)
    if (cache) prefix += `${pool.address}:${tokenIn}>${tokenOut}/`;
    const key = cache ? prefix : undefined;
    const cached = key === undefined ? undefined : cache!.get(key);
    if (cached) quotes = cached;
    else {
      quotes = protocol.quoteLadder(pool, zeroForOne, tradeType, current);
      if (key !== undefined) cache!.set(key, quotes);
    }
    // The pool's key (a v4 pool's, made once per pool), written into each amount's leg as it is made.
    const poolKey = protocol.legKey?.(pool);
    // The amounts at the next hop, where there is one: written over this hop's once read (the quotes are made).
    if (step < n - 1) own ??= new Array<bigint>(live);
    const next = step < n - 1 ? own : undefined;
    let kept = 0;
    for (let j = 0; j < live; j++) {
      const i = alive === undefined ? j : alive[j];
      const q = quotes[j];
      if (!q.ok) {
        results[i] = { ok: false, code: q.code };
        // The first refusal: every position was its own so far (those to come are read before being written over).
        alive ??= positions(live);
        continue;
      }
      (results[i] as (Leg | OkLadderQuote)[])[hop] =
        legsAt === undefined || i === legsAt ? pricedLeg(pool, tokenIn, tokenOut, q, poolKey) : q;
      if (alive !== undefined) alive[kept] = i;
      if (next !== undefined) next[kept] = tradeType === 'exactIn' ? q.amountOut : q.amountIn;
      kept++;
    }
    if (kept < live) {
      alive!.length = kept;
      if (next !== undefined) next.length = kept;
      live = kept;
    }
    if (next !== undefined) current = next;
  }
  for (let j = 0; j < live; j++) {
    const i = alive === undefined ? j : alive[j];
    const legs = results[i] as (Leg | OkLadderQuote)[];
    results[i] = legsAt === undefined || i === legsAt ? { ok: true, legs: legs as Leg[] } : (legs as OkLadderQuote[]);
  }
  return results as (PathQuote | PathHops)[];
}

/** Positions 0 to n - 1: the amounts' own, until one is refused. */
function positions(n: number): number[] {
  const at = new Array<number>(n);
  for (let k = 0; k < n; k++) at[k] = k;
  return at;
}

/** The refusal of an amount that reaches a pool as nothing. */
const NOTHING: PathQuote = { ok: false, code: 'AMOUNT_TOO_SMALL' };

/**
 * A pool's leg priced by a ladder quote that went through, with its Leg.poolKey where it has one (added last, where
 * legs carried it when it was spread onto a copy of each v4 leg).
 */
function pricedLeg(pool: Pool, tokenIn: string, tokenOut: string, q: OkLadderQuote, poolKey: V4LegKey | undefined): Leg {
  const leg: { -readonly [K in keyof Leg]: Leg[K] } = {
    pool: pool.address,
    kind: pool.kind,
    dex: pool.dex,
    version: pool.version,
    fee: pool.fee,
    tokenIn,
    tokenOut,
    amountIn: q.amountIn,
    amountOut: q.amountOut,
    ticksCrossed: q.ticksCrossed,
    coldSlots: q.coldSlots,
    movesTick: q.movesTick,
  };
  if (poolKey) leg.poolKey = poolKey;
  return leg;
}

/** A leg's Leg.poolKey where its protocol names pools by a key (PoolProtocol.legKey: Uniswap v4), else nothing. */
export function legKey(pool: Pool): { readonly poolKey?: V4LegKey } {
  const key = protocolOf(pool.kind).legKey?.(pool);
  return key ? { poolKey: key } : {};
}
