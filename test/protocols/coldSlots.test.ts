// v3ColdSlots by hand, from UniswapV3Pool.swap and Tick.cross (v3-core): which of the pool's slots a swap writes
// from zero, given which hold a value. The devnet test checks the same counts against the chain's storage diffs.
import t from 'tap';
import { createV3Pool } from '../../src/amm/v3Pool.ts';
import { type V3SlotState, v3ColdSlots } from '../../src/protocols/uniswapV3/coldSlots.ts';

const pool = (liquidity: bigint, fee = 3000) =>
  createV3Pool({
    sqrtPriceX96: 2n ** 96n,
    tick: 0,
    liquidity,
    tickSpacing: 60,
    fee,
    ticks: [
      [-60, 100n],
      [60, -100n],
    ],
    bitmapWords: [-1, 0],
  });
const slots = (feeGrowthSet: V3SlotState['feeGrowthSet'], outside: Record<number, number> = {}): V3SlotState => ({
  feeGrowthSet,
  outsideSet: new Map(Object.entries(outside).map(([k, v]) => [Number(k), v])),
});

t.test('token0 in, down across tick -60 whose outside0 is set; global0 set, global1 zero', async (t) => {
  // feeGrowthGlobal0 already non-zero: rewritten. Tick -60: outside0 = global0 - outside0 (set, rewritten);
  // outside1 = global1 (0) - 0 = 0: a zero written as zero, not a cold write.
  t.equal(v3ColdSlots(pool(100n), slots([true, false], { '-60': 1 }), true, 10n, -61, 0n), 0);
});

t.test('token1 in, up across tick 60 with both outside zero; global0 set, global1 zero', async (t) => {
  // global1 written from zero by the fee (1); tick 60: outside1 = global1 (now non-zero) - 0 (1), outside0 =
  // global0 - 0 (1).
  t.equal(v3ColdSlots(pool(100n), slots([true, false]), false, 10n, 61, 0n), 3);
});

t.test('a swap that crosses no tick on a never-traded pool writes only its fee growth from zero', async (t) => {
  t.equal(v3ColdSlots(pool(100n), slots([false, false]), true, 10n, -1, 100n), 1);
  t.equal(v3ColdSlots(pool(100n, 0), slots([false, false]), true, 10n, -1, 100n), 0, 'a fee-free pool writes no fee growth');
  t.equal(v3ColdSlots(pool(100n), slots([true, true]), true, 10n, -1, 100n), 0, 'traded pool: nothing from zero');
});

t.test('unknown state (an older snapshot): every such write counts as from zero', async (t) => {
  t.equal(v3ColdSlots(pool(100n), slots(undefined), true, 10n, -61, 0n), 3, 'the global and both outside values of tick -60');
});

t.test('a swap starting where there is no liquidity and crossing into some writes the liquidity slot from zero', async (t) => {
  t.equal(v3ColdSlots(pool(0n), slots([true, true], { '60': 3 }), false, 10n, 61, 100n), 1);
});
