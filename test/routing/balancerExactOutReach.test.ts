// An exact output may ask a Balancer weighted pool for more input than an exact input may give it (up to 30% of the
// balance out against 30% of the balance in; more where wi / wo is below 1.36): the route search's bounds must reach
// those amounts, or the pool is ruled out (bound -Infinity) whenever another path carries the amount. On Ethereum's
// catalogue, WBTC -> exactly 25% of a 50/50 WBTC/USDC weighted pool's USDC (an input of a third of its WBTC, past the
// 30% an exact input may take), beside a deep Uniswap v2 pair and a v2 path through WETH at dearer prices: the
// Balancer pool is the cheapest path, by each path's input worked out here independently (the pool by
// @balancer-labs/balancer-maths' WeightedMath with v2's scaling and fee as BaseMinimalSwapInfoPool applies them, the
// pairs by UniswapV2Library.getAmountIn), and bestTrade takes it, alone and with splits (the search that bounds paths
// by their float curves: there, when the curve ended at the exact-input limit, the pair's 81% dearer input was
// returned). Exact input still never gives the pool more than it takes: a split gives it its limit and no more.
import { _computeInGivenExactOut } from '@balancer-labs/balancer-maths';
import t from 'tap';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import type { SnapshotPoolBalancer } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { v2PairSnapshot } from '../helpers/handGraph.ts';

const chain = loadCatalog().chain('ethereum') as CatalogChain;
const dex = chain.dexes.find((d) => d.balancerVaultAddress)!;
const WBTC = '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const E18 = 10n ** 18n;

/** The 50/50 WBTC/USDC pool (tokens sorted by address, as the Vault registers them): 100 WBTC, 6,000,000 USDC, fee 0.1%. */
const balances = [100n * 10n ** 8n, 6_000_000n * 10n ** 6n];
const weights = [E18 / 2n, E18 / 2n];
const swapFee = 10n ** 15n;
const poolAddress = '0x00000000000000000000000000000000000ba150';
const balancerPool: SnapshotPoolBalancer = {
  version: 'balancerV2',
  poolKind: 'balancerWeighted',
  address: `${poolAddress}${'0'.repeat(24)}`,
  dex: dex.slug,
  token0: WBTC,
  token1: USDC,
  fee: Number(swapFee / 10n ** 12n),
  balance0: String(balances[0]),
  balance1: String(balances[1]),
  pool: poolAddress,
  vault: dex.balancerVaultAddress!.toLowerCase(),
  factory: dex.balancerWeightedPoolFactories![0].toLowerCase(),
  swapFee: String(swapFee),
  tokens: [WBTC, USDC],
  balances: balances.map(String),
  decimals: [8, 6],
  weights: weights.map(String),
};

/** A Uniswap v2 pair of the test (its number, two tokens sorted, their reserves). */
const v2Pair = (n: number, token0: string, token1: string, reserve0: bigint, reserve1: bigint): SnapshotPoolV2 =>
  v2PairSnapshot(`0x00000000000000000000000000000000000a1b2${n}`, token0, token1, reserve0, reserve1);

/**
 * A Uniswap v2 WBTC/USDC pair at 25,000 USDC a WBTC (Balancer's spot: 60,000; its marginal rate at an exact input's
 * limit, 35,500), 10,000 WBTC deep; and a path through WETH at 20,000 (so that the search has more than two paths and
 * bounds them before pricing).
 */
const reserves = [10_000n * 10n ** 8n, 250_000_000n * 10n ** 6n];
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const pairs = [
  v2Pair(1, WBTC, USDC, reserves[0], reserves[1]),
  v2Pair(2, WBTC, WETH, 1_000n * 10n ** 8n, 10_000n * E18),
  v2Pair(3, USDC, WETH, 100_000_000n * 10n ** 6n, 50_000n * E18),
];

const index = new ChainPoolIndex(chain, [balancerPool, ...pairs]);

/** Exactly 25% of the pool's USDC. */
const amountOut = balances[1] / 4n;

/** FixedPoint.divUp (v2 solidity-utils). */
const divUp = (a: bigint, b: bigint): bigint => (a === 0n ? 0n : (a * E18 - 1n) / b + 1n);

/**
 * The Balancer pool's input for an exact output, as BaseMinimalSwapInfoPool.onSwap (GIVEN_OUT) computes it: the
 * balances and the amount upscaled (mulDown by 10^(18 - decimals)), WeightedMath's in-given-out (balancer-maths), the
 * input downscaled up, then the fee added (divUp by its complement).
 */
function balancerInput(out: bigint): bigint {
  const up = [10n ** 10n, 10n ** 12n];
  const scaled = _computeInGivenExactOut(balances[0] * up[0], weights[0], balances[1] * up[1], weights[1], out * up[1]);
  return divUp(divUp(scaled, up[0] * E18), E18 - swapFee);
}

/** UniswapV2Library.getAmountIn: the input for an output of a pair of reserves in and out. */
const getAmountIn = (out: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (reserveIn * out * 1000n) / ((reserveOut - out) * 997n) + 1n;
/** WBTC in for USDC out through the WBTC/USDC pair. */
const pairInput = (out: bigint): bigint => getAmountIn(out, reserves[0], reserves[1]);
/** WBTC in for USDC out through WETH (UniswapV2Library.getAmountsIn). */
const wethInput = (out: bigint): bigint =>
  getAmountIn(getAmountIn(out, BigInt(pairs[2].reserve1), BigInt(pairs[2].reserve0)), BigInt(pairs[1].reserve0), BigInt(pairs[1].reserve1));

const request = {
  tokenIn: WBTC,
  tokenOut: USDC,
  tradeType: 'exactOut' as const,
  amount: amountOut,
  maxHops: 3,
  gasPriceWei: 0n,
  allow: () => true,
};

t.test('the Balancer pool asks more than an exact input may give it, and is still the cheapest path', async (t) => {
  const viaBalancer = balancerInput(amountOut);
  const viaPair = pairInput(amountOut);
  t.ok(viaBalancer * 10n > balances[0] * 3n, `${viaBalancer} WBTC in: more than 30% of its balance (an exact input's most)`);
  const viaWeth = wethInput(amountOut);
  t.ok(viaBalancer < viaPair && viaBalancer < viaWeth, `Balancer ${viaBalancer} < the v2 pair ${viaPair}, through WETH ${viaWeth}`);
  const single = bestTrade(index, { ...request, maxSplits: 1 });
  t.equal(single.ok ? single.trade.amountIn : single.code, viaBalancer, 'one split: the Balancer pool, to the wei');
  t.equal(single.ok ? single.trade.amountOut : 0n, amountOut, 'delivering exactly the amount asked for');
  t.equal(single.ok ? single.trade.splits[0].route.legs[0].pool : '', balancerPool.address, 'through the Balancer pool');
  const split = bestTrade(index, { ...request, maxSplits: 3 });
  t.ok(
    split.ok && split.trade.amountIn <= viaBalancer && split.trade.amountOut === amountOut,
    `splits: ${split.ok ? split.trade.amountIn : split.code} <= ${viaBalancer}, for exactly ${amountOut}`,
  );
});

/** UniswapV2Library.getAmountOut: USDC out for WBTC in. */
const pairOutput = (x: bigint): bigint => (x * 997n * reserves[1]) / (reserves[0] * 1000n + x * 997n);

t.test('exact input: the Balancer pool is given no more than the 30% it takes, in a split too', async (t) => {
  // An exact input of a third of the pool's WBTC: the pool alone cannot take it (the v2 pair carries it), and a split,
  // where the pool's marginal rate stays above the pair's past its limit, gives it its limit (30% of its balance in,
  // net of the fee) and no more.
  const amountIn = balances[0] / 3n;
  const exactIn = { ...request, tradeType: 'exactIn' as const, amount: amountIn };
  const single = bestTrade(index, { ...exactIn, maxSplits: 1 });
  t.equal(single.ok ? single.trade.amountOut : single.code, pairOutput(amountIn), 'one split: the v2 pair, to the wei');
  const split = bestTrade(index, { ...exactIn, maxSplits: 3 });
  const legs = split.ok ? split.trade.splits.flatMap((s) => s.route.legs) : [];
  const balancerLeg = legs.find((l) => l.pool === balancerPool.address);
  t.ok(
    balancerLeg !== undefined &&
      balancerLeg.amountIn * (E18 - swapFee) <= (balances[0] * 3n * E18) / 10n &&
      balancerLeg.amountIn * 1000n > balances[0] * 299n,
    `the split gives the Balancer pool ${balancerLeg?.amountIn}: within 0.1% of its balance below 30% of it, net of the fee`,
  );
  t.ok(split.ok && split.trade.amountOut > pairOutput(amountIn), `and beats the pair alone (${split.ok ? split.trade.amountOut : ''})`);
});
