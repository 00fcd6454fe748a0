import type { Trade } from './Trade.ts';

/** floor(amountOut x (10000 - slippageBps) / 10000). */
export function minimumAmountOut(amountOut: bigint, slippageBps: number): bigint {
  return (amountOut * BigInt(10_000 - slippageBps)) / 10_000n;
}

/** ceil(amountIn x (10000 + slippageBps) / 10000): the most an exact-output trade may spend. */
export function maximumAmountIn(amountIn: bigint, slippageBps: number): bigint {
  return (amountIn * BigInt(10_000 + slippageBps) + 9_999n) / 10_000n;
}

/**
 * What a trade is bound to under a slippage tolerance: exactIn spends exactly amountIn (amountInMaximum = amountIn)
 * and delivers at least amountOutMinimum = minimumAmountOut(amountOut); exactOut delivers exactly amountOut
 * (amountOutMinimum = amountOut) and spends at most amountInMaximum = maximumAmountIn(amountIn).
 */
export function slippageLimits(
  trade: Pick<Trade, 'tradeType' | 'amountIn' | 'amountOut'>,
  slippageBps: number,
): { amountInMaximum: bigint; amountOutMinimum: bigint } {
  return trade.tradeType === 'exactOut'
    ? { amountInMaximum: maximumAmountIn(trade.amountIn, slippageBps), amountOutMinimum: trade.amountOut }
    : { amountInMaximum: trade.amountIn, amountOutMinimum: minimumAmountOut(trade.amountOut, slippageBps) };
}
