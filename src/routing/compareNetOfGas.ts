import type { Trade } from './Trade.ts';

/** What netOfGas reads of a trade. */
export type NetOfGasTrade = Pick<Trade, 'tradeType' | 'amountIn' | 'amountOut' | 'gasCost'>;

/** How POST /quotes/routes orders its routes (the `rankedBy` field of its response): by compareNetOfGas. */
export const ROUTES_RANKED_BY = 'netOfGas';

/**
 * What a trade is worth to the user net of its network fee, in the token bestTrade ranks by: exactIn, amountOut minus
 * the fee in tokenOut (higher is better); exactOut, amountIn plus the fee in tokenIn (lower is better). A fee no pool
 * prices in that token counts as 0, as in bestTrade's own ranking.
 */
export function netOfGas(trade: NetOfGasTrade): bigint {
  return trade.tradeType === 'exactOut' ? trade.amountIn + (trade.gasCost.tokenIn ?? 0n) : trade.amountOut - (trade.gasCost.tokenOut ?? 0n);
}

/** Sort order of trades of one request, best first by what the user receives (or pays) net of the network fee. */
export function compareNetOfGas(a: NetOfGasTrade, b: NetOfGasTrade): number {
  const x = netOfGas(a);
  const y = netOfGas(b);
  const better = a.tradeType === 'exactOut' ? x < y : x > y;
  return x === y ? 0 : better ? -1 : 1;
}
