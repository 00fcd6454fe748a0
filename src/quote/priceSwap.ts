import { AmmError } from '../amm/ammError.ts';
import { quoteExactInputSingle } from '../amm/quoter.ts';
import { getAmountOut } from '../amm/v2.ts';
import type { PricedPool } from '../graph/PricingGraph.ts';

/** Why a pool cannot serve a quote. */
export type RefusalCode = 'INSUFFICIENT_LIQUIDITY' | 'AMOUNT_TOO_SMALL';

/** One pool's price for an exact-input swap, or why it cannot serve it. Plain data: crosses thread boundaries. */
export type PoolPricing =
  | { ok: true; pool: string; dex: string; version: 'v2' | 'v3'; fee: number; amountOut: bigint; feeAmount: bigint }
  | { ok: false; pool: string; dex: string; version: 'v2' | 'v3'; fee: number; code: RefusalCode; reason: string };

/**
 * Prices an exact-input swap of `amountIn` of `tokenIn` on each candidate pool, exactly as the pool's
 * contracts would (UniswapV2Library.getAmountOut, QuoterV2.quoteExactInputSingle). Pure.
 */
export function priceSwap(candidates: readonly PricedPool[], tokenIn: string, amountIn: bigint): PoolPricing[] {
  const input = tokenIn.toLowerCase();
  return candidates.map((p): PoolPricing => {
    const id = { pool: p.address, dex: p.dex, version: p.version, fee: p.fee };
    const zeroForOne = input === p.token0;
    try {
      if (p.version === 'v2') {
        const [reserveIn, reserveOut] = zeroForOne ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0];
        const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, p.feeBps);
        if (amountOut === 0n) return { ok: false, ...id, code: 'AMOUNT_TOO_SMALL', reason: 'the output rounds to zero' };
        return { ok: true, ...id, amountOut, feeAmount: feePaid(amountIn, p.fee) };
      }
      const result = quoteExactInputSingle(p.pool, zeroForOne, amountIn);
      if (!result.ok) {
        return { ok: false, ...id, code: 'INSUFFICIENT_LIQUIDITY', reason: 'the amount walks past the pool\'s known ticks' };
      }
      if (!result.filledFully || result.amountIn !== amountIn) {
        return { ok: false, ...id, code: 'INSUFFICIENT_LIQUIDITY', reason: 'the pool runs out of liquidity before the whole amount is swapped' };
      }
      if (result.amountOut === 0n) return { ok: false, ...id, code: 'AMOUNT_TOO_SMALL', reason: 'the output rounds to zero' };
      return { ok: true, ...id, amountOut: result.amountOut, feeAmount: feePaid(amountIn, p.fee) };
    } catch (error) {
      if (error instanceof AmmError) return { ok: false, ...id, code: 'INSUFFICIENT_LIQUIDITY', reason: error.message };
      throw error;
    }
  });
}

/** The fee a swap pays, in input units: ceil(amountIn x feePips / 1e6) (the route's `fees`). */
export function feePaid(amountIn: bigint, feePips: number): bigint {
  return (amountIn * BigInt(feePips) + 999_999n) / 1_000_000n;
}
