import { addDelta } from '../../amm/liquidityMath.ts';
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from '../../amm/tickMath.ts';
import type { V3Pool } from '../../amm/v3Pool.ts';
import type { CurveSegment } from '../PoolProtocol.ts';

const Q96 = 2 ** 96;

/**
 * A v3 pool's exact-input curve as constant-product segments (PoolProtocol.curveSegments): the walk of
 * UniswapV3Pool.swap from boundary to boundary (initialized ticks and bitmap word edges, as the tick source gives
 * them, up to QuoterV2's default price limit), each stretch of liquidity L from sqrt price s to s' on virtual
 * reserves: zeroForOne takes L x (1/s' - 1/s) of token0 net of the fee for L x (s - s') of token1 (reserves L/s and
 * L x s), the other way L x (s' - s) of token1 for L x (1/s - 1/s') of token0. Stretches without liquidity cost
 * nothing and are skipped. Ends where the known tick words end (the exact walk refuses beyond them).
 */
export function v3CurveSegments(pool: V3Pool, zeroForOne: boolean): () => CurveSegment | undefined {
  const gamma = 1 - pool.fee / 1_000_000;
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  let price = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  // A 100% fee (v4) pays nothing out, whatever the input: one segment of no output, so that a path through it is
  // bounded by nothing paid out (and left unpriced where another path pays more) rather than unbounded.
  if (gamma <= 0) {
    let told = false;
    return () => {
      if (told) return undefined;
      told = true;
      return { len: Number.POSITIVE_INFINITY, a: 0, b: 1, ticks: 0 };
    };
  }
  // Initialized ticks crossed since the last segment returned (at its end, or in stretches without liquidity).
  let crossed = 0;
  return () => {
    for (;;) {
      if (price === limit || liquidity < 0n) return undefined;
      const boundary = pool.ticks.nextInitializedTickWithinOneWord(tick, zeroForOne);
      if (boundary === undefined) return undefined;
      const tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, boundary.tick));
      const next = boundary.sqrtPriceX96;
      const target = (zeroForOne ? next < limit : next > limit) ? limit : next;
      const s = Number(price) / Q96;
      const t = Number(target) / Q96;
      const l = Number(liquidity);
      if (target === next && boundary.initialized) crossed++;
      const segment: CurveSegment | undefined =
        l > 0 && price !== target
          ? zeroForOne
            ? { len: (l * (1 / t - 1 / s)) / gamma, a: l * s, b: l / s / gamma, ticks: crossed }
            : { len: (l * (t - s)) / gamma, a: l / s, b: (l * s) / gamma, ticks: crossed }
          : undefined;
      if (segment) crossed = 0;
      if (target === next) {
        if (boundary.initialized) {
          try {
            liquidity = addDelta(liquidity, zeroForOne ? -boundary.liquidityNet : boundary.liquidityNet);
          } catch {
            liquidity = -1n;
          }
        }
        tick = zeroForOne ? tickNext - 1 : tickNext;
      }
      price = target;
      if (segment) return segment;
    }
  };
}
