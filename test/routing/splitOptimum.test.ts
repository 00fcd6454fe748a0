// Splits at the exact optimum (issue 24): on large trades over six pool-disjoint paths (v3 and v2 pools, direct and
// two-hop, one path whose optimal share is about 1%), bestTrade's output with gas ignored is within 0.1 bps of the
// true optimum, which an independent solver finds here: bisection on the common marginal rate λ over the paths'
// exact curves, each path priced by the Uniswap SDKs (@uniswap/v3-sdk Pool, @uniswap/v2-sdk Pair), each path's
// amount at λ found by bisection on its discrete marginal rate. Paths that share no pool and concave curves: the
// allocation where every path that takes part has the same marginal rate is the optimum over all of them. With a
// network fee, a path that does not pay for its own gas is left out.
import t from 'tap';
import { getSqrtRatioAtTick } from '../../src/amm/tickMath.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';
import { DAI, handChain, USDC, WETH, XYZ } from '../helpers/handGraph.ts';
import { type SdkToken, type SdkV2Pair, type SdkV3Pool, sdkAmount, sdkCore, sdkRaw, sdkV2Pair, sdkV3Pool } from '../helpers/sdkPools.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
let serial = 0;
const address = () => `0x00000000000000000000000000000000000000${(0xc0 + serial++).toString(16)}`;

function v2(token0: string, token1: string, reserve0: bigint, reserve1: bigint): SnapshotPoolV2 {
  const r = [reserve0.toString(), reserve1.toString()];
  return {
    address: address(),
    dex: 'uniswap',
    version: 'v2',
    token0,
    token1,
    fee: 3000,
    balance0: r[0],
    balance1: r[1],
    reserve0: r[0],
    reserve1: r[1],
  };
}

/** A v3 pool at `tick` holding liquidity positions [lower, upper, L] (ticks on the spacing). */
function v3(
  token0: string,
  token1: string,
  fee: number,
  spacing: number,
  tick: number,
  positions: [number, number, bigint][],
): SnapshotPoolV3 {
  const net = new Map<number, bigint>();
  for (const [lower, upper, l] of positions) {
    net.set(lower, (net.get(lower) ?? 0n) + l);
    net.set(upper, (net.get(upper) ?? 0n) - l);
  }
  const ticks = [...net].sort((a, b) => a[0] - b[0]);
  const liquidity = positions.filter(([lo, up]) => lo <= tick && tick < up).reduce((s, [, , l]) => s + l, 0n);
  const words = ticks.map(([x]) => Math.floor(x / spacing) >> 8);
  return {
    address: address(),
    dex: 'uniswap',
    version: 'v3',
    token0,
    token1,
    fee,
    balance0: (10n ** 30n).toString(),
    balance1: (10n ** 30n).toString(),
    sqrtPriceX96: getSqrtRatioAtTick(tick).toString(),
    tick,
    liquidity: liquidity.toString(),
    tickSpacing: spacing,
    bitmapWords: [Math.min(...words) - 1, Math.max(...words) + 1],
    ticks: ticks.map(([x, n]) => [x, n.toString()] as const),
  };
}

// WETH at 3,000 USDC (raw price 3e-9: tick -196,256), XYZ at 5 USD (600 XYZ per WETH: tick 63,970; USDC -> XYZ raw
// 2e11: tick 260,220).
const pools = {
  deepV3: v3(WETH, USDC, 500, 10, -196_260, [
    [-196_760, -195_760, 1_100_000_000_000_000_000n],
    [-201_260, -191_260, 300_000_000_000_000_000n],
  ]),
  v3Medium: v3(WETH, USDC, 3000, 60, -196_260, [[-199_260, -193_260, 500_000_000_000_000_000n]]),
  v2: v2(WETH, USDC, 5_000n * E18, 15_000_000n * E6),
  wethDai: v2(WETH, DAI, 3_000n * E18, 9_000_000n * E18),
  daiUsdc: v2(USDC, DAI, 20_000_000n * E6, 20_000_000n * E18),
  wethXyz: v3(WETH, XYZ, 3000, 60, 63_960, [[60_000, 67_980, 60_000_000_000_000_000_000n]]),
  xyzUsdc: v3(USDC, XYZ, 500, 10, 260_220, [[255_220, 265_220, 120_000_000_000_000_000n]]),
  // A small pair at a slightly better price: the path whose optimal share is about 1%.
  small: v2(WETH, USDC, 250n * E18, 752_000n * E6),
};
const all: SnapshotPool[] = Object.values(pools);
/** Token decimals for the SDK tokens (the hand tokens; the devnet's are added below). */
const decimalsOf = new Map<string, number>([[USDC, 6]]);
const decimals = (a: string) => decimalsOf.get(a) ?? 18;
const tokens = new Map<string, SdkToken>();
const sdkToken = (a: string): SdkToken => {
  let x = tokens.get(a);
  if (!x) {
    x = new sdkCore.Token(1001, a, decimals(a));
    tokens.set(a, x);
  }
  return x;
};
/** A hop of the v2/v3 devnet paths this test prices with the SDKs. */
type Hop = { pool: SnapshotPoolV2 | SnapshotPoolV3; tokenIn: string; handover?: boolean };
const hops = (...path: [Hop['pool'], string][]): Hop[] => path.map(([pool, tokenIn]) => ({ pool, tokenIn }));
/** The six paths WETH -> USDC, pool-disjoint: every path of at most two pools the graph has. */
const paths: Hop[][] = [
  hops([pools.deepV3, WETH]),
  hops([pools.v3Medium, WETH]),
  hops([pools.v2, WETH]),
  hops([pools.wethDai, WETH], [pools.daiUsdc, DAI]),
  hops([pools.wethXyz, WETH], [pools.xyzUsdc, XYZ]),
  hops([pools.small, WETH]),
];

/** The SDK pool or pair of a snapshot pool, built once: the oracle prices the same pools many thousand times. */
const sdkPools = new WeakMap<Hop['pool'], SdkV2Pair | SdkV3Pool>();
function sdkPool(pool: Hop['pool']): SdkV2Pair | SdkV3Pool {
  let sdk = sdkPools.get(pool);
  if (!sdk) {
    const [t0, t1] = [sdkToken(pool.token0), sdkToken(pool.token1)];
    sdk = pool.version === 'v2' ? sdkV2Pair(pool, t0, t1) : sdkV3Pool(pool, t0, t1)!;
    sdkPools.set(pool, sdk);
  }
  return sdk;
}

/** The hand-over slippage of the paths of stages below (basis points). */
const HANDOVER_BPS = 100n;

/** The SDK's exact output of a path for an input (0 when a pool refuses it). */
async function outputOf(path: Hop[], amountIn: bigint): Promise<bigint> {
  let amount = amountIn;
  for (const { pool, tokenIn, handover } of path) {
    // A later stage of a path of stages spends the earlier one's minimum: its output less 1% (HANDOVER_BPS), floored.
    if (handover) amount = (amount * (10_000n - HANDOVER_BPS)) / 10_000n;
    if (amount <= 0n) return 0n;
    try {
      amount = sdkRaw((await sdkPool(pool).getOutputAmount(sdkAmount(sdkToken(tokenIn), amount)))[0]);
    } catch {
      return 0n;
    }
  }
  return amount;
}

/** The SDK's exact input of a path for an output (undefined when a pool cannot deliver all of it). */
async function inputOf(path: Hop[], amountOut: bigint): Promise<bigint | undefined> {
  let amount = amountOut;
  for (const { pool, tokenIn } of [...path].reverse()) {
    const sdk = sdkPool(pool);
    const tokenOut = tokenIn === pool.token0 ? pool.token1 : pool.token0;
    try {
      const input = sdkRaw((await sdk.getInputAmount(sdkAmount(sdkToken(tokenOut), amount)))[0]);
      // The v3 SDK quotes a partial fill where liquidity ends: the input must buy the whole output.
      if (sdkRaw((await sdk.getOutputAmount(sdkAmount(sdkToken(tokenIn), input)))[0]) < amount) return undefined;
      amount = input;
    } catch {
      return undefined;
    }
  }
  return amount;
}

/** A path's value for an amount (an output, or minus an input). */
type Value = (path: Hop[], x: bigint) => Promise<bigint | undefined>;
/**
 * `value` remembering what it returned for each path and amount: the bisections below revisit the same amounts (the
 * first halvings of every λ's search, and all of them once λ has converged), and the same SDK answer is not worked
 * out again. The optimum is the same as without; only the repeated pricing goes.
 */
function remembered(value: Value): Value {
  const seen = new WeakMap<Hop[], Map<bigint, Promise<bigint | undefined>>>();
  return (path, x) => {
    const values = seen.get(path) ?? new Map<bigint, Promise<bigint | undefined>>();
    seen.set(path, values);
    const v = values.get(x) ?? value(path, x);
    values.set(x, v);
    return v;
  };
}
const output = remembered(outputOf);

/**
 * The independent optimum of a concave value per path over the fixed amount: for exact input the value of x is the
 * output, for exact output (x an output) minus the input. Bisection on λ; each path's x at λ by bisection on its
 * discrete marginal (value(x + h) - value(x)) / h, h a 200,000th of the amount (coarse enough that an
 * intermediate token with few units per step does not make the steps' rounding look like a rate); the remainder of the sum to the
 * largest share; a value the paths cannot reach (undefined) has rate -Infinity. Returns the shares and the total value, priced by the SDKs.
 */
async function optimum(value: Value, over: Hop[][], amount: bigint) {
  const h = amount / 200_000n;
  const marginal = async (path: Hop[], x: bigint) => {
    const [a, b] = [await value(path, x), await value(path, x + h)];
    return a === undefined || b === undefined ? Number.NEGATIVE_INFINITY : Number(b - a) / Number(h);
  };
  const at = async (path: Hop[], lambda: number): Promise<bigint> => {
    if ((await marginal(path, 0n)) <= lambda) return 0n;
    if ((await marginal(path, amount - h)) >= lambda) return amount;
    let [lo, hi] = [0n, amount - h];
    while (hi - lo > h) {
      const mid = (lo + hi) / 2n;
      if ((await marginal(path, mid)) >= lambda) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  // λ between the highest rate at zero and a millionth (exact input: rates are positive) or a million times it
  // (exact output: minus the input per unit of output, negative); bisected geometrically.
  let top = Number.NEGATIVE_INFINITY;
  for (const p of over) top = Math.max(top, await marginal(p, 0n));
  let [lo, hi] = top > 0 ? [top * 1e-6, top] : [top * 1e6, top];
  let shares: bigint[] = [];
  for (let i = 0; i < 44; i++) {
    const lambda = Math.sign(top) * Math.sqrt(lo * hi);
    const xs = await Promise.all(over.map((p) => at(p, lambda)));
    if (xs.reduce((a, b) => a + b, 0n) > amount) lo = lambda;
    else [hi, shares] = [lambda, xs];
  }
  const largest = shares.indexOf(shares.reduce((a, b) => (b > a ? b : a)));
  shares[largest] += amount - shares.reduce((a, b) => a + b, 0n);
  let total = 0n;
  for (let i = 0; i < over.length; i++) if (shares[i] > 0n) total += (await value(over[i], shares[i]))!;
  return { shares, total };
}

const request = (over: Partial<TradeRequest>): TradeRequest => ({
  tokenIn: WETH,
  tokenOut: USDC,
  tradeType: 'exactIn',
  amount: 0n,
  maxHops: 2,
  maxSplits: 6,
  gasPriceWei: 0n,
  allow: () => true,
  ...over,
});
const index = (pools: SnapshotPool[]) => new ChainPoolIndex(handChain, pools);
/** Difference in bps of the optimum (positive: ours is worse). */
const bpsBelow = (ours: bigint, best: bigint, higherIsBetter: boolean) =>
  (Number((higherIsBetter ? best - ours : ours - best) * 10n ** 12n) / Number(best)) * 1e-8;
const pct = (shares: bigint[], amount: bigint) => shares.map((s) => Number((s * 10_000n) / amount) / 100);

t.test('exact input over six pool-disjoint paths: within 0.1 bps of the independent optimum', async (t) => {
  for (const weth of [800n, 2_500n, 6_000n]) {
    const amount = weth * E18;
    const best = await optimum(output, paths, amount);
    const outcome = bestTrade(index(all), request({ amount }));
    if (!outcome.ok) throw new Error(outcome.code);
    const below = bpsBelow(outcome.trade.amountOut, best.total, true);
    t.ok(
      Math.abs(below) <= 0.1,
      `${weth} WETH: ${outcome.trade.amountOut} vs optimum ${best.total} (${below.toFixed(4)} bps below; optimum shares ${pct(best.shares, amount)}%)`,
    );
    t.equal(outcome.trade.amountIn, amount, 'the shares spend exactly the amount');
    if (weth === 2_500n) {
      const small = best.shares[5];
      t.ok(small * 200n > amount && small * 50n < amount, `the small pair's optimal share is about 1% (${pct([small], amount)}%)`);
      t.ok(
        outcome.trade.splits.some((s) => s.route.legs[0].pool === pools.small.address),
        'and it takes part',
      );
    }
  }
});

t.test('exact output over the same paths: within 0.1 bps of the independent optimum', async (t) => {
  const minusInput = remembered(async (path, y) => {
    if (y === 0n) return 0n;
    const x = await inputOf(path, y);
    return x === undefined ? undefined : -x;
  });
  for (const usdc of [3_000_000n, 12_000_000n]) {
    const amount = usdc * E6;
    const best = await optimum(minusInput, paths, amount);
    const outcome = bestTrade(index(all), request({ amount, tradeType: 'exactOut' }));
    if (!outcome.ok) throw new Error(outcome.code);
    const below = bpsBelow(outcome.trade.amountIn, -best.total, false);
    t.ok(
      Math.abs(below) <= 0.1,
      `${usdc} USDC out: ${outcome.trade.amountIn} in vs optimum ${-best.total} (${below.toFixed(4)} bps above; optimum shares ${pct(best.shares, amount)}%)`,
    );
    t.equal(outcome.trade.amountOut, amount, 'the shares deliver exactly the amount');
  }
});

t.test('with a network fee, a path that does not pay for its gas is left out', async (t) => {
  const amount = 2_500n * E18;
  const without = await optimum(output, paths.slice(0, 5), amount);
  const withSmall = await optimum(output, paths, amount);
  // What the small pair adds at the optimum, in USDC; its swap costs at least 62,000 gas (a v2 hop) plus the split's.
  const adds = withSmall.total - without.total;
  // A gas price at which 62,000 gas cost three times what it adds (WETH at 3,000 USDC: 1e-12 USDC units per wei).
  const gasPriceWei = (adds * 3n * 10n ** 12n) / 3000n / 62_000n;
  const outcome = bestTrade(index(all), request({ amount, gasPriceWei }));
  if (!outcome.ok) throw new Error(outcome.code);
  t.notOk(
    outcome.trade.splits.some((s) => s.route.legs[0].pool === pools.small.address),
    `at ${gasPriceWei} wei per gas (it adds ${adds} USDC units): the small pair is left out`,
  );
  t.ok(outcome.trade.splits.length >= 2, 'the other paths still split the amount');
});

t.test('a path of stages as a part of a split: within 0.1 bps of the independent optimum, never below one path', async (t) => {
  // DAI -> USDC on a v3 pool (DAI at 1.01 USDC) instead of the v2 pair: WETH -> DAI (v2, Router02) then DAI -> USDC (v3,
  // SwapRouter02) is a path no router of the test chain runs whole, so it runs as two stages, the second spending the
  // first's minimum (the oracle floors its hand-over at 1%, as the quote's steps do).
  const daiUsdcV3 = v3(USDC, DAI, 500, 10, 276_420, [[271_320, 281_320, 20_000_000_000_000_000_000n]]);
  const staged = hops([pools.wethDai, WETH], [daiUsdcV3, DAI]);
  staged[1].handover = true;
  const over = [...paths.slice(0, 3), staged, ...paths.slice(4)];
  const set: SnapshotPool[] = [...Object.values(pools).filter((p) => p !== pools.daiUsdc), daiUsdcV3];
  for (const weth of [800n, 2_500n]) {
    const amount = weth * E18;
    const best = await optimum(output, over, amount);
    const outcome = bestTrade(index(set), request({ amount, handoverSlippageBps: Number(HANDOVER_BPS) }));
    if (!outcome.ok) throw new Error(outcome.code);
    const below = bpsBelow(outcome.trade.amountOut, best.total, true);
    t.ok(
      Math.abs(below) <= 0.1,
      `${weth} WETH: ${outcome.trade.amountOut} vs optimum ${best.total} (${below.toFixed(4)} bps below; optimum shares ${pct(best.shares, amount)}%)`,
    );
    t.ok(best.shares[3] * 100n > amount, `the path of stages has an optimal share (${pct([best.shares[3]], amount)}%)`);
    const part = outcome.trade.splits.find((s) => s.route.stages);
    t.strictSame(
      part?.route.stages?.map((x) => [x.executor.kind, x.legs]),
      [
        ['UniswapV2Router02', 1],
        ['SwapRouter02', 1],
      ],
      'it takes part, in two stages',
    );
    t.ok(outcome.trade.splits.length > 1, `beside ${outcome.trade.splits.length - 1} other paths`);
    const single = bestTrade(index(set), request({ amount, handoverSlippageBps: Number(HANDOVER_BPS), maxSplits: 1 }));
    const unstaged = bestTrade(index(set), request({ amount }));
    t.ok(single.ok && outcome.trade.amountOut >= single.trade.amountOut, 'never below the best single path');
    t.ok(unstaged.ok && outcome.trade.amountOut > unstaged.trade.amountOut, 'more than the split without paths of stages');
  }
});

t.test('the devnet snapshot: the shares of a large split at the optimum of its paths', async (t) => {
  // The paths are the ones bestTrade chose (pool-disjoint, every v2 pair at Uniswap v2's 0.3%, as the v2 SDK
  // prices); their independent optimum checks the shares.
  const { catalog, snapshot, chain } = shippedDevnetGraph();
  const devnet = new PricingGraph(new PoolGraph([snapshot], catalog), catalog).chain(31337)!;
  for (const x of chain.tokens) decimalsOf.set(x.address.toLowerCase(), x.decimals);
  const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!.address.toLowerCase();
  const byAddress = new Map(snapshot.pools.map((p) => [p.address, p]));
  for (const [from, to, amount] of [
    ['WETH', 'USDC', 300n * E18],
    ['USDC', 'WETH', 1_000_000n * E6],
  ] as const) {
    const outcome = bestTrade(devnet, request({ tokenIn: token(from), tokenOut: token(to), amount, maxHops: 3, maxSplits: 7 }));
    if (!outcome.ok) throw new Error(outcome.code);
    const chosen = outcome.trade.splits.map((s) =>
      s.route.legs.map((l) => ({ pool: byAddress.get(l.pool) as Hop['pool'], tokenIn: l.tokenIn })),
    );
    t.ok(chosen.length >= 3, `${from} -> ${to}: split over ${chosen.length} paths`);
    t.ok(
      chosen.every((p) => p.every((h) => h.pool.version === 'v3' || h.pool.fee === 3000)),
      'every v2 pair of the split charges 0.3%',
    );
    const best = await optimum(output, chosen, amount);
    const below = bpsBelow(outcome.trade.amountOut, best.total, true);
    t.ok(
      Math.abs(below) <= 0.1,
      `${from} -> ${to}: ${outcome.trade.amountOut} vs optimum ${best.total} of the same paths (${below.toFixed(4)} bps below; shares ${outcome.trade.splits.map((s) => s.percent)}% vs ${pct(best.shares, amount)}%)`,
    );
  }
});
