// What a pool answers for an amount the AMM math or the pool contract refuses: the code says why (issue 22: an
// overflow is not missing liquidity; issue 23: nor is a balance a v2 pair's uint112 reserves cannot hold). Pools from test/fixtures/quote-snapshots; the bounds are worked out by hand from the contracts' formulas.
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import { type Pool, protocolOf, type SnapshotPool, snapshotProtocol } from '../../src/protocols/registry.ts';

const poolFromSnapshot = (state: SnapshotPool): Pool => snapshotProtocol(state.version).fromSnapshot(state);
const quoteLadder = (pool: Pool, zeroForOne: boolean, tradeType: TradeType, amounts: readonly bigint[]) =>
  protocolOf(pool.kind).quoteLadder(pool, zeroForOne, tradeType, amounts);
const fixture = JSON.parse(readFileSync(new URL('../fixtures/quote-snapshots/testchain.json', import.meta.url), 'utf8')) as {
  pools: SnapshotPool[];
};
const poolAt = (address: string) => poolFromSnapshot(fixture.pools.find((p) => p.address === address)!);

const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_UINT112 = 2n ** 112n - 1n;
const UINT112_REASON = "the pair's token balance would exceed uint112 (UniswapV2: OVERFLOW)";
// v2 WETH/DAI pair, 30 bps: 10 WETH (token0) / 30,000 DAI (token1).
const wethDai = poolAt('0xBbBBBBbbbBBbBbbbBbBbbbbBBbBbbbbBbBbbBBbB');
const RESERVE_DAI = 30_000n * 10n ** 18n;
const RESERVE_WETH = 10n * 10n ** 18n;
// v3 USDC/DAI pool with no liquidity.
const usdcDai = poolAt('0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC');

t.test('v2: an input whose amountIn x 9970 x reserveOut exceeds uint256 is AMOUNT_TOO_LARGE, as is the one below it', async (t) => {
  // UniswapV2Library.getAmountOut multiplies amountIn x 9970 by reserveOut under SafeMath: the first input that
  // overflows is floor(MAX_UINT256 / (9970 x reserveOut)) + 1 (the router reverts there, before the pair). The one
  // below passes the library, but the pair's DAI balance would then be far beyond uint112 (UniswapV2: OVERFLOW).
  const first = MAX_UINT256 / (9970n * RESERVE_WETH) + 1n;
  const below = first - 1n;
  t.ok(RESERVE_DAI + below > MAX_UINT112, 'beyond uint112 (hand check)');
  t.strictSame(quoteLadder(wethDai, false, 'exactIn', [below, first]), [
    { ok: false, code: 'AMOUNT_TOO_LARGE', reason: UINT112_REASON },
    { ok: false, code: 'AMOUNT_TOO_LARGE', reason: 'v2: intermediate exceeds uint256' },
  ]);
});

t.test('v2: an input that leaves the pair a balance of exactly 2^112 - 1 is priced, one more unit is AMOUNT_TOO_LARGE', async (t) => {
  // UniswapV2Pair._update: require(balance0 <= uint112(-1) && balance1 <= uint112(-1), 'UniswapV2: OVERFLOW'), the
  // balances after the input arrived (reserve + amountIn, the fixture's balances being its reserves).
  t.equal(MAX_UINT112, 5192296858534827628530496329220095n, '2^112 - 1');
  for (const [zeroForOne, reserveIn, reserveOut] of [
    [false, RESERVE_DAI, RESERVE_WETH],
    [true, RESERVE_WETH, RESERVE_DAI],
  ] as const) {
    const fits = MAX_UINT112 - reserveIn;
    // getAmountOut by hand: amountIn x 9970 x reserveOut / (reserveIn x 10000 + amountIn x 9970).
    const out = (fits * 9970n * reserveOut) / (reserveIn * 10_000n + fits * 9970n);
    t.strictSame(
      quoteLadder(wethDai, zeroForOne, 'exactIn', [fits, fits + 1n]),
      [
        { ok: true, amountIn: fits, amountOut: out, ticksCrossed: 0, coldSlots: 2, movesTick: false },
        { ok: false, code: 'AMOUNT_TOO_LARGE', reason: UINT112_REASON },
      ],
      zeroForOne ? 'WETH in' : 'DAI in',
    );
  }
  t.equal(MAX_UINT112 - RESERVE_DAI, 5192296858504827628530496329220095n, 'DAI in: the largest input (hand check)');
});

t.test('v2: an exact output whose input would leave the pair a balance beyond 2^112 - 1 is AMOUNT_TOO_LARGE', async (t) => {
  // getAmountIn by hand: 3e22 x out x 10000 / ((1e19 - out) x 9970) + 1. Buying 9999999999942048246 WETH units
  // (1e19 - 57951754 left) costs 5192296821984531052954125865220212 DAI units: 3e22 + that <= 2^112 - 1; one more WETH
  // unit costs 5192296911581420762478897683021188: beyond.
  const last = 9_999_999_999_942_048_246n;
  const cost = (out: bigint) => (RESERVE_DAI * out * 10_000n) / ((RESERVE_WETH - out) * 9970n) + 1n;
  t.equal(cost(last), 5192296821984531052954125865220212n, 'cost of the last output (hand check)');
  t.equal(cost(last + 1n), 5192296911581420762478897683021188n, 'cost of one unit more (hand check)');
  t.ok(RESERVE_DAI + cost(last) <= MAX_UINT112 && RESERVE_DAI + cost(last + 1n) > MAX_UINT112, 'either side of the bound');
  t.strictSame(quoteLadder(wethDai, false, 'exactOut', [last, last + 1n]), [
    { ok: true, amountIn: 5192296821984531052954125865220212n, amountOut: last, ticksCrossed: 0, coldSlots: 2, movesTick: false },
    { ok: false, code: 'AMOUNT_TOO_LARGE', reason: UINT112_REASON },
  ]);
});

t.test('v2: an output the reserve cannot pay is INSUFFICIENT_LIQUIDITY', async (t) => {
  t.strictSame(quoteLadder(wethDai, false, 'exactOut', [RESERVE_WETH]), [
    { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: 'getAmountIn: amountOut must be less than the output reserve' },
  ]);
});

t.test(
  'v3: an amount beyond int256 (UniswapV3Pool.swap reverts AS) is AMOUNT_TOO_LARGE; within it, the walk leaves the known ticks',
  async (t) => {
    t.strictSame(quoteLadder(usdcDai, true, 'exactIn', [2n ** 255n]), [
      { ok: false, code: 'AMOUNT_TOO_LARGE', reason: 'swap: amount must be non-zero and fit in int256 (AS)' },
    ]);
    // Within int256 the swap walks: the empty pool's price runs through its known bitmap words without filling.
    t.strictSame(quoteLadder(usdcDai, true, 'exactIn', [2n ** 255n - 1n]), [
      { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: "the amount walks past the pool's known ticks" },
    ]);
  },
);

t.test("v3: an input the pool's balance check (balanceBefore.add(amount), uint256) cannot add is AMOUNT_TOO_LARGE", async (t) => {
  // UniswapV3Pool.swap: require(balance0Before.add(uint256(amount0)) <= balance0(), 'IIA') with LowGasSafeMath, which
  // reverts when the sum exceeds 2^256 - 1. A pool at tick 0 with 2.5e18 liquidity over [-600, 600] holding
  // 2^256 - 5e16 of token0: 5e16 - 1 in sums to exactly 2^256 - 1, 5e16 overflows (both stay inside the range:
  // token0 to tick -600 is 2.5e18 x (1/0.97045 - 1) ~ 7.6e16).
  const L = 25n * 10n ** 17n;
  const pool = poolFromSnapshot({
    address: '0xdDdDddDdDDdDDDDdDDdDdddDdDDdDDDdDddDDDDD',
    dex: 'uniswap',
    version: 'v3',
    token0: '0x1111111111111111111111111111111111111111',
    token1: '0x2222222222222222222222222222222222222222',
    fee: 3000,
    balance0: (MAX_UINT256 - 5n * 10n ** 16n + 1n).toString(),
    balance1: '0',
    sqrtPriceX96: (2n ** 96n).toString(),
    tick: 0,
    liquidity: L.toString(),
    tickSpacing: 60,
    bitmapWords: [-1, 0],
    ticks: [
      [-600, L.toString()],
      [600, (-L).toString()],
    ],
  } as SnapshotPool);
  const [fits, over] = quoteLadder(pool, true, 'exactIn', [5n * 10n ** 16n - 1n, 5n * 10n ** 16n]);
  t.ok(fits.ok, 'the sum at 2^256 - 1 is priced');
  t.strictSame(over, { ok: false, code: 'AMOUNT_TOO_LARGE', reason: "the pool's token balance would exceed uint256" });
});
