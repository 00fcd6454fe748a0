import t from 'tap';
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  getTickAtSqrtRatioLog2,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from '../../src/amm/tickMath.ts';
import { b, j, Rng, v3sdk } from './oracle.ts';

const TM = v3sdk.TickMath;

t.test('constants equal TickMath.sol and the SDK', async (t) => {
  t.equal(MIN_TICK, -887272);
  t.equal(MAX_TICK, 887272);
  t.equal(MIN_SQRT_RATIO, 4295128739n);
  t.equal(MAX_SQRT_RATIO, 1461446703485210103287273052203988822378723970342n);
  t.equal(MIN_TICK, TM.MIN_TICK);
  t.equal(MAX_TICK, TM.MAX_TICK);
  t.equal(MIN_SQRT_RATIO, b(TM.MIN_SQRT_RATIO));
  t.equal(MAX_SQRT_RATIO, b(TM.MAX_SQRT_RATIO));
});

t.test('getSqrtRatioAtTick at the bounds (v3-core TickMath.spec values)', async (t) => {
  t.equal(getSqrtRatioAtTick(MIN_TICK), 4295128739n, 'min tick');
  t.equal(getSqrtRatioAtTick(MIN_TICK + 1), 4295343490n, 'min tick + 1');
  t.equal(getSqrtRatioAtTick(MAX_TICK - 1), 1461373636630004318706518188784493106690254656249n, 'max tick - 1');
  t.equal(getSqrtRatioAtTick(MAX_TICK), 1461446703485210103287273052203988822378723970342n, 'max tick');
  t.equal(getSqrtRatioAtTick(0), 1n << 96n, 'tick 0');
  t.throws(() => getSqrtRatioAtTick(MIN_TICK - 1), { code: 'TICK_OUT_OF_RANGE' });
  t.throws(() => getSqrtRatioAtTick(MAX_TICK + 1), { code: 'TICK_OUT_OF_RANGE' });
});

t.test('getSqrtRatioAtTick equals the SDK on every power of two and random ticks', async (t) => {
  const rng = new Rng(11);
  const ticks = [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1, MAX_TICK];
  for (let i = 0; i < 20; i++) ticks.push(1 << i, -(1 << i));
  for (let i = 0; i < 3000; i++) ticks.push(rng.int(MIN_TICK, MAX_TICK));
  let bad = 0;
  for (const tick of ticks.filter((x) => Math.abs(x) <= MAX_TICK)) if (getSqrtRatioAtTick(tick) !== b(TM.getSqrtRatioAtTick(tick))) bad++;
  t.equal(bad, 0);
});

t.test('getTickAtSqrtRatio at the bounds (v3-core TickMath.spec values)', async (t) => {
  for (const f of [getTickAtSqrtRatio, getTickAtSqrtRatioLog2]) {
    t.equal(f(MIN_SQRT_RATIO), MIN_TICK, `${f.name}: min sqrt ratio`);
    t.equal(f(4295343490n), MIN_TICK + 1, `${f.name}: ratio of min tick + 1`);
    t.equal(f(1461373636630004318706518188784493106690254656249n), MAX_TICK - 1, `${f.name}: ratio of max tick - 1`);
    t.equal(f(MAX_SQRT_RATIO - 1n), MAX_TICK - 1, `${f.name}: max sqrt ratio - 1`);
    t.throws(() => f(MIN_SQRT_RATIO - 1n), { code: 'SQRT_PRICE_OUT_OF_RANGE' }, `${f.name}: below min`);
    t.throws(() => f(MAX_SQRT_RATIO), { code: 'SQRT_PRICE_OUT_OF_RANGE' }, `${f.name}: at max`);
  }
});

t.test('getTickAtSqrtRatio (both implementations) equals the SDK on tick boundaries and random prices', async (t) => {
  const rng = new Rng(12);
  const prices: bigint[] = [];
  for (let i = 0; i < 1500; i++) {
    const tick = rng.int(MIN_TICK, MAX_TICK - 1);
    const r = b(TM.getSqrtRatioAtTick(tick));
    prices.push(r, r + 1n);
    if (r - 1n >= MIN_SQRT_RATIO) prices.push(r - 1n);
    prices.push(rng.range(MIN_SQRT_RATIO, MAX_SQRT_RATIO - 1n));
    // Log-uniform prices across the whole range.
    prices.push(BigInt.asUintN(160, rng.bits(rng.int(33, 160))) | (1n << 32n));
  }
  let bad = 0;
  for (const p of prices) {
    if (p < MIN_SQRT_RATIO || p >= MAX_SQRT_RATIO) continue;
    const expected = TM.getTickAtSqrtRatio(j(p));
    if (getTickAtSqrtRatio(p) !== expected) bad++;
    if (getTickAtSqrtRatioLog2(p) !== expected) bad++;
  }
  t.equal(bad, 0);
});
