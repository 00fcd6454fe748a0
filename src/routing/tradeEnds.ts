import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import type { NativeEnd } from './Trade.ts';

const NATIVE = NATIVE_TOKEN_ADDRESS.toLowerCase();

/** A requested pair as routing sees it: the tokens the pools hold at each end, and how each end meets the native asset. */
export interface TradeEnds {
  /** Lower-case: the requested token, or the wrapped native token for the native asset. */
  readonly poolTokenIn: string;
  readonly poolTokenOut: string;
  readonly nativeIn: NativeEnd;
  readonly nativeOut: NativeEnd;
  /** The native asset to its wrapped token or back: a trade through no pool. */
  readonly bareWrap: boolean;
}

/**
 * The ends of a pair (lower-case addresses, the native asset as its pseudo-address) on a chain whose wrapped native
 * token is `wrappedNative` (lower-case): routes are searched between the wrapped tokens, and the native asset is
 * restored at the ends; the wrapped token's node also holds native ETH pools where an executor meets them
 * (bestTrade, findRoutes' nativeNode), whose legs start or end at native ETH itself.
 */
export function tradeEnds(wrappedNative: string, tokenIn: string, tokenOut: string): TradeEnds {
  const nativeIn: NativeEnd = tokenIn === NATIVE ? 'wrapped' : 'none';
  const nativeOut: NativeEnd = tokenOut === NATIVE ? 'wrapped' : 'none';
  const poolTokenIn = nativeIn === 'wrapped' ? wrappedNative : tokenIn;
  const poolTokenOut = nativeOut === 'wrapped' ? wrappedNative : tokenOut;
  return { poolTokenIn, poolTokenOut, nativeIn, nativeOut, bareWrap: tokenIn !== tokenOut && poolTokenIn === poolTokenOut };
}
