// What a pool answers for an amount the AMM math refuses: the code says why (issue 22: an overflow is not missing
// liquidity). Pools from test/fixtures/quote-snapshots; the bounds are worked out by hand from the contracts' formulas.
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
// v2 WETH/DAI pair, 30 bps: 10 WETH (token0) / 30,000 DAI (token1).
const wethDai = poolAt('0xBbBBBBbbbBBbBbbbBbBbbbbBBbBbbbbBbBbbBBbB');
const RESERVE_DAI = 30_000n * 10n ** 18n;
const RESERVE_WETH = 10n * 10n ** 18n;
// v3 USDC/DAI pool with no liquidity.
const usdcDai = poolAt('0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC');

t.test('v2: an input whose amountIn x 9970 x reserveOut exceeds uint256 is AMOUNT_TOO_LARGE, the one below it is priced', async (t) => {
  // UniswapV2Library.getAmountOut multiplies amountIn x 9970 by reserveOut under SafeMath: the first input that
  // overflows is floor(MAX_UINT256 / (9970 x reserveOut)) + 1.
  const first = MAX_UINT256 / (9970n * RESERVE_WETH) + 1n;
  const below = first - 1n;
  const out = (below * 9970n * RESERVE_WETH) / (RESERVE_DAI * 10_000n + below * 9970n);
  t.strictSame(quoteLadder(wethDai, false, 'exactIn', [below, first]), [
    { ok: true, amountIn: below, amountOut: out, ticksCrossed: 0, coldSlots: 2, movesTick: false }, // no accumulators in the fixture: both charged as cold
    { ok: false, code: 'AMOUNT_TOO_LARGE', reason: 'v2: intermediate exceeds uint256' },
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
