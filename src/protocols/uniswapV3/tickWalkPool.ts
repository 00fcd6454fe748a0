import type { V3QuoteResult } from '../../amm/quoter.ts';
import type { Fraction, LadderQuote, TradeType } from '../PoolProtocol.ts';

/**
 * What every tick-walk pool (v3, v4) refuses in a walk's result for one amount, as its quoter does: a walk past the
 * known ticks, a partial fill (the pool runs out before the whole amount), an output that rounds to zero. Undefined
 * when the walk priced the whole amount; the protocol then applies its own bounds.
 */
export function walkRefusal(result: V3QuoteResult, tradeType: TradeType, amount: bigint): LadderQuote | undefined {
  if (!result.ok) return { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: "the amount walks past the pool's known ticks" };
  const whole = tradeType === 'exactIn' ? result.amountIn === amount : result.amountOut === amount;
  if (!result.filledFully || !whole) {
    return { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: 'the pool runs out of liquidity before the whole amount is swapped' };
  }
  if (result.amountOut === 0n) return { ok: false, code: 'AMOUNT_TOO_SMALL', reason: 'the output rounds to zero' };
  return undefined;
}

const Q192 = 1n << 192n;

/** A tick-walk pool's mid price (token1 per token0) from its sqrtPriceX96: (sqrtPriceX96 / 2^96)^2. */
export function sqrtPriceMid(sqrtPriceX96: bigint): Fraction {
  return { num: sqrtPriceX96 * sqrtPriceX96, den: Q192 };
}
