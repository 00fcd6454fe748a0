// Randomized differential test: our swap loop and quoters against @uniswap/v3-sdk's Pool + TickListDataProvider
// (v3Swap for fee tiers the Pool class does not know). Seeded: AMM_DIFF_SEED, AMM_DIFF_POOLS override.
//
// Known differences between the SDK and the contracts (the contracts win; none changes a swap result here):
// - v3Swap stops on `state.sqrtPriceX96 !== sqrtPriceLimitX96`, an object-identity test on JSBI values. When a step
//   ends on a limit equal to a tick's sqrt price, the SDK runs one more, empty, iteration (and asks its tick source
//   for one more word); UniswapV3Pool.swap stops. Results are equal; with a windowed tick source the extra lookup
//   could fall outside the window, so we follow the contract.
// - SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown (add) has no uint160 / uint256 bound in the SDK (the
//   contract reverts in toUint160 / SafeMath; see sqrtPriceMath.test.ts), FullMath.mulDivRoundingUp has no
//   256-bit overflow check, and LiquidityMath.addDelta does not revert on uint128 under/overflow ('LS' / 'LA').
// - QuoterV2 (not the SDK) reverts where we answer with a flag: exact output without a price limit that cannot be
//   filled (we return filledFully: false), and swaps that move no token at all (amountIn 0, filledFully: false).
import t from 'tap';
import {
  quoteExactInputLadder,
  quoteExactInputSingle,
  quoteExactOutputLadder,
  quoteExactOutputSingle,
  type V3QuoteResult,
} from '../../src/amm/quoter.ts';
import { type SwapResult, swap } from '../../src/amm/swap.ts';
import { createV3Pool, type V3Pool } from '../../src/amm/v3Pool.ts';
import {
  b,
  estimateAmount,
  fullWords,
  j,
  type RandomPool,
  Rng,
  randomPool,
  type SdkPool,
  type SdkSwapResult,
  sdkPoolOf,
  v3sdk,
} from './oracle.ts';

const SEED = Number(process.env.AMM_DIFF_SEED ?? 20240611);
const POOLS = Number(process.env.AMM_DIFF_POOLS ?? 245);
const SWAPS_PER_POOL = 36;
const MIN_SQRT = b(v3sdk.TickMath.MIN_SQRT_RATIO);
const MAX_SQRT = b(v3sdk.TickMath.MAX_SQRT_RATIO);

interface Case {
  zeroForOne: boolean;
  amountSpecified: bigint;
  limit: bigint;
}

function ourPool(p: RandomPool, words: [number, number]): V3Pool {
  const [first, last] = words;
  const s = p.tickSpacing;
  return createV3Pool({
    sqrtPriceX96: p.sqrtPriceX96,
    tick: p.tick,
    liquidity: p.liquidity,
    tickSpacing: s,
    fee: p.fee,
    ticks: p.ticks.filter(([tick]) => (tick / s) >> 8 >= first && (tick / s) >> 8 <= last).map(([tick, net]) => [tick, net] as const),
    bitmapWords: [first, last],
  });
}

/** A price limit 3 bitmap words past the last initialized tick ahead (0 when that is not a valid limit). */
function edgeLimit(p: RandomPool, zeroForOne: boolean, ahead: number[]): bigint {
  const s = p.tickSpacing;
  const last = ahead.length > 0 ? ahead[ahead.length - 1] : p.tick;
  const edge = Math.max(-887272, Math.min(887272, last + (zeroForOne ? -1 : 1) * 3 * 256 * s));
  const limit = b(v3sdk.TickMath.getSqrtRatioAtTick(edge));
  const valid = zeroForOne ? limit < p.sqrtPriceX96 && limit > MIN_SQRT : limit > p.sqrtPriceX96 && limit < MAX_SQRT;
  return valid ? limit : 0n;
}

/** A swap that crosses a random number of initialized ticks (0 to all), sometimes with a price limit. */
function randomCase(rng: Rng, p: RandomPool, direction?: boolean, exactIn?: boolean): Case {
  const zeroForOne = direction ?? rng.next() < 0.5;
  const exactInput = exactIn ?? rng.next() < 0.5;
  const points = p.ticks.map((x) => x[0]);
  const ahead = zeroForOne ? points.filter((x) => x <= p.tick).reverse() : points.filter((x) => x > p.tick);
  const roll = rng.next();
  let amount: bigint;
  if (roll < 0.03) {
    amount = BigInt(rng.int(1, 1000));
  } else if (roll < 0.06 || ahead.length === 0) {
    // Past all liquidity: the walk runs to the price bound, or for small spacings (thousands of empty bitmap
    // words, slow for the SDK) to a limit a few words past the last initialized tick.
    amount = rng.logUniform(20, 40);
    if (p.tickSpacing <= 10) return { zeroForOne, amountSpecified: exactInput ? amount : -amount, limit: edgeLimit(p, zeroForOne, ahead) };
  } else {
    const r = rng.next();
    const k = Math.min(ahead.length - 1, r < 0.33 ? 0 : r < 0.63 ? rng.int(1, 10) : rng.int(10, 200));
    // Aim between the k-th and (k+1)-th initialized tick ahead.
    const s = p.tickSpacing;
    const from = k === 0 ? p.tick : ahead[k - 1];
    const to = ahead[k];
    const target = Math.max(-887000, Math.min(887000, Math.round(from + (to - from) * rng.next() + (zeroForOne ? -s : s) * rng.next())));
    const est = estimateAmount(p, zeroForOne, target, exactInput);
    const scaled = Math.max(1, Math.min(1e70, Math.floor(est * (exactInput ? 1.01 : 1) * (0.9 + 0.2 * rng.next()))));
    amount = BigInt(scaled.toLocaleString('fullwide', { useGrouping: false }));
  }
  let limit = 0n;
  if (rng.next() < 0.2) {
    const cur = p.sqrtPriceX96;
    if (rng.next() < 0.3 && ahead.length > 0) {
      // Exactly on an initialized tick's price.
      const at = b(v3sdk.TickMath.getSqrtRatioAtTick(rng.pick(ahead)));
      limit = at;
    } else {
      const span = zeroForOne ? cur - MIN_SQRT : MAX_SQRT - cur;
      const frac = BigInt(Math.floor(rng.next() ** 6 * 1e9));
      limit = zeroForOne ? cur - (span * frac) / 1_000_000_000n : cur + (span * frac) / 1_000_000_000n;
    }
    const valid = zeroForOne ? limit < cur && limit > MIN_SQRT : limit > cur && limit < MAX_SQRT;
    if (!valid) limit = 0n;
  }
  if (limit === 0n && p.tickSpacing <= 10) {
    // Spacings 1 and 10 have 700 to 7,000 empty bitmap words between the last liquidity and the price bound; the
    // SDK needs ~10 us per word, so walks that run out of liquidity stop at a limit a few words past it instead.
    limit = edgeLimit(p, zeroForOne, ahead);
  }
  return { zeroForOne, amountSpecified: exactInput ? amount : -amount, limit };
}

/** The AmmError codes each SDK revert reason stands for (v3Swap's invariants; "Invariant failed" is SqrtPriceMath's). */
const SDK_REVERT_KINDS: Record<string, readonly string[]> = {
  'Invariant failed: RATIO_MIN': ['INVALID_PRICE_LIMIT'],
  'Invariant failed: RATIO_MAX': ['INVALID_PRICE_LIMIT'],
  'Invariant failed: RATIO_CURRENT': ['INVALID_PRICE_LIMIT'],
  'Invariant failed': ['OVERFLOW', 'PRICE_OUT_OF_BOUNDS'],
};

const sdkMs = { main: 0, recheck: 0, ladder: 0 };

async function sdkSwap(pool: SdkPool, c: Case, label: keyof typeof sdkMs = 'main'): Promise<SdkSwapResult | Error> {
  const t0 = performance.now();
  try {
    return await pool.swap(c.zeroForOne, j(c.amountSpecified), c.limit === 0n ? undefined : j(c.limit));
  } catch (e) {
    return e as Error;
  } finally {
    sdkMs[label] += performance.now() - t0;
  }
}

function same(ours: SwapResult, sdk: SdkSwapResult): boolean {
  return (
    ours.complete &&
    ours.amountCalculated === b(sdk.amountCalculated) &&
    ours.sqrtPriceX96 === b(sdk.sqrtRatioX96) &&
    ours.tick === sdk.tickCurrent &&
    ours.liquidity === b(sdk.liquidity)
  );
}

function describe(p: RandomPool, c: Case): string {
  return JSON.stringify(
    { fee: p.fee, sqrtPriceX96: p.sqrtPriceX96, tick: p.tick, liquidity: p.liquidity, tickList: p.ticks.map(([x, n]) => [x, n]), ...c },
    (_, v) => (typeof v === 'bigint' ? v.toString() : v),
  );
}

t.test('swap equals @uniswap/v3-sdk Pool.swap on random pools and swaps', async (t) => {
  const rng = new Rng(SEED);
  let cases = 0;
  let mismatches = 0;
  let partial = 0;
  let windowed = 0;
  let unknown = 0;
  let ladders = 0;
  let outputLadders = 0;
  let outputPartial = 0;
  let bothFailed = 0;
  const crossedHistogram = { zero: 0, upTo10: 0, upTo100: 0, over100: 0 };
  const fees: Record<number, number> = {};
  const failures: string[] = [];
  for (let pi = 0; pi < POOLS; pi++) {
    const p = randomPool(rng, { maxPositions: rng.next() < 0.4 ? 200 : 40, otherTiers: true });
    const sdk = sdkPoolOf(p);
    // The whole bitmap is known, except for spacings 1 and 2 (3,500+ words, slow to build): there the window spans
    // the initialized ticks and 4 words beyond, and walks past it must say so.
    const s = p.tickSpacing;
    const curWord = Math.floor(p.tick / s) >> 8;
    const words: [number, number] =
      s <= 2 ? [Math.floor(p.ticks[0][0] / s / 256) - 4, Math.floor(p.ticks[p.ticks.length - 1][0] / s / 256) + 4] : fullWords(s);
    if (words[0] > curWord) words[0] = curWord - 1;
    if (words[1] < curWord) words[1] = curWord + 1;
    const full = ourPool(p, words);
    const k = rng.int(0, 2);
    const narrow = ourPool(p, [curWord - k, curWord + k]);
    for (let si = 0; si < SWAPS_PER_POOL; si++) {
      const c = randomCase(rng, p);
      fees[p.fee] = (fees[p.fee] ?? 0) + 1;
      const expected = await sdkSwap(sdk, c);
      let ours: SwapResult | Error;
      try {
        ours = swap(full, c.zeroForOne, c.amountSpecified, c.limit);
      } catch (e) {
        ours = e as Error;
      }
      cases++;
      if (expected instanceof Error || ours instanceof Error) {
        // Both must fail, for the same reason: counted, bounded below, and the kinds compared.
        const code = (ours as { code?: unknown }).code;
        const kinds = expected instanceof Error ? SDK_REVERT_KINDS[expected.message] : undefined;
        if (!(expected instanceof Error && ours instanceof Error) || kinds === undefined || !kinds.includes(String(code))) {
          mismatches++;
          failures.push(`error mismatch sdk=${String(expected)} ours=${String(ours)} (${String(code)}) ${describe(p, c)}`);
        } else bothFailed++;
        continue;
      }
      if (!ours.complete) {
        // The window was too small for this walk (spacing-1 pools): the SDK must have walked out of it.
        const edgeLo = words[0] * 256 * s;
        const edgeHi = (words[1] * 256 + 255) * s;
        if (!(expected.tickCurrent < edgeLo || expected.tickCurrent >= edgeHi)) {
          mismatches++;
          failures.push(`unexpected incomplete walk ${describe(p, c)}`);
        }
        continue;
      }
      if (!same(ours, expected)) {
        mismatches++;
        failures.push(
          `mismatch ours=${JSON.stringify(ours, (_, v) => (typeof v === 'bigint' ? v.toString() : v))} sdk=${JSON.stringify(expected)} ${describe(p, c)}`,
        );
        continue;
      }
      const crossed = Math.abs(ours.tick - p.tick);
      const n = p.ticks.filter(([x]) => (c.zeroForOne ? x <= p.tick && x > ours.tick : x > p.tick && x <= ours.tick)).length;
      if (n === 0) crossedHistogram.zero++;
      else if (n <= 10) crossedHistogram.upTo10++;
      else if (n <= 100) crossedHistogram.upTo100++;
      else crossedHistogram.over100++;
      void crossed;
      // The quoter's view of the same walk.
      const exactInput = c.amountSpecified > 0n;
      const q = exactInput
        ? quoteExactInputSingle(full, c.zeroForOne, c.amountSpecified, c.limit)
        : quoteExactOutputSingle(full, c.zeroForOne, -c.amountSpecified, c.limit);
      if (!q.ok || q.sqrtPriceX96After !== ours.sqrtPriceX96 || q.filledFully !== (ours.amountSpecifiedRemaining === 0n)) {
        mismatches++;
        failures.push(`quote disagrees with swap ${describe(p, c)}`);
      }
      if (exactInput && q.ok && !q.filledFully && q.amountIn > 0n) {
        // Partial fill: the SDK, given exactly the input we say was consumed, gives the same output (it stops at the
        // last range with liquidity instead of walking the empty ranges to the bound).
        partial++;
        const again = await sdkSwap(sdk, { ...c, amountSpecified: q.amountIn }, 'recheck');
        if (again instanceof Error || b(again.amountCalculated) !== -q.amountOut) {
          mismatches++;
          failures.push(`partial fill amountIn not confirmed by the SDK ${describe(p, c)}`);
        }
      }
      // The same swap on a narrow window: identical when it stays inside, INSUFFICIENT_KNOWN_LIQUIDITY otherwise.
      const w = swap(narrow, c.zeroForOne, c.amountSpecified, c.limit);
      windowed++;
      if (w.complete) {
        if (!same(w, expected)) {
          mismatches++;
          failures.push(`narrow window mismatch ${describe(p, c)}`);
        }
      } else {
        unknown++;
        const edgeLo = (curWord - k) * 256 * s;
        const edgeHi = ((curWord + k) * 256 + 255) * s;
        const left = c.zeroForOne ? expected.tickCurrent < edgeLo : expected.tickCurrent >= edgeHi;
        const filledIn = c.amountSpecified > 0n ? c.amountSpecified - w.amountSpecifiedRemaining : w.amountCalculated;
        const fullIn = c.amountSpecified > 0n ? c.amountSpecified - ours.amountSpecifiedRemaining : ours.amountCalculated;
        if (!left || filledIn > fullIn) {
          mismatches++;
          failures.push(`narrow window reported unknown liquidity for a walk that stays inside ${describe(p, c)}`);
        }
      }
    }
    // A ladder of amounts in one walk (exact input on even pools, exact output on odd ones), each checked against
    // the SDK's swap of that amount alone.
    {
      const exactInput = pi % 2 === 0;
      const zeroForOne = rng.next() < 0.5;
      const amounts: bigint[] = [];
      let limit = 0n;
      for (let i = 0; i < 12; i++) {
        const c = randomCase(rng, p, zeroForOne, exactInput);
        amounts.push(exactInput ? c.amountSpecified : -c.amountSpecified);
        if (c.limit !== 0n && p.tickSpacing <= 10) limit = c.limit; // keep exhausting walks short, as in randomCase
      }
      const ladder = amounts.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const results: V3QuoteResult[] = exactInput
        ? quoteExactInputLadder(full, zeroForOne, ladder, limit)
        : quoteExactOutputLadder(full, zeroForOne, ladder, limit);
      ladders++;
      if (!exactInput) outputLadders++;
      for (let i = 0; i < ladder.length; i++) {
        const amountSpecified = exactInput ? ladder[i] : -ladder[i];
        const expected = await sdkSwap(sdk, { zeroForOne, amountSpecified, limit }, 'ladder');
        const single = exactInput
          ? quoteExactInputSingle(full, zeroForOne, ladder[i], limit)
          : quoteExactOutputSingle(full, zeroForOne, ladder[i], limit);
        const r = results[i];
        cases++;
        if (expected instanceof Error) {
          mismatches++;
          failures.push(`sdk failed on ladder amount ${describe(p, { zeroForOne, amountSpecified, limit })}`);
          continue;
        }
        const same =
          JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? v.toString() : v)) ===
          JSON.stringify(single, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
        if (!r.ok) {
          // Beyond the known words (narrow spacing-1 windows): the SDK's walk must leave them too.
          const left = zeroForOne ? expected.tickCurrent < words[0] * 256 * s : expected.tickCurrent >= (words[1] * 256 + 255) * s;
          if (!same || !left) {
            mismatches++;
            failures.push(`ladder reported unknown liquidity wrongly at ${i} ${describe(p, { zeroForOne, amountSpecified, limit })}`);
          }
          continue;
        }
        // The SDK gives amountCalculated: minus the output for exact input, the input for exact output.
        const calculatedOk = exactInput ? r.amountOut === -b(expected.amountCalculated) : r.amountIn === b(expected.amountCalculated);
        // The specified side: the whole amount when filled, less when the walk reached the limit first.
        const specified = exactInput ? r.amountIn : r.amountOut;
        const specifiedOk = r.filledFully ? specified === ladder[i] : specified < ladder[i];
        const ok =
          r.ok &&
          single.ok &&
          calculatedOk &&
          specifiedOk &&
          r.sqrtPriceX96After === b(expected.sqrtRatioX96) &&
          r.tickAfter === expected.tickCurrent &&
          r.liquidityAfter === b(expected.liquidity) &&
          same;
        if (!ok) {
          mismatches++;
          failures.push(`ladder mismatch at ${i} ${describe(p, { zeroForOne, amountSpecified, limit })}`);
        }
        if (!exactInput && r.ok && !r.filledFully) outputPartial++;
      }
    }
  }
  t.comment(`exact-output ladders: ${outputLadders}, with ${outputPartial} amounts the pool could not fill (filledFully false)`);
  t.comment(
    `seed ${SEED}: ${cases} cases vs the SDK (${ladders} ladders), ${partial} partial fills re-checked, ${windowed} narrow-window runs (${unknown} beyond the window)`,
  );
  t.comment(`SDK time (ms): ${JSON.stringify(sdkMs, (_, v) => (typeof v === 'number' ? Math.round(v) : v))}`);
  t.comment(`initialized ticks crossed: ${JSON.stringify(crossedHistogram)}; swaps per fee (pips): ${JSON.stringify(fees)}`);
  t.equal(failures.slice(0, 5).join('\n'), '', 'no mismatches (first 5 shown)');
  t.equal(mismatches, 0, 'mismatch count');
  t.ok(cases >= 10_000, `at least 10,000 cases (${cases})`);
  // The generated swaps stay inside the price bounds with valid limits: a revert is the exception (none at the
  // default seed), and each one was matched to the SDK's reason above.
  t.ok(bothFailed <= cases / 1000, `swaps where both revert for the same reason: ${bothFailed} <= 0.1% of cases`);
  t.ok(crossedHistogram.over100 > 50, 'walks crossing more than 100 initialized ticks are covered');
});

t.test('invalid price limits: the SDK and ours revert for the same reason', async (t) => {
  const rng = new Rng(SEED + 1);
  const p = randomPool(rng, { fee: 3000 });
  const pool = ourPool(p, fullWords(p.tickSpacing));
  const sdk = sdkPoolOf(p);
  const limits: [string, boolean, bigint][] = [
    ['limit at the current price, zeroForOne', true, p.sqrtPriceX96],
    ['limit at MIN_SQRT_RATIO', true, MIN_SQRT],
    ['limit above the current price, zeroForOne', true, p.sqrtPriceX96 + 1n],
    ['limit at MAX_SQRT_RATIO', false, MAX_SQRT],
    ['limit below the current price, oneForZero', false, p.sqrtPriceX96 - 1n],
  ];
  for (const [name, zeroForOne, limit] of limits) {
    const expected = await sdkSwap(sdk, { zeroForOne, amountSpecified: 10n ** 18n, limit });
    t.type(expected, Error, `${name}: the SDK refuses`);
    const kinds = expected instanceof Error ? SDK_REVERT_KINDS[expected.message] : undefined;
    t.ok(kinds, `${name}: a known SDK reason (${String(expected)})`);
    t.throws(() => swap(pool, zeroForOne, 10n ** 18n, limit), { code: kinds?.[0] }, `${name}: ours refuses with ${kinds?.[0]}`);
  }
});
