import type { ChainPoolIndex } from '../graph/ChainPoolIndex.ts';
import type { Fraction } from '../protocols/PoolProtocol.ts';
import { protocolOf } from '../protocols/registry.ts';
import { findRoutes, type PoolPath } from './findRoutes.ts';
import { heldAt } from './nativePools.ts';
import { type PricedPath, toPricedPath } from './priceRoutes.ts';
import type { Route, Split } from './Trade.ts';

// What a trade reports beside its amounts: mid prices, price impact, LP fees, and the rate that converts its network
// fee into a token. Pure functions of pools and priced routes, used by bestTrade.

/**
 * Mid prices of the paths already asked (a path's pools are frozen state of one index, so its mid price never
 * changes): every trade a search returns reports its price impact, mostly over paths the index keeps.
 */
const midPrices = new WeakMap<PricedPath, Fraction>();

/** Fee-free mid price of a path (tokenOut per tokenIn, smallest units) as one fraction. */
export function pathMidPrice(path: PricedPath): Fraction {
  const known = midPrices.get(path);
  if (known) return known;
  let num = 1n;
  let den = 1n;
  for (let i = 0; i < path.pools.length; i++) {
    const pool = path.pools[i];
    const mid = protocolOf(pool.kind).midPrice(pool);
    const zeroForOne = heldAt(pool, path.path.tokens[i]) === pool.token0;
    num *= zeroForOne ? mid.num : mid.den;
    den *= zeroForOne ? mid.den : mid.num;
  }
  const mid = { num, den };
  midPrices.set(path, mid);
  return mid;
}

const IMPACT_SCALE = 10n ** 12n;

/** pathMidPrice's numerator times IMPACT_SCALE, per path (priceImpactBps' product for every trade over it). */
const scaledMids = new WeakMap<PricedPath, bigint>();

/** (expected output at the mid price - output) / expected output, in basis points, over all splits (Uniswap's definition). */
export function priceImpactBps(splits: readonly Split[], paths: readonly PricedPath[]): number {
  let expected = 0n;
  let output = 0n;
  for (let i = 0; i < splits.length; i++) {
    const s = splits[i];
    const mid = pathMidPrice(paths[i]);
    if (mid.den === 0n) return 0;
    let scaled = scaledMids.get(paths[i]);
    if (scaled === undefined) {
      scaled = mid.num * IMPACT_SCALE;
      scaledMids.set(paths[i], scaled);
    }
    expected += (s.route.amountIn * scaled) / mid.den;
    output += s.route.amountOut;
  }
  if (expected === 0n) return 0;
  const diff = expected - output * IMPACT_SCALE;
  // Rounded half away from zero.
  const bps = (diff * 20_000n + (diff >= 0n ? expected : -expected)) / (2n * expected);
  return Number(bps);
}

const PIPS = 1_000_000;

/** Products of pips kept as numbers up to this (exact far below 2^53), then carried into a BigInt. */
const PIPS_FLUSH = 1e12;

/** LP fees of a route in tokenIn units: ceil(amountIn x (1 - prod(1 - fee))). */
export function lpFees(route: Route): bigint {
  // The products of up to two hops' pips as numbers (at most 10^12: exact), carried into BigInts only beyond.
  let keep = 1n;
  let scale = 1n;
  let keepPart = 1;
  let scalePart = 1;
  for (const leg of route.legs) {
    if (scalePart >= PIPS_FLUSH) {
      keep *= BigInt(keepPart);
      scale *= BigInt(scalePart);
      keepPart = 1;
      scalePart = 1;
    }
    keepPart *= PIPS - leg.fee;
    scalePart *= PIPS;
  }
  const whole = scale * BigInt(scalePart);
  // Nothing carried (up to two hops: most routes): the difference of the products as one number, one BigInt.
  const fee = scale === 1n ? BigInt(scalePart - keepPart) : whole - keep * BigInt(keepPart);
  return (route.amountIn * fee + whole - 1n) / whole;
}

/** The native asset's and its wrapped token's rate: one object (gasCostUnits keeps its figures by the rate). */
const ONE: Fraction = { num: 1n, den: 1n };

const rates = new WeakMap<ChainPoolIndex, Map<string, Fraction | null>>();

/**
 * Units of `token` per wei at the mid price of the deepest short path from the wrapped native token (1:1 for the
 * native asset and its wrapped token), or null when no pool path joins them.
 */
export function gasRate(index: ChainPoolIndex, token: string): Fraction | null {
  if (token === index.native || token === index.wrappedNative) return ONE;
  let known = rates.get(index);
  if (!known) {
    known = new Map();
    rates.set(index, known);
  }
  const cached = known.get(token);
  if (cached !== undefined) return cached;
  let rate: Fraction | null = null;
  if (index.wrappedNative) {
    const paths: PoolPath[] = findRoutes(index, index.wrappedNative, token, { maxHops: 2, allow: () => true, maxRoutes: 8 });
    for (const path of paths) {
      const priced = toPricedPath(index, path);
      if (!priced) continue;
      const mid = pathMidPrice(priced);
      if (mid.num > 0n && mid.den > 0n) {
        rate = mid;
        break;
      }
    }
  }
  known.set(token, rate);
  return rate;
}
