import { AmmError, type AmmErrorCode } from '../amm/ammError.ts';
import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { LadderQuote } from './PoolProtocol.ts';

/**
 * What each AMM math error means for the amount a pool was asked to price: the amount is beyond the contract's
 * arithmetic (AMOUNT_TOO_LARGE), rounds to nothing (AMOUNT_TOO_SMALL), or the pool cannot serve it
 * (INSUFFICIENT_LIQUIDITY: empty reserves or range, a price at its bound, or pool state the contract would revert on).
 */
const MEANING: Readonly<Record<AmmErrorCode, RefusalCode>> = {
  OVERFLOW: 'AMOUNT_TOO_LARGE',
  // UniswapV3Pool.swap's AS check: ladders hold positive amounts only, so the int256 bound is what refuses them.
  INVALID_AMOUNT: 'AMOUNT_TOO_LARGE',
  INSUFFICIENT_INPUT_AMOUNT: 'AMOUNT_TOO_SMALL',
  INSUFFICIENT_OUTPUT_AMOUNT: 'AMOUNT_TOO_SMALL',
  ZERO_RESERVES: 'INSUFFICIENT_LIQUIDITY',
  INSUFFICIENT_RESERVES: 'INSUFFICIENT_LIQUIDITY',
  PRICE_OUT_OF_BOUNDS: 'INSUFFICIENT_LIQUIDITY',
  ZERO_LIQUIDITY: 'INSUFFICIENT_LIQUIDITY',
  DIVISION_BY_ZERO: 'INSUFFICIENT_LIQUIDITY',
  INVALID_PRICE_LIMIT: 'INSUFFICIENT_LIQUIDITY',
  INVALID_FEE: 'INSUFFICIENT_LIQUIDITY',
  INVALID_POOL_STATE: 'INSUFFICIENT_LIQUIDITY',
  TICK_OUT_OF_RANGE: 'INSUFFICIENT_LIQUIDITY',
  SQRT_PRICE_OUT_OF_RANGE: 'INSUFFICIENT_LIQUIDITY',
  LIQUIDITY_UNDERFLOW: 'INSUFFICIENT_LIQUIDITY',
  LIQUIDITY_OVERFLOW: 'INSUFFICIENT_LIQUIDITY',
};

/** The ladder entry of an amount the AMM math refused (its code given its meaning, its message as the reason); rethrows anything else. */
export function ammRefusal(error: unknown): LadderQuote {
  if (error instanceof AmmError) return ammRefusalOf(error.code, error.message);
  throw error;
}

/** The ladder entry of an amount the AMM math refuses with this code and message, without the error itself. */
export function ammRefusalOf(code: AmmErrorCode, message: string): LadderQuote {
  return { ok: false, code: MEANING[code], reason: message };
}
