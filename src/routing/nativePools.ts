/**
 * Native ETH as Uniswap v4 pools hold it (Currency address(0)), and how routes meet it. The pricing graph has one
 * node for the native asset and its wrapped token (the wrapped token's address): pools that hold the wrapped token
 * and pools that hold native ETH itself both join it. A leg names the currency its own pool holds, so a route
 * starts or ends at native ETH without wrapping, and where two consecutive legs meet across ETH and WETH the
 * executor wraps or unwraps between them (only an executor that can do that inside one call may execute such a
 * route: src/routing/executors.ts `meetsNativePools`).
 */

/** Native ETH as a v4 pool holds it: the zero address. */
export const POOL_NATIVE = '0x0000000000000000000000000000000000000000';

/** What heldAt reads of a pool: its tokens, lower case. */
export interface PoolTokens {
  readonly token0: string;
  readonly token1: string;
}

/**
 * The token a pool holds at a node of a path (PoolPath.tokens): the node itself, or native ETH where the node is the
 * wrapped native token and the pool holds native ETH instead (findRoutes joins such pools to that node).
 */
export function heldAt(pool: PoolTokens, node: string): string {
  return node === pool.token0 || node === pool.token1 ? node : POOL_NATIVE;
}

/** What a route's legs ask of its executor at the native asset, from the tokens its legs hold. */
export interface NativeWork {
  /** The trade's input is native and the first pool holds the wrapped token: the executor wraps it first. */
  readonly wrapIn: boolean;
  /** The trade's output is native and the last pool holds the wrapped token: the executor unwraps it last. */
  readonly unwrapOut: boolean;
  /** The trade's input is native and the first pool holds native ETH: it settles from the value sent. */
  readonly poolIn: boolean;
  /** The trade's output is native and the last pool holds native ETH: it pays the ether out itself. */
  readonly poolOut: boolean;
  /** Between pools: ETH out of one pool into a WETH pool (wrap), WETH into a native pool (unwrap). */
  readonly wraps: number;
  readonly unwraps: number;
}

/** A leg as nativeWork reads it. */
export interface LegTokens {
  readonly tokenIn: string;
  readonly tokenOut: string;
}

/** The native work of one route's legs, whose trade has a native input (`nativeIn`) or output (`nativeOut`). */
export function nativeWork(legs: readonly LegTokens[], nativeIn: boolean, nativeOut: boolean): NativeWork {
  return addNativeWork(noNativeWork(), legs, nativeIn, nativeOut);
}

/** NativeWork summed over the routes of one executor call (addNativeWork). */
export type NativeWorkSum = { -readonly [K in keyof NativeWork]: NativeWork[K] };

/** No native work: what addNativeWork adds routes to. */
export function noNativeWork(): NativeWorkSum {
  return { wrapIn: false, unwrapOut: false, poolIn: false, poolOut: false, wraps: 0, unwraps: 0 };
}

/**
 * Adds one route's native work to `sum` (its native ends, its crossings between pools): over a call's routes, the
 * call's (any wrap or unwrap at an end, every crossing), without an object per route (the split search weighs the
 * calls of every set it solves).
 */
export function addNativeWork(sum: NativeWorkSum, legs: readonly LegTokens[], nativeIn: boolean, nativeOut: boolean): NativeWorkSum {
  for (let i = 1; i < legs.length; i++) {
    if (legs[i - 1].tokenOut === legs[i].tokenIn) continue;
    if (legs[i - 1].tokenOut === POOL_NATIVE) sum.wraps++;
    else if (legs[i].tokenIn === POOL_NATIVE) sum.unwraps++;
  }
  const startsNative = legs.length > 0 && legs[0].tokenIn === POOL_NATIVE;
  const endsNative = legs.length > 0 && legs[legs.length - 1].tokenOut === POOL_NATIVE;
  sum.wrapIn ||= nativeIn && legs.length > 0 && !startsNative;
  sum.unwrapOut ||= nativeOut && legs.length > 0 && !endsNative;
  sum.poolIn ||= nativeIn && startsNative;
  sum.poolOut ||= nativeOut && endsNative;
  return sum;
}

/** Whether a route's legs wrap or unwrap between its pools (crossing from ETH pools to WETH pools or back). */
export function crossesNative(legs: readonly LegTokens[]): boolean {
  for (let i = 1; i < legs.length; i++) if (legs[i - 1].tokenOut !== legs[i].tokenIn) return true;
  return false;
}
