import { getAmount0Delta, getAmount1Delta } from '../../amm/sqrtPriceMath.ts';
import { getSqrtRatioAtTick } from '../../amm/tickMath.ts';

/**
 * The token amounts a v4 pool's known liquidity holds (every range between its known initialized ticks, the in-range
 * one split at the price): the pool's balances as a snapshot states them, since the PoolManager holds every pool's
 * tokens together. Liquidity past the outermost known ticks is not counted.
 */
export function v4Balances(
  sqrtPriceX96: bigint,
  tick: number,
  liquidity: bigint,
  ticks: readonly (readonly [number, bigint])[],
): [bigint, bigint] {
  let amount0 = 0n;
  let amount1 = 0n;
  const above = ticks.findIndex(([t]) => t > tick);
  const j = above === -1 ? ticks.length : above;
  const add = (lower: number, upper: number, l: bigint): void => {
    if (l <= 0n) return;
    const a = getSqrtRatioAtTick(lower);
    const b = getSqrtRatioAtTick(upper);
    if (b <= sqrtPriceX96) amount1 += getAmount1Delta(a, b, l, false);
    else if (a > sqrtPriceX96) amount0 += getAmount0Delta(a, b, l, false);
    else {
      amount0 += getAmount0Delta(sqrtPriceX96, b, l, false);
      amount1 += getAmount1Delta(a, sqrtPriceX96, l, false);
    }
  };
  if (j > 0 && j < ticks.length) add(ticks[j - 1][0], ticks[j][0], liquidity);
  let l = liquidity;
  for (let k = j; k + 1 < ticks.length; k++) {
    l += ticks[k][1];
    add(ticks[k][0], ticks[k + 1][0], l);
  }
  l = liquidity;
  for (let k = j - 1; k > 0; k--) {
    l -= ticks[k][1];
    add(ticks[k - 1][0], ticks[k][0], l);
  }
  return [amount0, amount1];
}
