import type { TradeType } from '../protocols/PoolProtocol.ts';
import { wrapGas } from './gasModel.ts';
import type { NativeEnd, Trade } from './Trade.ts';

/** A bare wrap or unwrap to price: the native asset and the chain's wrapped native token, one on each side. */
export interface WrapRequest {
  /** Lower-case addresses (the native asset as its pseudo-address). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** 'wrapped' on the native side (tradeEnds). */
  readonly nativeIn: NativeEnd;
  readonly tradeType: TradeType;
  /** Converted 1:1, so the fixed amount is both the input and the output (smallest units). */
  readonly amount: bigint;
  readonly gasPriceWei: bigint;
}

/**
 * The trade of a bare wrap (WETH9 `deposit()`) or unwrap (`withdraw`): no pool and no split, amountIn = amountOut,
 * the gas of that one call (src/tx/buildWrapSteps.ts executes it), no LP fee, no price impact, and a network fee
 * that is wei on both sides (the native asset and its wrapped token are worth the same).
 */
export function wrapTrade(request: WrapRequest): Trade {
  const wrap = request.nativeIn === 'wrapped';
  const gasEstimate = wrapGas(wrap);
  const fee = gasEstimate * request.gasPriceWei;
  return {
    tradeType: request.tradeType,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    nativeIn: wrap ? 'wrapped' : 'none',
    nativeOut: wrap ? 'none' : 'wrapped',
    amountIn: request.amount,
    amountOut: request.amount,
    splits: [],
    gasEstimate,
    gasPriceWei: request.gasPriceWei,
    gasCost: { tokenIn: fee, tokenOut: fee },
    priceImpactBps: 0,
    fees: 0n,
  };
}
