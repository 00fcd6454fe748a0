import type { LadderEnds } from '../../amm/swap.ts';
import type { Fraction, LadderQuote } from '../PoolProtocol.ts';

const UNKNOWN_TICKS: LadderQuote = { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: "the amount walks past the pool's known ticks" };
const RUNS_OUT: LadderQuote = {
  ok: false,
  code: 'INSUFFICIENT_LIQUIDITY',
  reason: 'the pool runs out of liquidity before the whole amount is swapped',
};
const TOO_SMALL: LadderQuote = { ok: false, code: 'AMOUNT_TOO_SMALL', reason: 'the output rounds to zero' };

/**
 * What every tick-walk pool (v3, v4) refuses in a walk's end for amount i (quoteLadderEnds), as its quoter does: a
 * walk past the known ticks, a partial fill (the pool runs out before the whole amount), an output that rounds to
 * zero. Undefined when the walk priced the whole amount; the protocol then applies its own bounds.
 */
export function walkRefusal(ends: LadderEnds, i: number): LadderQuote | undefined {
  if (i >= ends.complete) return UNKNOWN_TICKS;
  if (!ends.filled[i]) return RUNS_OUT;
  if (ends.amountOut[i] === 0n) return TOO_SMALL;
  return undefined;
}

const Q192 = 1n << 192n;

/** A tick-walk pool's mid price (token1 per token0) from its sqrtPriceX96: (sqrtPriceX96 / 2^96)^2. */
export function sqrtPriceMid(sqrtPriceX96: bigint): Fraction {
  return { num: sqrtPriceX96 * sqrtPriceX96, den: Q192 };
}
