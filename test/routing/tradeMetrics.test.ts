import t, { type Test } from 'tap';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { Fraction } from '../../src/protocols/PoolProtocol.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import { type PricedPath, toPricedPath } from '../../src/routing/priceRoutes.ts';
import type { Leg, Route, Split } from '../../src/routing/Trade.ts';
import { gasRate, lpFees, pathMidPrice, priceImpactBps } from '../../src/routing/tradeMetrics.ts';
import {
  type SdkAmount,
  type SdkToken,
  type SdkV2Pair,
  type SdkV3Pool,
  sdkAmount,
  sdkCore,
  sdkRaw,
  sdkV2Pair,
  sdkV3Pool,
  v2Sdk,
  v3Sdk,
} from '../helpers/sdkPools.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

// The figures a trade reports beside its amounts (src/routing/tradeMetrics.ts), against independent oracles: mid
// prices of the Uniswap SDKs' routes (Route.midPrice) and by hand from pool state (v2: reserve1 / reserve0; v3:
// sqrtPriceX96^2 / 2^192; token1 -> token0 inverts), price impact by the SDKs' Trade.priceImpact and by hand, LP
// fees by hand from the definition on the Trade type (ceil(amountIn x (1 - prod(1 - fee)))), gas rates by hand on a
// small pool set whose depths are chosen so that one path is the deepest.

const { catalog, snapshot, chain } = shippedDevnetGraph();
const index = new PricingGraph(new PoolGraph([snapshot], catalog), catalog).chain(31337) as ChainPoolIndex;
const Q192 = 2n ** 192n;

const tokenOf = (symbol: string) => {
  const found = chain.tokens.find((x) => x.symbol === symbol);
  if (!found) throw new Error(`devnet has no ${symbol}`);
  return found;
};
const addressOf = (symbol: string): string => tokenOf(symbol).address.toLowerCase();

/** The devnet snapshot's pools used here, by address (see seeds/snapshots/devnet.json). */
const POOL = {
  /** uniswap v2 WETH/USDC, 1000 WETH : 3,000,000 USDC. */
  v2WethUsdc: '0xcD9323f1eE7259E38e3247afB043effbBb7A28dD',
  /** uniswap v2 WETH/DAI. */
  v2WethDai: '0xEF0d8eedB74E3319c6b7b5381b7C7D08Ab4dE87C',
  /** uniswap v2 WETH/WBTC. */
  v2WethWbtc: '0x34221076D77AE2aEe654b62CB0ce79f22202B0dF',
  /** uniswap v2 WBTC/USDC. */
  v2WbtcUsdc: '0x8b09811c655369C57C553CAFEe703Ee6A077084E',
  /** uniswap v3 WETH/USDC 0.05%. */
  v3WethUsdc: '0xFdC4D91a842F98589094519645F3d5Af21155c7a',
  /** uniswap v3 WETH/DAI 1%. */
  v3WethDai: '0xC6ce061391132DBD8082129c3c454180a1776937',
  /** uniswap v3 DAI/USDC 0.01%. */
  v3DaiUsdc: '0x73c9aB62a82Bb930E2b392384f7BD2B76B72bf7C',
  /** uniswap v3 WBTC/USDC 0.05%. */
  v3WbtcUsdc: '0xf5c4a74496A2392aa7176b972cb1E329D16d9953',
} as const;

function stateOf(address: string): SnapshotPool {
  const found = [...(snapshot?.pools ?? []), ...smallPools].find((p) => p.address === address);
  if (!found) throw new Error(`no pool ${address} here`);
  return found;
}
const v2State = (address: string) => stateOf(address) as SnapshotPoolV2;
const v3State = (address: string) => stateOf(address) as SnapshotPoolV3;

/** A path through an index's pools, tokens named by symbol (tokens.length = pools.length + 1). */
function pricedPath(symbols: readonly string[], pools: readonly string[], from: ChainPoolIndex = index): PricedPath {
  const tokens = symbols.map(addressOf);
  const entries = pools.map((address, i) => {
    const entry = from.poolsOf(tokens[i] as string).find((e) => e.address === address);
    if (!entry) throw new Error(`pool ${address} does not hold ${symbols[i]}`);
    return entry;
  });
  const priced = toPricedPath(from, { pools: entries, tokens });
  if (!priced) throw new Error(`path ${symbols.join(' -> ')} does not convert`);
  return priced;
}

/** Hand mid prices of one pool, token1 per token0 in smallest units. */
const v2Mid = (address: string): Fraction => ({ num: BigInt(v2State(address).reserve1), den: BigInt(v2State(address).reserve0) });
const v3Mid = (address: string): Fraction => {
  const s = BigInt(v3State(address).sqrtPriceX96);
  return { num: s * s, den: Q192 };
};
const inverse = (f: Fraction): Fraction => ({ num: f.den, den: f.num });
const times = (...fs: Fraction[]): Fraction => fs.reduce((a, b) => ({ num: a.num * b.num, den: a.den * b.den }), { num: 1n, den: 1n });

/** Asserts two fractions are the same number (neither needs to be reduced). */
function sameRatio(t: Test, actual: Fraction | null, expected: Fraction, message: string): void {
  if (!actual) {
    t.fail(`${message}: got null`);
    return;
  }
  t.not(actual.den, 0n, `${message}: denominator not zero`);
  t.equal(actual.num * expected.den, expected.num * actual.den, `${message}: the same ratio (cross products)`);
}

// The SDK parts used here beyond test/helpers/sdkPools.ts's typing.
/** An SDK Price or Percent: a fraction of JSBI integers. */
interface SdkFraction {
  readonly numerator: { toString(): string };
  readonly denominator: { toString(): string };
}
const v2 = v2Sdk as unknown as typeof v2Sdk & {
  Route: new (pairs: readonly SdkV2Pair[], input: SdkToken, output: SdkToken) => { readonly midPrice: SdkFraction };
  Trade: { exactIn(route: unknown, amountIn: SdkAmount): { readonly outputAmount: SdkAmount; readonly priceImpact: SdkFraction } };
};
type V3Route = { readonly midPrice: SdkFraction };
const v3 = v3Sdk as unknown as typeof v3Sdk & {
  Route: new (pools: readonly SdkV3Pool[], input: SdkToken, output: SdkToken) => V3Route;
  Trade: {
    createUncheckedTradeWithMultipleRoutes(args: {
      routes: { route: V3Route; inputAmount: SdkAmount; outputAmount: SdkAmount }[];
      tradeType: number;
    }): { readonly priceImpact: SdkFraction };
  };
};
const EXACT_INPUT = (sdkCore as unknown as { TradeType: { EXACT_INPUT: number } }).TradeType.EXACT_INPUT;

const sdkTokens = new Map<string, SdkToken>();
function sdkToken(symbol: string): SdkToken {
  const known = sdkTokens.get(symbol);
  if (known) return known;
  const made = new sdkCore.Token(31337, tokenOf(symbol).address, tokenOf(symbol).decimals);
  sdkTokens.set(symbol, made);
  return made;
}
const symbolOf = (address: string): string => {
  const found = chain.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase());
  if (!found) throw new Error(`no devnet token ${address}`);
  return found.symbol;
};
const sdkPair = (address: string): SdkV2Pair => {
  const s = v2State(address);
  return sdkV2Pair(s, sdkToken(symbolOf(s.token0)), sdkToken(symbolOf(s.token1)));
};
const sdkPool = (address: string): SdkV3Pool => {
  const s = v3State(address);
  const pool = sdkV3Pool(s, sdkToken(symbolOf(s.token0)), sdkToken(symbolOf(s.token1)));
  if (!pool) throw new Error(`pool ${address} has no ticks`);
  return pool;
};
const priceOf = (p: SdkFraction): Fraction => ({ num: BigInt(p.numerator.toString()), den: BigInt(p.denominator.toString()) });

/** round(10000 x num / den), halves away from zero: a ratio in basis points. */
function bpsOf(num: bigint, den: bigint): number {
  const twice = (20_000n * num) / den;
  return Number(twice >= 0n ? (twice + 1n) / 2n : (twice - 1n) / 2n);
}

/** A route of v2/v3 legs through the devnet pools (its executor and gas are not read by the metrics). */
function routeOf(legs: readonly { pool: string; from: string; to: string; amountIn: bigint; amountOut: bigint }[]): Route {
  const built: Leg[] = legs.map((l) => {
    const s = stateOf(l.pool);
    return {
      pool: s.address,
      kind: s.version === 'v2' ? 'uniswapV2' : 'uniswapV3',
      dex: s.dex,
      version: s.version,
      fee: s.fee,
      tokenIn: addressOf(l.from),
      tokenOut: addressOf(l.to),
      amountIn: l.amountIn,
      amountOut: l.amountOut,
      ticksCrossed: 0,
      coldSlots: 0,
      movesTick: false,
    };
  });
  return {
    legs: built,
    amountIn: built[0]?.amountIn ?? 0n,
    amountOut: built[built.length - 1]?.amountOut ?? 0n,
    executor: { kind: 'SwapRouter02', address: '0x000000000000000000000000000000000000dEaD', name: 'test router' },
    gas: 0n,
  };
}

const E18 = 10n ** 18n;
const pair = (address: string, a: string, b: string, r0: bigint, r1: bigint): SnapshotPoolV2 => ({
  address,
  dex: 'uniswap',
  version: 'v2',
  token0: tokenOf(a).address,
  token1: tokenOf(b).address,
  fee: 3000,
  balance0: r0.toString(),
  balance1: r1.toString(),
  reserve0: r0.toString(),
  reserve1: r1.toString(),
});
/**
 * A small devnet pool set (uniswap v2 pairs; WETH sorts below every other devnet token, so it is token0):
 *   A  WETH/USDC  1000 WETH : 3,000,000 USDC   (deep:    3000 USDC per WETH)
 *   B  WETH/USDC    10 WETH :    31,000 USDC   (shallow: 3100 USDC per WETH)
 *   C  WBTC/USDC    20 WBTC : 1,200,000 USDC   (deep:   60000 USDC per WBTC; WBTC is token0)
 *   D  WETH/DAI     10 WETH :    31,000 DAI    (shallow)
 *   E  WBTC/DAI      1 WBTC :    50,000 DAI    (shallow; WBTC is token0)
 *   F  LINK/AAVE   an island, joined to nothing else
 * USD depths: A 6M, C 2.4M, B and D 61k, E 110k: WETH -> USDC is deepest through A, WETH -> WBTC through A then C
 * (bottleneck 2.4M against 61k for B-C and D-E), and those paths give other prices than the shallow ones.
 */
const smallPools = [
  pair('0x00000000000000000000000000000000000000a1', 'WETH', 'USDC', 1000n * E18, 3_000_000n * 10n ** 6n),
  pair('0x00000000000000000000000000000000000000b2', 'WETH', 'USDC', 10n * E18, 31_000n * 10n ** 6n),
  pair('0x00000000000000000000000000000000000000c3', 'WBTC', 'USDC', 20n * 10n ** 8n, 1_200_000n * 10n ** 6n),
  pair('0x00000000000000000000000000000000000000d4', 'WETH', 'DAI', 10n * E18, 31_000n * E18),
  pair('0x00000000000000000000000000000000000000e5', 'WBTC', 'DAI', 10n ** 8n, 50_000n * E18),
  pair('0x00000000000000000000000000000000000000f6', 'LINK', 'AAVE', 1000n * E18, 100n * E18),
];
const small = new ChainPoolIndex(chain, smallPools);
const SMALL = { A: '0x00000000000000000000000000000000000000a1', B: '0x00000000000000000000000000000000000000b2' } as const;

t.test('pathMidPrice: one pool, both directions, by hand from the pool state', async (t) => {
  // v2: reserve1 / reserve0 = 3,000,000e6 / 1000e18 USDC units per WETH wei; USDC -> WETH is the inverse.
  sameRatio(t, pathMidPrice(pricedPath(['WETH', 'USDC'], [POOL.v2WethUsdc])), { num: 3n * 10n ** 12n, den: 10n ** 21n }, 'v2 WETH -> USDC');
  sameRatio(t, pathMidPrice(pricedPath(['USDC', 'WETH'], [POOL.v2WethUsdc])), { num: 10n ** 21n, den: 3n * 10n ** 12n }, 'v2 USDC -> WETH');
  // v3: sqrtPriceX96^2 / 2^192 token1 per token0 (WETH is token0, USDC token1).
  const s = BigInt(v3State(POOL.v3WethUsdc).sqrtPriceX96);
  sameRatio(t, pathMidPrice(pricedPath(['WETH', 'USDC'], [POOL.v3WethUsdc])), { num: s * s, den: Q192 }, 'v3 WETH -> USDC');
  sameRatio(t, pathMidPrice(pricedPath(['USDC', 'WETH'], [POOL.v3WethUsdc])), { num: Q192, den: s * s }, 'v3 USDC -> WETH');
});

t.test('pathMidPrice: multi-hop v3 paths multiply along the path, as the v3-sdk Route.midPrice', async (t) => {
  // USDC -> DAI (DAI/USDC: token1 -> token0) -> WETH (WETH/DAI: token1 -> token0), and back.
  const pools = [sdkPool(POOL.v3DaiUsdc), sdkPool(POOL.v3WethDai)];
  const forward = pathMidPrice(pricedPath(['USDC', 'DAI', 'WETH'], [POOL.v3DaiUsdc, POOL.v3WethDai]));
  sameRatio(t, forward, priceOf(new v3.Route(pools, sdkToken('USDC'), sdkToken('WETH')).midPrice), 'USDC -> DAI -> WETH, SDK');
  sameRatio(t, forward, inverse(times(v3Mid(POOL.v3DaiUsdc), v3Mid(POOL.v3WethDai))), 'USDC -> DAI -> WETH, by hand');
  const back = pathMidPrice(pricedPath(['WETH', 'DAI', 'USDC'], [POOL.v3WethDai, POOL.v3DaiUsdc]));
  sameRatio(t, back, priceOf(new v3.Route([...pools].reverse(), sdkToken('WETH'), sdkToken('USDC')).midPrice), 'WETH -> DAI -> USDC, SDK');
  sameRatio(t, back, times(v3Mid(POOL.v3WethDai), v3Mid(POOL.v3DaiUsdc)), 'WETH -> DAI -> USDC, by hand');
});

t.test('pathMidPrice: multi-hop v2 paths, as the v2-sdk Route.midPrice', async (t) => {
  // WBTC -> USDC (WBTC/USDC: token0 -> token1) -> WETH (WETH/USDC: token1 -> token0).
  const pairs = [sdkPair(POOL.v2WbtcUsdc), sdkPair(POOL.v2WethUsdc)];
  const mid = pathMidPrice(pricedPath(['WBTC', 'USDC', 'WETH'], [POOL.v2WbtcUsdc, POOL.v2WethUsdc]));
  sameRatio(t, mid, priceOf(new v2.Route(pairs, sdkToken('WBTC'), sdkToken('WETH')).midPrice), 'WBTC -> USDC -> WETH, SDK');
  // 1,200,000e6 / 20e8 USDC per WBTC unit, then 1000e18 / 3,000,000e6 wei per USDC unit: 2e11 wei per WBTC unit
  // (20 WETH per WBTC).
  sameRatio(t, mid, { num: 2n * 10n ** 11n, den: 1n }, 'WBTC -> USDC -> WETH, by hand');
});

t.test('pathMidPrice: a mixed v3/v2/v3 path, by hand', async (t) => {
  // USDC -> WBTC on v3 (WBTC/USDC: token1 -> token0, inverted), WBTC -> WETH on v2 (WETH/WBTC: token1 -> token0,
  // reserve0 / reserve1), WETH -> DAI on v3 (WETH/DAI: token0 -> token1).
  const mid = pathMidPrice(pricedPath(['USDC', 'WBTC', 'WETH', 'DAI'], [POOL.v3WbtcUsdc, POOL.v2WethWbtc, POOL.v3WethDai]));
  sameRatio(
    t,
    mid,
    times(inverse(v3Mid(POOL.v3WbtcUsdc)), inverse(v2Mid(POOL.v2WethWbtc)), v3Mid(POOL.v3WethDai)),
    'USDC -> WBTC -> WETH -> DAI',
  );
  // The reverse path is the inverse.
  const back = pathMidPrice(pricedPath(['DAI', 'WETH', 'WBTC', 'USDC'], [POOL.v3WethDai, POOL.v2WethWbtc, POOL.v3WbtcUsdc]));
  sameRatio(t, back, inverse(mid), 'DAI -> WETH -> WBTC -> USDC is the inverse');
});

t.test('priceImpactBps: one v2 route, by hand and as the v2-sdk Trade.priceImpact', async (t) => {
  // 10 WETH into 1000 WETH : 3,000,000 USDC (0.3% fee): out = floor(10e18 x 997 x 3e12 / (1e21 x 1000 + 10e18 x 997))
  // = 29,614,741,031; at the mid price 10 WETH are 30,000,000,000; impact = 385,258,969 / 30e9 = 128.42 bps -> 128.
  const amountIn = 10n ** 19n;
  const amountOut = 29_614_741_031n;
  const sdkTrade = v2.Trade.exactIn(
    new v2.Route([sdkPair(POOL.v2WethUsdc)], sdkToken('WETH'), sdkToken('USDC')),
    sdkAmount(sdkToken('WETH'), amountIn),
  );
  t.equal(sdkRaw(sdkTrade.outputAmount), amountOut, 'the SDK agrees on the output');
  const route = routeOf([{ pool: POOL.v2WethUsdc, from: 'WETH', to: 'USDC', amountIn, amountOut }]);
  const impact = priceImpactBps([{ percent: 100, route }], [pricedPath(['WETH', 'USDC'], [POOL.v2WethUsdc])]);
  t.equal(impact, 128, 'by hand');
  const { numerator, denominator } = sdkTrade.priceImpact;
  t.equal(impact, bpsOf(BigInt(numerator.toString()), BigInt(denominator.toString())), 'as the SDK');
});

t.test('priceImpactBps: a split trade over two v3 routes, as the v3-sdk multi-route Trade.priceImpact', async (t) => {
  // USDC -> WETH: 30,000 USDC directly through the 0.05% pool, 20,000 USDC through DAI (0.01% then 1%); every hop
  // goes token1 -> token0. Hop outputs from the v3-sdk pools.
  const legsOf = async (symbols: string[], pools: string[], amountIn: bigint) => {
    const legs: { pool: string; from: string; to: string; amountIn: bigint; amountOut: bigint }[] = [];
    let amount = amountIn;
    for (const [i, address] of pools.entries()) {
      const [out] = await sdkPool(address).getOutputAmount(sdkAmount(sdkToken(symbols[i] as string), amount));
      legs.push({ pool: address, from: symbols[i] as string, to: symbols[i + 1] as string, amountIn: amount, amountOut: sdkRaw(out) });
      amount = sdkRaw(out);
    }
    return legs;
  };
  const plan = [
    { symbols: ['USDC', 'WETH'], pools: [POOL.v3WethUsdc], amountIn: 30_000n * 10n ** 6n, percent: 60 },
    { symbols: ['USDC', 'DAI', 'WETH'], pools: [POOL.v3DaiUsdc, POOL.v3WethDai], amountIn: 20_000n * 10n ** 6n, percent: 40 },
  ];
  const splits: Split[] = [];
  const paths: PricedPath[] = [];
  const sdkRoutes: { route: V3Route; inputAmount: SdkAmount; outputAmount: SdkAmount }[] = [];
  for (const p of plan) {
    const route = routeOf(await legsOf(p.symbols, p.pools, p.amountIn));
    splits.push({ percent: p.percent, route });
    paths.push(pricedPath(p.symbols, p.pools));
    sdkRoutes.push({
      route: new v3.Route(p.pools.map(sdkPool), sdkToken('USDC'), sdkToken('WETH')),
      inputAmount: sdkAmount(sdkToken('USDC'), route.amountIn),
      outputAmount: sdkAmount(sdkToken('WETH'), route.amountOut),
    });
  }
  const impact = priceImpactBps(splits, paths);
  const sdkImpact = v3.Trade.createUncheckedTradeWithMultipleRoutes({ routes: sdkRoutes, tradeType: EXACT_INPUT }).priceImpact;
  t.equal(impact, bpsOf(BigInt(sdkImpact.numerator.toString()), BigInt(sdkImpact.denominator.toString())), 'as the SDK');
  // By hand: expected output = sum of amountIn x mid over the routes, exact; impact = (expected - actual) / expected.
  const mids = [inverse(v3Mid(POOL.v3WethUsdc)), times(inverse(v3Mid(POOL.v3DaiUsdc)), inverse(v3Mid(POOL.v3WethDai)))];
  const den = (mids[0] as Fraction).den * (mids[1] as Fraction).den;
  const expected = splits.reduce((sum, s, i) => sum + (s.route.amountIn * (mids[i] as Fraction).num * den) / (mids[i] as Fraction).den, 0n);
  const actual = splits.reduce((sum, s) => sum + s.route.amountOut, 0n) * den;
  t.equal(impact, bpsOf(expected - actual, expected), 'by hand');
  // Each route alone has another impact: the figure is over both.
  const alone = splits.map((s, i) => priceImpactBps([s], [paths[i] as PricedPath]));
  t.ok(alone[0] !== impact && alone[1] !== impact, `split ${impact} bps differs from each route alone (${alone.join(', ')})`);
});

t.test('priceImpactBps: a split over two pools of different mid prices, by hand', async (t) => {
  // WETH -> USDC over the small pool set: 9 WETH through A (3000 USDC per WETH), 1 WETH through B (3100).
  // v2 outputs (0.3% fee), out = floor(in x 997 x rOut / (rIn x 1000 + in x 997)):
  //   A: 9e18 x 997 x 3e12 / (1e21 x 1000 + 9e18 x 997)    = 26,679,603,914
  //   B: 1e18 x 997 x 31e9 / (10e18 x 1000 + 1e18 x 997)   =  2,810,493,771
  // At each route's own mid price: 9 x 3000e6 + 1 x 3100e6 = 30,100,000,000 (30,000,000,000 if both were A's price);
  // impact = (30,100,000,000 - 29,490,097,685) / 30,100,000,000 = 202.63 bps -> 203.
  const split = (pool: string, percent: number, amountIn: bigint, amountOut: bigint): Split => ({
    percent,
    route: routeOf([{ pool, from: 'WETH', to: 'USDC', amountIn, amountOut }]),
  });
  const splits = [split(SMALL.A, 90, 9n * E18, 26_679_603_914n), split(SMALL.B, 10, E18, 2_810_493_771n)];
  const paths = [pricedPath(['WETH', 'USDC'], [SMALL.A], small), pricedPath(['WETH', 'USDC'], [SMALL.B], small)];
  t.equal(priceImpactBps(splits, paths), 203, 'over both routes, each at its own mid price');
});

t.test('lpFees: ceil(amountIn x (1 - prod(1 - fee))), by hand', async (t) => {
  const leg = (fee: number, amountIn: bigint): Leg => ({
    pool: '0x000000000000000000000000000000000000dEaD',
    kind: 'uniswapV3',
    dex: 'uniswap',
    version: 'v3',
    fee,
    tokenIn: addressOf('WETH'),
    tokenOut: addressOf('USDC'),
    amountIn,
    amountOut: 1n,
    ticksCrossed: 0,
    coldSlots: 0,
    movesTick: false,
  });
  const route = (fees: number[], amountIn: bigint): Route => ({
    legs: fees.map((f) => leg(f, amountIn)),
    amountIn,
    amountOut: 1n,
    executor: { kind: 'SwapRouter02', address: '0x000000000000000000000000000000000000dEaD', name: 'test router' },
    gas: 0n,
  });
  // 0.3% of 1000 is exactly 3: nothing to round.
  t.equal(lpFees(route([3000], 1000n)), 3n, '0.3% of 1000');
  // 0.3% of 1001 is 3.003: rounds up to 4 (floor would say 3).
  t.equal(lpFees(route([3000], 1001n)), 4n, '0.3% of 1001 rounds up');
  // No fee, no LP fees.
  t.equal(lpFees(route([0], 10n ** 18n)), 0n, 'a 0-fee pool');
  // 0.3% then 0.05%: 1 - 0.997 x 0.9995 = 1 - 0.9965015 = 0.0034985 of 1,000,000 = 3498.5 -> 3499.
  t.equal(lpFees(route([3000, 500], 1_000_000n)), 3499n, 'two hops compound, rounded up');
  // 0.01%, 0.05%, 1%: 1 - 0.9999 x 0.9995 x 0.99 = 1 - 0.9894060495 = 0.0105939505 (not the sum of the fees, 0.0106):
  // of 1e10 exactly 105,939,505; of 1e10 + 1, 105,939,505.0106 -> 105,939,506.
  t.equal(lpFees(route([100, 500, 10_000], 10n ** 10n)), 105_939_505n, 'three hops, exact');
  t.equal(lpFees(route([100, 500, 10_000], 10n ** 10n + 1n)), 105_939_506n, 'three hops, rounded up');
  // Up to six hops of random fees (0 to 100%) and amounts, against the formula in BigInt products throughout (lpFees
  // keeps the products of two hops' pips as numbers).
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const FEES = [0, 1, 100, 500, 3000, 10_000, 999_999, 1_000_000];
  for (let i = 0; i < 300; i++) {
    const fees = Array.from({ length: 1 + (i % 6) }, () => (next(2) ? FEES[next(FEES.length)] : next(1_000_001)));
    const amountIn = BigInt(next(1_000_000_000)) * 10n ** BigInt(next(20)) + BigInt(next(1000));
    const keep = fees.reduce((k, f) => k * (1_000_000n - BigInt(f)), 1n);
    const scale = 1_000_000n ** BigInt(fees.length);
    const want = (amountIn * (scale - keep) + scale - 1n) / scale;
    if (lpFees(route(fees, amountIn)) !== want)
      t.fail(`fees ${fees.join(', ')} of ${amountIn}: ${lpFees(route(fees, amountIn))} != ${want}`);
  }
  t.pass('300 random routes of one to six hops equal the BigInt formula');
});

t.test('gasRate: native, wrapped, one and two pools away through the deepest path, and no path', async (t) => {
  for (const p of smallPools) {
    t.ok(p.token0.toLowerCase() < p.token1.toLowerCase(), `${symbolOf(p.token0)}/${symbolOf(p.token1)} is in token order`);
  }
  sameRatio(t, gasRate(small, addressOf('ETH')), { num: 1n, den: 1n }, 'the native asset: 1 wei per wei');
  sameRatio(t, gasRate(small, addressOf('WETH')), { num: 1n, den: 1n }, 'the wrapped native token: 1:1');
  // One pool away, the deeper of A and B: reserve1 / reserve0 of A = 3,000,000e6 / 1000e18 = 3e-9 USDC units per wei.
  sameRatio(t, gasRate(small, addressOf('USDC')), { num: 3n, den: 10n ** 9n }, 'USDC through A');
  // Two pools away through A then C (USDC -> WBTC is token1 -> token0 in C): 3e12 / 1e21 x 20e8 / 1.2e12 = 5e-12 WBTC
  // units per wei (0.05 WBTC per WETH); B then C would give 5.1667e-12, D then E 6.2e-12.
  sameRatio(t, gasRate(small, addressOf('WBTC')), { num: 5n, den: 10n ** 12n }, 'WBTC through A and C');
  sameRatio(t, gasRate(small, addressOf('DAI')), { num: 3100n, den: 1n }, 'DAI through its one pool D: 31,000e18 / 10e18');
  t.equal(gasRate(small, addressOf('AAVE')), null, 'AAVE: pools, but none joined to WETH');
  t.equal(gasRate(small, addressOf('UNI')), null, 'UNI: no pool at all');
});
