// Test support (not a test): the Uniswap SDKs as oracles, a seeded PRNG and random pool generation.
import { createRequire } from 'node:module';
import { seededRandom } from '../helpers/seededRandom.ts';

const require = createRequire(import.meta.url);

/** Minimal view of JSBI values: the SDKs return them; we only read them through toString. */
export interface Jsbi {
  toString(): string;
}

export interface SdkSwapResult {
  amountCalculated: Jsbi;
  sqrtRatioX96: Jsbi;
  liquidity: Jsbi;
  tickCurrent: number;
}

export interface SdkPool {
  swap(zeroForOne: boolean, amountSpecified: Jsbi, sqrtPriceLimitX96?: Jsbi): Promise<SdkSwapResult>;
}

interface JsbiStatic {
  BigInt(x: string | number): Jsbi;
}

interface V3Sdk {
  Pool: new (a: unknown, b: unknown, fee: number, sqrtRatioX96: string, liquidity: string, tick: number, ticks: unknown) => SdkPool;
  TickListDataProvider: new (ticks: { index: number; liquidityNet: string; liquidityGross: string }[], tickSpacing: number) => unknown;
  TickMath: {
    getSqrtRatioAtTick(tick: number): Jsbi;
    getTickAtSqrtRatio(sqrtRatioX96: Jsbi): number;
    MIN_SQRT_RATIO: Jsbi;
    MAX_SQRT_RATIO: Jsbi;
    MIN_TICK: number;
    MAX_TICK: number;
  };
  SqrtPriceMath: {
    getAmount0Delta(a: Jsbi, b: Jsbi, l: Jsbi, up: boolean): Jsbi;
    getAmount1Delta(a: Jsbi, b: Jsbi, l: Jsbi, up: boolean): Jsbi;
    getNextSqrtPriceFromInput(p: Jsbi, l: Jsbi, amount: Jsbi, zeroForOne: boolean): Jsbi;
    getNextSqrtPriceFromOutput(p: Jsbi, l: Jsbi, amount: Jsbi, zeroForOne: boolean): Jsbi;
  };
  SwapMath: {
    computeSwapStep(current: Jsbi, target: Jsbi, liquidity: Jsbi, amountRemaining: Jsbi, feePips: number): [Jsbi, Jsbi, Jsbi, Jsbi];
  };
  FullMath: { mulDivRoundingUp(a: Jsbi, b: Jsbi, d: Jsbi): Jsbi };
  LiquidityMath: { addDelta(x: Jsbi, y: Jsbi): Jsbi };
  TICK_SPACINGS: Record<number, number>;
  v3Swap(
    fee: Jsbi,
    sqrtRatioX96: Jsbi,
    tickCurrent: number,
    liquidity: Jsbi,
    tickSpacing: number,
    tickDataProvider: unknown,
    zeroForOne: boolean,
    amountSpecified: Jsbi,
    sqrtPriceLimitX96?: Jsbi,
  ): Promise<SdkSwapResult>;
  Tick: new (t: { index: number; liquidityGross: string; liquidityNet: string }) => unknown;
  TickList: { nextInitializedTickWithinOneWord(ticks: unknown[], tick: number, lte: boolean, tickSpacing: number): [number, boolean] };
}

export const v3sdk = require('@uniswap/v3-sdk') as V3Sdk;
export const sdkCore = require('@uniswap/sdk-core') as {
  Token: new (chainId: number, address: string, decimals: number) => unknown;
  CurrencyAmount: { fromRawAmount(token: unknown, raw: string): { quotient: Jsbi } };
};
export const v2sdk = require('@uniswap/v2-sdk') as {
  Pair: new (
    a: unknown,
    b: unknown,
  ) => {
    getOutputAmount(amount: unknown): [{ quotient: Jsbi }, unknown];
    getInputAmount(amount: unknown): [{ quotient: Jsbi }, unknown];
    token0: unknown;
  };
};
export const JSBI = require('jsbi') as JsbiStatic;

export const TOKEN_A = new sdkCore.Token(1, '0x0000000000000000000000000000000000000001', 18);
export const TOKEN_B = new sdkCore.Token(1, '0x0000000000000000000000000000000000000002', 18);

export const j = (x: bigint | number): Jsbi => JSBI.BigInt(x.toString());
export const b = (x: Jsbi): bigint => BigInt(x.toString());

/** A seeded pseudo-random generator (seededRandom) with integer and pick helpers: reproducible from its seed. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** Uniform bigint in [0, 2^bits). */
  bits(bits: number): bigint {
    let x = 0n;
    for (let i = 0; i < bits; i += 32) x = (x << 32n) | BigInt(Math.floor(this.next() * 4294967296));
    return x & ((1n << BigInt(bits)) - 1n);
  }
  /** Uniform bigint in [lo, hi]. */
  range(lo: bigint, hi: bigint): bigint {
    const span = hi - lo + 1n;
    const bits = span.toString(2).length + 16;
    return lo + (this.bits(bits) % span);
  }
  /** Log-uniform positive bigint between 10^lo and 10^hi. */
  logUniform(lo: number, hi: number): bigint {
    const e = lo + this.next() * (hi - lo);
    const whole = Math.floor(e);
    const mant = BigInt(Math.floor(10 ** (e - whole) * 1e6));
    return (mant * 10n ** BigInt(whole)) / 1_000_000n + 1n;
  }
}

export const FEE_TIERS: readonly (readonly [number, number])[] = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
];

/** Fee / spacing pairs the SDK's Pool does not know (PancakeSwap v3's 2500/50, and made-up ones): v3Swap directly. */
export const OTHER_FEE_TIERS: readonly (readonly [number, number])[] = [
  [2500, 50],
  [0, 10],
  [50000, 1000],
  [1, 2],
];

export interface RandomPool {
  fee: number;
  tickSpacing: number;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Initialized ticks ascending: [tick, liquidityNet, liquidityGross]. */
  ticks: [number, bigint, bigint][];
  /** Liquidity in the range starting at ticks[i] (upward), for amount generation. */
  rangeLiquidity: bigint[];
  liquidityBelowAll: bigint;
}

/** A random pool built from random positions, its tick from the SDK's TickMath. */
export function randomPool(rng: Rng, opts: { fee?: number; maxPositions?: number; otherTiers?: boolean } = {}): RandomPool {
  const [fee, s] =
    opts.fee !== undefined
      ? FEE_TIERS.find((f) => f[0] === opts.fee)!
      : opts.otherTiers && rng.next() < 0.15
        ? rng.pick(OTHER_FEE_TIERS)
        : rng.pick(FEE_TIERS);
  const minUsable = Math.ceil(-887272 / s) * s;
  const maxUsable = Math.floor(887272 / s) * s;
  const nearEdge = rng.next() < 0.05;
  const center = nearEdge
    ? rng.next() < 0.5
      ? minUsable + s * rng.int(0, 40)
      : maxUsable - s * rng.int(0, 40)
    : Math.round(rng.int(-300_000, 300_000) / s) * s;
  const positions = rng.int(1, opts.maxPositions ?? 90);
  const nets = new Map<number, bigint>();
  const gross = new Map<number, bigint>();
  const spread = rng.pick([4, 20, 100, 400]);
  const clampT = (t: number): number => Math.min(maxUsable, Math.max(minUsable, t));
  for (let i = 0; i < positions; i++) {
    let lower: number;
    let upper: number;
    // Full-range positions only for the wide spacings: with spacing 1 or 10 the SDK would step through thousands
    // of bitmap words to reach the bounds.
    if (rng.next() < 0.04 && s >= 50) {
      lower = minUsable;
      upper = maxUsable;
    } else {
      lower = clampT(center + s * rng.int(-spread, spread));
      upper = clampT(lower + s * rng.int(1, spread));
      if (upper <= lower) {
        if (lower - s >= minUsable) lower -= s;
        else upper += s;
      }
    }
    const l = rng.logUniform(2, 24);
    nets.set(lower, (nets.get(lower) ?? 0n) + l);
    nets.set(upper, (nets.get(upper) ?? 0n) - l);
    gross.set(lower, (gross.get(lower) ?? 0n) + l);
    gross.set(upper, (gross.get(upper) ?? 0n) + l);
  }
  const ticks = [...gross.keys()].sort((x, y) => x - y).map((t) => [t, nets.get(t)!, gross.get(t)!] as [number, bigint, bigint]);
  // A price anywhere from a bit below the lowest tick to a bit above the highest.
  const lo = Math.max(-887272, ticks[0][0] - s * 20);
  const hi = Math.min(887271, ticks[ticks.length - 1][0] + s * 20);
  let t = rng.int(lo, hi);
  const tm = v3sdk.TickMath;
  let sqrtPriceX96: bigint;
  if (rng.next() < 0.1) {
    sqrtPriceX96 = b(tm.getSqrtRatioAtTick(t)); // exactly on a tick
  } else {
    const a = b(tm.getSqrtRatioAtTick(t));
    const c = b(tm.getSqrtRatioAtTick(Math.min(t + 1, 887272)));
    sqrtPriceX96 = a + rng.range(0n, c - a - 1n);
  }
  t = tm.getTickAtSqrtRatio(j(sqrtPriceX96));
  let liquidity = 0n;
  const rangeLiquidity: bigint[] = [];
  let acc = 0n;
  for (const [tick, net] of ticks) {
    acc += net;
    rangeLiquidity.push(acc);
    if (tick <= t) liquidity = acc;
  }
  if (ticks[0][0] > t) liquidity = 0n;
  return { fee, tickSpacing: s, sqrtPriceX96, tick: t, liquidity, ticks, rangeLiquidity, liquidityBelowAll: 0n };
}

/**
 * The SDK's view of a pool: its Pool with a TickListDataProvider for the standard fee tiers, otherwise the SDK's
 * v3Swap (the loop Pool.swap calls) on the same provider.
 */
export function sdkPoolOf(p: RandomPool): SdkPool {
  const provider = new v3sdk.TickListDataProvider(
    p.ticks.map(([index, net, gross]) => ({ index, liquidityNet: net.toString(), liquidityGross: gross.toString() })),
    p.tickSpacing,
  );
  if (v3sdk.TICK_SPACINGS[p.fee] === p.tickSpacing) {
    return new v3sdk.Pool(TOKEN_A, TOKEN_B, p.fee, p.sqrtPriceX96.toString(), p.liquidity.toString(), p.tick, provider);
  }
  const fee = j(p.fee);
  const sqrt = j(p.sqrtPriceX96);
  const liquidity = j(p.liquidity);
  return {
    swap: (zeroForOne, amountSpecified, limit) =>
      v3sdk.v3Swap(fee, sqrt, p.tick, liquidity, p.tickSpacing, provider, zeroForOne, amountSpecified, limit),
  };
}

/** Words of all valid ticks for a spacing: the whole bitmap. */
export function fullWords(s: number): [number, number] {
  return [Math.floor(-887272 / s) >> 8, Math.floor(887272 / s) >> 8];
}

const LN_1_0001 = Math.log(1.0001);

/**
 * A float estimate of the amount (token in for exact input, token out for exact output) that moves the price
 * from the current one to `targetTick`, through the pool's ranges: only used to spread test cases over 0..N ticks.
 */
export function estimateAmount(p: RandomPool, zeroForOne: boolean, targetTick: number, exactInput: boolean): number {
  const sqrtAt = (t: number): number => Math.exp((t * LN_1_0001) / 2);
  const cur = Number(p.sqrtPriceX96) / 2 ** 96;
  const _target = sqrtAt(targetTick);
  // Walk ranges between cur and target accumulating L * delta.
  const points = p.ticks.map((x) => x[0]);
  let total = 0;
  const lAt = (tickInRange: number): number => {
    let l = 0n;
    for (let i = 0; i < points.length && points[i] <= tickInRange; i++) l = p.rangeLiquidity[i];
    return Number(l);
  };
  const edges = points.filter((t) => (zeroForOne ? sqrtAt(t) < cur && t > targetTick : sqrtAt(t) > cur && t < targetTick));
  edges.sort((x, y) => (zeroForOne ? y - x : x - y));
  let from = cur;
  let fromTick = p.tick;
  for (const e of [...edges, targetTick]) {
    const to = sqrtAt(e);
    const l = lAt(zeroForOne ? e : fromTick);
    const token0 = l * Math.abs(1 / to - 1 / from);
    const token1 = l * Math.abs(to - from);
    total += zeroForOne === exactInput ? token0 : token1;
    from = to;
    fromTick = e;
  }
  return total;
}
