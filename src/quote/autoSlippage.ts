import type { Trade } from '../routing/Trade.ts';

/** Where a quote's slippageBps came from: the request (its value, or DEFAULT_SLIPPAGE_BPS when it named none) or "auto". */
export type SlippageSource = 'request' | 'auto';

/** Bounds of `slippageBps: "auto"`, basis points: Uniswap's MIN/MAX_AUTO_SLIPPAGE_TOLERANCE (0.5% and 5.5%). */
export const AUTO_SLIPPAGE_BOUNDS = { minimum: 50, maximum: 550 } as const;

/** ceil(numerator × 10000 / denominator) in basis points; undefined when the denominator is not positive. */
function ratioBpsUp(numerator: bigint, denominator: bigint): bigint | undefined {
  if (denominator <= 0n) return undefined;
  return (numerator * 10_000n + denominator - 1n) / denominator;
}

/**
 * The slippage bound `"auto"` picks for a trade, in basis points. Uniswap's published rule (its interface's auto
 * slippage): the network fee over the value swapped, clamped to 0.5%–5.5%, so a trade whose gas is a large share of
 * it gets more room (a revert costs the fee for nothing), and small fees never go below 0.5%. Here the fee is the
 * trade's own, at its gas price: exactIn the fee in tokenOut over amountOut, exactOut the fee in tokenIn over
 * amountIn (the side the bound applies to), rounded up. Refined by the route's price impact: the bound is at least
 * priceImpactBps, room for one trade of the same size ahead of this one in the same direction (it moves this trade's
 * price by about its own impact), still within the clamp. A fee no pool prices in the token counts as 0 (the minimum).
 */
export function autoSlippageBps(trade: Pick<Trade, 'tradeType' | 'amountIn' | 'amountOut' | 'gasCost' | 'priceImpactBps'>): number {
  const exactOut = trade.tradeType === 'exactOut';
  const fee = exactOut ? trade.gasCost.tokenIn : trade.gasCost.tokenOut;
  const feeBps = fee === null ? 0n : (ratioBpsUp(fee, exactOut ? trade.amountIn : trade.amountOut) ?? 0n);
  const wanted = Math.max(Number(feeBps > 10_000n ? 10_000n : feeBps), trade.priceImpactBps);
  return Math.min(AUTO_SLIPPAGE_BOUNDS.maximum, Math.max(AUTO_SLIPPAGE_BOUNDS.minimum, wanted));
}

/** The slippage a quote uses for a trade: the request's basis points, or autoSlippageBps for "auto". */
export function chosenSlippage(
  requested: number | 'auto',
  trade: Parameters<typeof autoSlippageBps>[0],
): { slippageBps: number; slippageSource: SlippageSource } {
  return requested === 'auto'
    ? { slippageBps: autoSlippageBps(trade), slippageSource: 'auto' }
    : { slippageBps: requested, slippageSource: 'request' };
}
