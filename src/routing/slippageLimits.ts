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

/**
 * `total` shared over parts in proportion to `weights`: each part gets its floor share, then the remainder goes to
 * the largest weight (then the next largest, …), never beyond a part's cap (`caps`; none by default).
 */
export function proportionalShares(total: bigint, weights: readonly bigint[], caps?: readonly bigint[]): bigint[] {
  const whole = weights.reduce((s, x) => s + x, 0n);
  const shares = weights.map((x) => (total * x) / whole);
  let rest = total - shares.reduce((s, x) => s + x, 0n);
  const bySize = weights.map((_, i) => i).sort((a, b) => (weights[b] > weights[a] ? 1 : weights[b] < weights[a] ? -1 : a - b));
  for (const i of bySize) {
    if (rest === 0n) break;
    const room = caps ? caps[i] - shares[i] : rest;
    const add = room < rest ? room : rest;
    shares[i] += add;
    rest -= add;
  }
  return shares;
}

/**
 * Each route's share of an exact-input trade's amountOutMinimum, in proportion to the routes' amountOut, never above
 * a route's own (proportionalShares; they add up to amountOutMinimum, at most the trade's amountOut): what the last
 * stage of a route of stages enforces when the trade has other routes (stated in the quote's `paths[].stages[]`,
 * encoded by src/tx/stagedSteps.ts); the routes run in one call share the rest per transaction.
 */
export function routeMinimums(amountOutMinimum: bigint, amountsOut: readonly bigint[]): bigint[] {
  return proportionalShares(amountOutMinimum, amountsOut, amountsOut);
}
