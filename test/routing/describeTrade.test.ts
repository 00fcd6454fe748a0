// describeTrade on hand-made trades of the test chain (test/helpers/handGraph.ts): the route summary (the DEX with
// the largest share, names, LP fees, the first pool's fee), the paths with every hop, and a native end shown as a
// hop of its own (dex 'wrap', the wrapped token as its pool, no fee), the way the API has always shown it. Expected
// views written out by hand (the hops name tokens by their catalogue addresses: the native asset's is checksummed).
import t from 'tap';
import { type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { ProtocolKind } from '../../src/protocols/registry.ts';
import { describeTrade, type HopView, namePercent } from '../../src/routing/describeTrade.ts';
import type { Leg, Route, Trade } from '../../src/routing/Trade.ts';
import { DAI, ETH, handChain, P, USDC, WETH, XYZ } from '../helpers/handGraph.ts';

const token = (address: string): CatalogToken => handChain.tokens.find((x) => x.address.toLowerCase() === address)!;
const ROUTER = { kind: 'SwapRouter02' as const, address: '0x5555555555555555555555555555555555555555', name: 'Uniswap V3 router' };
const V3_POOL = '0x00000000000000000000000000000000000000b1';

function leg(pool: string, kind: ProtocolKind, fee: number, tokenIn: string, tokenOut: string, amountIn: bigint, amountOut: bigint): Leg {
  return {
    pool,
    kind,
    dex: 'uniswap',
    version: kind === 'uniswapV2' ? 'v2' : 'v3',
    fee,
    tokenIn,
    tokenOut,
    amountIn,
    amountOut,
    ticksCrossed: 0,
    coldSlots: 0,
    movesTick: false,
  };
}
function route(...legs: Leg[]): Route {
  return { legs, amountIn: legs[0].amountIn, amountOut: legs[legs.length - 1].amountOut, executor: ROUTER, gas: 0n };
}
function trade(over: Partial<Trade> & Pick<Trade, 'tokenIn' | 'tokenOut' | 'splits'>): Trade {
  return {
    tradeType: 'exactIn',
    nativeIn: 'none',
    nativeOut: 'none',
    amountIn: over.splits.reduce((s, x) => s + x.route.amountIn, 0n),
    amountOut: over.splits.reduce((s, x) => s + x.route.amountOut, 0n),
    gasEstimate: 100_000n,
    gasPriceWei: 3n,
    gasCost: { tokenIn: 300_000n, tokenOut: null },
    priceImpactBps: 12,
    fees: 777n,
    ...over,
  };
}
const hop = (
  dex: string,
  version: string,
  pool: string,
  fee: number,
  tokenIn: string,
  tokenOut: string,
  a: string,
  b: string,
): HopView => ({
  dex,
  version,
  pool,
  fee,
  tokenIn,
  tokenOut,
  amountIn: a,
  amountOut: b,
});
const gas = {
  gasEstimate: '100000',
  gasPriceWei: '3',
  networkFee: { wei: '300000', inTokenIn: '300000', inTokenOut: null },
  priceImpactBps: 12,
};

t.test('describeTrade: one pool between two ERC-20 tokens', async (t) => {
  const r = route(leg(P(1), 'uniswapV2', 3000, WETH, USDC, 10n ** 18n, 2_950_000_000n));
  t.strictSame(describeTrade(handChain, trade({ tokenIn: WETH, tokenOut: USDC, splits: [{ percent: 100, route: r }] }), token), {
    route: { dex: 'uniswap', name: 'Uniswap V2', fees: '777', logo: '', version: 'v2', poolFee: 3000 },
    pairAddress: P(1),
    paths: [
      {
        percent: 100,
        amountIn: '1000000000000000000',
        amountOut: '2950000000',
        hops: [hop('uniswap', 'v2', P(1), 3000, WETH, USDC, '1000000000000000000', '2950000000')],
      },
    ],
    ...gas,
  });
});

t.test('describeTrade: native input, two hops: the wrap before the first pool is a hop of the path, not of the name', async (t) => {
  const r = route(
    leg(P(2), 'uniswapV2', 3000, WETH, DAI, 2n * 10n ** 18n, 5_900n * 10n ** 18n),
    leg(P(4), 'uniswapV2', 3000, DAI, XYZ, 5_900n * 10n ** 18n, 1_100n * 10n ** 18n),
  );
  const view = describeTrade(
    handChain,
    trade({ tokenIn: ETH, tokenOut: XYZ, nativeIn: 'wrapped', splits: [{ percent: 100, route: r }] }),
    token,
  );
  t.strictSame(view.route, { dex: 'uniswap', name: 'WETH → DAI → XYZ on Uniswap V2', fees: '777', logo: '', version: 'v2', poolFee: 3000 });
  t.equal(view.pairAddress, P(2), 'the first pool, not the wrapped token');
  t.strictSame(view.paths, [
    {
      percent: 100,
      amountIn: '2000000000000000000',
      amountOut: '1100000000000000000000',
      hops: [
        hop('wrap', '', WETH, 0, NATIVE_TOKEN_ADDRESS, WETH, '2000000000000000000', '2000000000000000000'),
        hop('uniswap', 'v2', P(2), 3000, WETH, DAI, '2000000000000000000', '5900000000000000000000'),
        hop('uniswap', 'v2', P(4), 3000, DAI, XYZ, '5900000000000000000000', '1100000000000000000000'),
      ],
    },
  ]);
});

t.test('describeTrade: native output over two splits: each path ends with its own unwrap', async (t) => {
  const v3 = route(leg(V3_POOL, 'uniswapV3', 500, USDC, WETH, 700_000_000n, 230_000_000_000_000_000n));
  const v2 = route(leg(P(1), 'uniswapV2', 3000, USDC, WETH, 300_000_000n, 99_000_000_000_000_000n));
  const view = describeTrade(
    handChain,
    trade({
      tokenIn: USDC,
      tokenOut: ETH,
      nativeOut: 'wrapped',
      splits: [
        { percent: 70, route: v3 },
        { percent: 30, route: v2 },
      ],
    }),
    token,
  );
  // 70% on Uniswap V3, 30% on Uniswap V2: V3 carries the largest share; its pool's fee is the first pool's.
  t.strictSame(view.route, { dex: 'uniswap', name: 'Uniswap V3 70% + Uniswap V2 30%', fees: '777', logo: '', version: 'v3', poolFee: 500 });
  t.equal(view.pairAddress, V3_POOL);
  t.strictSame(view.paths, [
    {
      percent: 70,
      amountIn: '700000000',
      amountOut: '230000000000000000',
      hops: [
        hop('uniswap', 'v3', V3_POOL, 500, USDC, WETH, '700000000', '230000000000000000'),
        hop('wrap', '', WETH, 0, WETH, NATIVE_TOKEN_ADDRESS, '230000000000000000', '230000000000000000'),
      ],
    },
    {
      percent: 30,
      amountIn: '300000000',
      amountOut: '99000000000000000',
      hops: [
        hop('uniswap', 'v2', P(1), 3000, USDC, WETH, '300000000', '99000000000000000'),
        hop('wrap', '', WETH, 0, WETH, NATIVE_TOKEN_ADDRESS, '99000000000000000', '99000000000000000'),
      ],
    },
  ]);
  t.strictSame(
    [view.gasEstimate, view.gasPriceWei, view.networkFee, view.priceImpactBps],
    ['100000', '3', { wei: '300000', inTokenIn: '300000', inTokenOut: null }, 12],
  );
});

t.test('describeTrade: a bare wrap or unwrap (no splits) is one wrap hop through the wrapped token', async (t) => {
  const amount = 5n * 10n ** 17n;
  const bare = (tokenIn: string, tokenOut: string, wrapping: boolean): Trade =>
    trade({
      tokenIn,
      tokenOut,
      nativeIn: wrapping ? 'wrapped' : 'none',
      nativeOut: wrapping ? 'none' : 'wrapped',
      amountIn: amount,
      amountOut: amount,
      splits: [],
      fees: 0n,
      priceImpactBps: 0,
    });
  const wrap = describeTrade(handChain, bare(ETH, WETH, true), token);
  t.strictSame(wrap, {
    route: { dex: 'wrap', name: 'WETH wrap', fees: '0', logo: '', version: '', poolFee: 0 },
    pairAddress: WETH,
    paths: [
      {
        percent: 100,
        amountIn: '500000000000000000',
        amountOut: '500000000000000000',
        hops: [hop('wrap', '', WETH, 0, NATIVE_TOKEN_ADDRESS, WETH, '500000000000000000', '500000000000000000')],
      },
    ],
    ...gas,
    priceImpactBps: 0,
  });
  const unwrap = describeTrade(handChain, bare(WETH, ETH, false), token);
  t.strictSame(unwrap.route, { dex: 'wrap', name: 'WETH unwrap', fees: '0', logo: '', version: '', poolFee: 0 });
  t.strictSame(unwrap.paths[0].hops, [hop('wrap', '', WETH, 0, WETH, NATIVE_TOKEN_ADDRESS, '500000000000000000', '500000000000000000')]);
});

// namePercent writes what `Number(percent.toFixed(2))` writes (the oracle: JavaScript's own rounding to two decimals),
// without calling toFixed except near a tie: every share to four decimals (the split's precision), every
// thousandth, the ties whose binary value rounds down (1.005, 0.125 ...) and up, and seeded random doubles.
t.test('namePercent writes a share as Number(percent.toFixed(2)) does', async (t) => {
  const oracle = (p: number): string => (p < 0.01 ? '<0.01%' : `${Number(p.toFixed(2))}%`);
  const values: number[] = [1.005, 1.015, 0.125, 0.135, 2.675, 99.995, 100, 0.01, 0.009999, 33.3333, 66.6667, 1e21, Number.NaN];
  for (let k = 0; k <= 1_000_000; k++) values.push(k / 10_000);
  let seed = 7;
  for (let i = 0; i < 200_000; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    values.push((seed / 2 ** 31) * 100);
  }
  const wrong = values.filter((p) => namePercent(p) !== oracle(p));
  t.strictSame(wrong.slice(0, 5), [], `${wrong.length} of ${values.length} shares written differently`);
  t.equal(namePercent(12.5), '12.5%');
  t.equal(namePercent(7.05), '7.05%');
  t.equal(namePercent(70), '70%');
});
