import t from 'tap';
import {
  amountToTarget,
  computeSwapStep,
  createStepEnd,
  createStepReach,
  stepEndingInside,
  stepReachingTarget,
} from '../../src/amm/swapMath.ts';
import { b, j, Rng, v3sdk } from './oracle.ts';

const Q96 = 1n << 96n;
const E18 = 10n ** 18n;
// encodePriceSqrt(101, 100) and encodePriceSqrt(1000, 100), floored.
const PRICE_1_01 = 79623317895830914510639640423n;
const PRICE_10 = 250541448375047931186413801569n;

function sdkStep(cur: bigint, target: bigint, l: bigint, rem: bigint, fee: number): bigint[] {
  return v3sdk.SwapMath.computeSwapStep(j(cur), j(target), j(l), j(rem), fee).map(b);
}

function ours(cur: bigint, target: bigint, l: bigint, rem: bigint, fee: number): bigint[] {
  const s = computeSwapStep(cur, target, l, rem, BigInt(fee));
  return [s.sqrtRatioNextX96, s.amountIn, s.amountOut, s.feeAmount];
}

/** A random current price and a target either side of it, within [MIN_SQRT_RATIO, MAX_SQRT_RATIO]. */
function randomPrices(rng: Rng): { cur: bigint; target: bigint } {
  const cur = rng.range(4295128740n, 1461446703485210103287273052203988822378723970341n);
  const move = rng.bits(rng.int(1, 100));
  const zeroForOne = rng.next() < 0.5;
  let target = zeroForOne ? cur - (cur * move) / (1n << 100n) : cur + (cur * move) / (1n << 100n);
  if (target < 4295128739n) target = 4295128739n;
  if (target > 1461446703485210103287273052203988822378723970342n) target = 1461446703485210103287273052203988822378723970342n;
  return { cur, target };
}

t.test('computeSwapStep: v3-core SwapMath.spec scenarios equal the SDK', async (t) => {
  const scenarios: [string, bigint, bigint, bigint, bigint, number][] = [
    ['exact amount in that gets capped at price target, one for zero', Q96, PRICE_1_01, 2n * E18, E18, 600],
    ['exact amount out that gets capped at price target, one for zero', Q96, PRICE_1_01, 2n * E18, -E18, 600],
    ['exact amount in that is fully spent, one for zero', Q96, PRICE_10, 2n * E18, E18, 600],
    ['exact amount out that is fully received, one for zero', Q96, PRICE_10, 2n * E18, -E18, 600],
    [
      'amount out is capped at the desired amount out',
      417332158212080721273783715441582n,
      1452870262520218020823638996n,
      159344665391607089467575320103n,
      -1n,
      1,
    ],
    ['target price of 1 uses partial input amount', 2n, 1n, 1n, 3915081100057732413702495386755767n, 1],
    ['entire input amount taken as fee', 2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872],
    [
      'handles intermediate insufficient liquidity in zero for one exact output',
      20282409603651670423947251286016n,
      (20282409603651670423947251286016n * 11n) / 10n,
      1024n,
      -4n,
      3000,
    ],
    [
      'handles intermediate insufficient liquidity in one for zero exact output',
      20282409603651670423947251286016n,
      (20282409603651670423947251286016n * 9n) / 10n,
      1024n,
      -263000n,
      3000,
    ],
  ];
  for (const [name, cur, target, l, rem, fee] of scenarios) t.same(ours(cur, target, l, rem, fee), sdkStep(cur, target, l, rem, fee), name);
  // Fixed values (v3-core SwapMath.spec): capped at the target, one for zero, exact in.
  t.same(ours(Q96, PRICE_1_01, 2n * E18, E18, 600), [PRICE_1_01, 9975124224178055n, 9925619580021728n, 5988667735148n]);
  // Entire input taken as fee.
  t.same(ours(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872), [2413n, 0n, 0n, 10n]);
  // Intermediate insufficient liquidity, zero for one exact output.
  t.same(ours(20282409603651670423947251286016n, (20282409603651670423947251286016n * 11n) / 10n, 1024n, -4n, 3000), [
    (20282409603651670423947251286016n * 11n) / 10n,
    26215n,
    0n,
    79n,
  ]);
});

t.test('computeSwapStep equals the SDK on random steps (both directions, exact in and out, any fee)', async (t) => {
  const rng = new Rng(9);
  let bad = 0;
  let n = 0;
  for (let i = 0; i < 4000; i++) {
    const { cur, target } = randomPrices(rng);
    const l = rng.next() < 0.05 ? 0n : rng.bits(rng.int(1, 128));
    const mag = rng.bits(rng.int(1, 200)) + 1n;
    const rem = rng.next() < 0.5 ? mag : -mag;
    const fee = rng.pick([0, 1, 100, 500, 3000, 10000, 999_999, rng.int(0, 999_999)]);
    // Targets stay inside [MIN_SQRT_RATIO, MAX_SQRT_RATIO] and liquidity inside uint128: the contract does not
    // revert on these steps, so neither side may throw and every step is compared by value (no skips).
    let expected: bigint[] | string;
    try {
      expected = sdkStep(cur, target, l, rem, fee);
    } catch (e) {
      expected = `SDK threw ${String(e)}`;
    }
    let got: bigint[] | string;
    try {
      got = ours(cur, target, l, rem, fee);
    } catch (e) {
      got = `ours threw ${String(e)}`;
    }
    n++;
    if (
      typeof expected === 'string' ||
      typeof got === 'string' ||
      JSON.stringify(expected, (_, v) => (typeof v === 'bigint' ? v.toString() : v)) !==
        JSON.stringify(got, (_, v) => (typeof v === 'bigint' ? v.toString() : v))
    )
      bad++;
  }
  t.equal(bad, 0, `${n} steps compared`);
});

// The ladder walk (src/amm/swap.ts) computes a step that ends before its target as v4-core's SwapMath does: exact input
// takes the whole remainder (no amountIn recomputed), exact output receives the whole remaining output (no amountOut
// recomputed). That holds for v3-core's computeSwapStep too: checked here on the SDK's, from steps that end inside.
t.test('a v3 step that ends before its target takes the whole remainder: exact input amountIn + fee, exact output amountOut', async (t) => {
  const rng = new Rng(24);
  let inside = 0;
  let onTarget = 0;
  let bad = 0;
  let endsCompared = 0;
  let endsBad = 0;
  for (let i = 0; i < 6000; i++) {
    const { cur, target } = randomPrices(rng);
    const l = rng.bits(rng.int(1, 128));
    const fee = rng.pick([0, 1, 100, 500, 3000, 10000, rng.int(0, 999_999)]);
    const exactIn = rng.next() < 0.5;
    // What reaching the target takes (exact input: with its fee), then a remainder below it.
    const [, toIn, toOut, toFee] = sdkStep(cur, target, l, exactIn ? 1n << 255n : -(1n << 255n), fee);
    const reach = exactIn ? toIn + toFee : toOut;
    if (reach < 2n) continue;
    const rem = reach <= 3n ? 1n : rng.range(1n, reach - 2n);
    const [next, amountIn, amountOut, feeAmount] = sdkStep(cur, target, l, exactIn ? rem : -rem, fee);
    if (next === target) onTarget++;
    inside++;
    if (exactIn ? amountIn + feeAmount !== rem : amountOut !== rem) bad++;
    if (next === target) continue;
    // The walk's own step (stepEndingInside) gives the SDK's price and what the swapper's totals read.
    const lessFee = exactIn ? (rem * (1_000_000n - BigInt(fee))) / 1_000_000n : rem;
    const end = stepEndingInside(cur, l, exactIn, lessFee, target < cur, BigInt(fee), 1_000_000n - BigInt(fee), createStepEnd());
    endsCompared++;
    if (end.sqrtRatioNextX96 !== next || end.swapped !== (exactIn ? amountOut : amountIn + feeAmount)) endsBad++;
  }
  t.ok(inside > 4000, `${inside} steps ending inside (${onTarget} of them exactly on the target)`);
  t.equal(bad, 0, 'every one took its whole remainder');
  t.ok(endsCompared > 3000, `${endsCompared} steps ending strictly inside compared with stepEndingInside`);
  t.equal(endsBad, 0, "stepEndingInside's price and amount swapped equal the SDK's step");
});

// The ladder walk's step that reaches its target (stepReachingTarget) against the SDK's computeSwapStep, from
// remainders at least what reaching the target takes: the amount taken and swapped as the swapper's totals read them.
t.test("stepReachingTarget: a step that reaches its target takes and swaps what the SDK's computeSwapStep does", async (t) => {
  const rng = new Rng(2424);
  let compared = 0;
  let bad = 0;
  for (let i = 0; i < 4000; i++) {
    const prices = randomPrices(rng);
    // Now and then a step of no length (the target is the price).
    const target = rng.next() < 0.05 ? prices.cur : prices.target;
    const cur = prices.cur;
    const l = rng.bits(rng.int(1, 128));
    const fee = rng.pick([0, 1, 100, 500, 3000, 10000, rng.int(0, 999_999)]);
    const exactIn = rng.next() < 0.5;
    const [, toIn, toOut, toFee] = sdkStep(cur, target, l, exactIn ? 1n << 255n : -(1n << 255n), fee);
    const reach = exactIn ? toIn + toFee : toOut;
    // Exactly what reaching takes, or more.
    const rem = rng.next() < 0.3 ? reach : reach + rng.bits(rng.int(1, 100));
    if (rem === 0n || rem >= 1n << 255n) continue;
    const [next, amountIn, amountOut, feeAmount] = sdkStep(cur, target, l, exactIn ? rem : -rem, fee);
    if (next !== target) continue;
    const zeroForOne = cur >= target;
    const toTarget = amountToTarget(cur, target, l, exactIn, zeroForOne);
    const feePips = BigInt(fee);
    const got = stepReachingTarget(cur, target, l, exactIn, zeroForOne, toTarget, feePips, 1_000_000n - feePips, createStepReach());
    compared++;
    const taken = exactIn ? amountIn + feeAmount : amountOut;
    const swapped = exactIn ? amountOut : amountIn + feeAmount;
    if (got.taken !== taken || got.swapped !== swapped) bad++;
  }
  t.ok(compared > 3000, `${compared} steps reaching their target compared`);
  t.equal(bad, 0, "stepReachingTarget's amounts taken and swapped equal the SDK's step");
});
