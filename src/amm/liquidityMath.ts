import { AmmError } from './ammError.ts';

/** 2^128: a liquidity (uint128) is below it. */
export const UINT128_LIMIT = 1n << 128n;

/** x + y for a uint128 liquidity and int128 delta, reverting like LiquidityMath.addDelta (v3-core, 'LS' / 'LA'). */
export function addDelta(x: bigint, y: bigint): bigint {
  const z = x + y;
  if (z < 0n) throw new AmmError('LIQUIDITY_UNDERFLOW', 'addDelta: liquidity underflow (LS)');
  if (z >= UINT128_LIMIT) throw new AmmError('LIQUIDITY_OVERFLOW', 'addDelta: liquidity overflow (LA)');
  return z;
}
