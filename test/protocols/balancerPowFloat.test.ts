// powUpFloat (src/amm/balancerPowFloat.ts, the double-double path of powUpBy) against FixedPoint.powUp's line-by-line
// transliteration (test/helpers/balancerLogExp.ts, equal to the chain: balancerMath.devnet.test.ts): wherever it
// returns a value, the value is the contract's, and it returns none where the contract reverts. Then WeightedMath's
// calcOutGivenIn / calcInGivenOut (through powUpBy, so the float path with its bigint fallback) against the same math
// written with the transliteration. Seeded; POW_FLOAT_CASES=<n> and POW_FLOAT_SEED=<n> run a larger one-off sweep
// (the 1,000,000-case runs of the journal, bench/HISTORY.md).
import t from 'tap';
import { dd, R } from '../../src/amm/balancerDoubleDouble.ts';
import { complement, divDown, divUp, mulDown, mulUp, ONE, sub } from '../../src/amm/balancerFixedPoint.ts';
import { addPowError, powFloatExponent, powUpFloat, powUpFloatBy } from '../../src/amm/balancerPowFloat.ts';
import { calcInGivenOut, calcOutGivenIn } from '../../src/protocols/balancerWeighted/weightedMath.ts';
import { powUp } from '../helpers/balancerLogExp.ts';
import { outcome } from '../helpers/callOutcome.ts';
import { seededDraws } from '../helpers/seededDraws.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const CASES = Number(process.env.POW_FLOAT_CASES ?? 60000);
const random = seededRandom(Number(process.env.POW_FLOAT_SEED ?? 0x27f10a7));

const { below, between, pick } = seededDraws(random);
/** A float from lo to hi, uniform in its logarithm. */
const logUniform = (lo: number, hi: number) => lo * (hi / lo) ** random();
const toFixed18 = (v: number) => BigInt(Math.round(v * 1e6)) * 10n ** 12n + between(0n, 10n ** 12n - 1n);

const X_MIN = 10n ** 17n;
const X_MAX = 2n ** 64n;
/** Where the paths and the contract branch: ln_36's window bounds and 1, the float range's bounds, exact quotients. */
const BASE_EDGES = [
  ONE - 10n ** 17n,
  ONE + 10n ** 17n,
  ONE,
  X_MIN,
  X_MAX,
  ONE / 2n,
  (ONE * 4n) / 5n,
  (ONE * 5n) / 4n,
  2n * ONE,
  271828182845904523n,
];

function base(): bigint {
  switch (Math.floor(random() * 7)) {
    case 0: // ln_36's window, bases near 1 (weighted quotes of small amounts)
      return ONE + BigInt(Math.round((random() < 0.5 ? -1 : 1) * logUniform(1, 1e17)));
    case 1: // at and around the edges
      return pick(BASE_EDGES) + between(-3n, 3n);
    case 2: // a weighted pool's range (30% limits: 1/1.3 .. 1/0.7)
      return between((ONE * 10n) / 13n, (ONE * 10n) / 7n);
    case 3: // the float path's whole range and past it
      return between(X_MIN / 2n, X_MAX * 2n);
    case 4:
      return toFixed18(logUniform(0.05, 30));
    case 5: // round bases (exact quotients in ln's inversion and reductions)
      return BigInt(Math.floor(random() * 3000)) * 10n ** 15n;
    default:
      return between(1n, 2n ** 70n);
  }
}

function exponent(x: bigint): bigint {
  switch (Math.floor(random() * 6)) {
    case 0: // weight ratios of 1% .. 99% weights, rounded both ways
      return between(ONE / 99n, 99n * ONE);
    case 1: {
      const wIn = between(10n ** 16n, 99n * 10n ** 16n);
      return random() < 0.5 ? divDown(wIn, ONE - wIn) : divUp(ONE - wIn, wIn);
    }
    case 2: // small-denominator ratios (ln * y / 1e18 an exact ratio) and the float path's y bound
      return pick([ONE / 4n, (3n * ONE) / 2n, 3n * ONE, 666666666666666667n, ONE / 3n, 9n * ONE, 2n ** 70n - 1n, 2n ** 70n, 1n]);
    case 3: {
      // |ln(x) * y| near the float path's bound 16 and exp's reduction thresholds
      const lnX = Math.log(Number(x) / 1e18);
      const target = pick([16, 15.999, 8, 4, 2, 1, 0.5, 0.25, 41, 130]) * (1 + (random() - 0.5) * 1e-6);
      return lnX === 0 ? ONE : BigInt(Math.max(1, Math.round(Math.abs(target / lnX) * 1e18)));
    }
    case 4:
      return toFixed18(logUniform(0.01, 100));
    default:
      return below(2n ** BigInt(1 + Math.floor(random() * 80)));
  }
}

t.test(`powUpFloat equals FixedPoint.powUp wherever it answers, over ${CASES} seeded cases`, async (t) => {
  let answered = 0;
  let differ = 0;
  let revertsDeclined = 0;
  let weightedAnswered = 0;
  let weighted = 0;
  for (let i = 0; i < CASES; i++) {
    const x = base();
    const y = exponent(x);
    if (y === ONE || y === 2n * ONE || y === 4n * ONE) continue; // powUp's exact cases, chosen before any pow
    const prepared = powFloatExponent(y);
    const got = prepared && powUpFloat(x, prepared);
    // A weighted pool's bases and exponents, less two kinds the float path leaves to bigint by design: |ln(x) * y|
    // below about 1e-13 (dust amounts: e^-v for v < 1.4e-14 is 1e36 / (1e18 + v * 1e18), within 2e-10 of an integer,
    // closer than the margin certifies) and round bases (an exact 1e36 / x).
    const gap = x > ONE ? x - ONE : ONE - x;
    const inWeightedRange =
      x >= (ONE * 10n) / 13n && x <= (ONE * 10n) / 7n && gap * y > 10n ** 23n && x % 10n ** 15n !== 0n && y >= ONE / 100n && y <= 4n * ONE;
    if (inWeightedRange) weighted++;
    if (got === undefined) continue;
    answered++;
    if (inWeightedRange) weightedAnswered++;
    const expected = outcome(() => powUp(x, y));
    if (typeof expected === 'string') revertsDeclined--;
    if (got !== expected) {
      differ++;
      if (differ <= 5) t.fail(`powUpFloat(${x}, ${y}) = ${got}, powUp ${expected}`);
    }
  }
  t.equal(differ, 0, `no answer differs (${answered} answered)`);
  t.equal(revertsDeclined, 0, 'no answer where the contract reverts');
  // The float path must answer nearly all of a weighted pool's bases, or it proves little and speeds up nothing.
  t.ok(weightedAnswered > weighted * 0.999, `answered ${weightedAnswered} of ${weighted} weighted-range cases`);
  t.ok(answered > CASES * 0.4 && answered < CASES * 0.95, `answered some, not all (${answered})`);
});

t.test(`powUpFloatBy (double-double in and out) equals FixedPoint.powUp, exact cases 1, 2, 4 included, ${CASES} cases`, async (t) => {
  const ys = [ONE, 2n * ONE, 4n * ONE, ONE / 4n, (3n * ONE) / 2n, 666666666666666667n];
  const pows = ys.map((y) => powUpFloatBy(y));
  let answered = 0;
  let differ = 0;
  const counts = ys.map(() => 0);
  for (let i = 0; i < CASES; i++) {
    const k = Math.floor(random() * ys.length);
    const y = ys[k];
    // Bases near 1e18 (a square's quotient 1e18 +- 2d + d^2 / 1e18, within d^2 / 1e18 of an integer), near multiples
    // of 1e9 (exact squares), a weighted pool's range, and the float range's edges.
    let x: bigint;
    switch (Math.floor(random() * 4)) {
      case 0:
        x = ONE + BigInt(Math.round((random() < 0.5 ? -1 : 1) * logUniform(1, 1e12)));
        break;
      case 1:
        x = between(10n ** 8n, 2n * 10n ** 9n) * 10n ** 9n + between(-3n, 3n);
        break;
      case 2:
        x = between((ONE * 10n) / 13n, (ONE * 10n) / 7n);
        break;
      default:
        x = pick([X_MIN, X_MAX, ONE]) + between(-3n, 3n);
    }
    [R[0], R[1]] = dd(x);
    if (!pows[k]?.()) continue;
    answered++;
    counts[k]++;
    const got = BigInt(R[0]) + BigInt(R[1]);
    const expected = outcome(() => powUp(x, y));
    if (got !== expected) {
      differ++;
      if (differ <= 5) t.fail(`powUpFloatBy(${y})(${x}) = ${got}, powUp ${expected}`);
    }
  }
  t.equal(differ, 0, `no answer differs (${answered} answered)`);
  t.ok(
    counts.every((c) => c > CASES / ys.length / 2),
    `each exponent answered at least half its cases (${counts.join(', ')})`,
  );
});

/** WeightedMath written with the transliterated powUp (the contract's order of operations). */
function referenceOut(bIn: bigint, wIn: bigint, bOut: bigint, wOut: bigint, amountIn: bigint): bigint {
  if (amountIn > mulDown(bIn, 3n * 10n ** 17n)) throw new Error('max in');
  const power = powUp(divUp(bIn, bIn + amountIn), divDown(wIn, wOut));
  return mulDown(bOut, complement(power));
}
function referenceIn(bIn: bigint, wIn: bigint, bOut: bigint, wOut: bigint, amountOut: bigint): bigint {
  if (amountOut > mulDown(bOut, 3n * 10n ** 17n)) throw new Error('max out');
  const power = powUp(divUp(bOut, sub(bOut, amountOut)), divUp(wOut, wIn));
  return mulUp(bIn, sub(power, ONE));
}
const sameOutcome = (a: bigint | string, b: bigint | string) => (typeof a === 'string' ? typeof b === 'string' : a === b);

t.test(`calcOutGivenIn / calcInGivenOut equal WeightedMath with the transliterated pow, ${CASES} cases each`, async (t) => {
  let differ = 0;
  for (let i = 0; i < CASES; i++) {
    const bIn = toFixed18(logUniform(1e-3, 1e12));
    const bOut = toFixed18(logUniform(1e-3, 1e12));
    const wIn = pick([8n * 10n ** 17n, 2n * 10n ** 17n, 5n * 10n ** 17n, 6n * 10n ** 17n, between(10n ** 16n, 99n * 10n ** 16n)]);
    const wOut = random() < 0.7 ? ONE - wIn : between(10n ** 16n, ONE - wIn);
    const fraction = pick([logUniform(1e-12, 0.3), 0.3 * (1 + (random() - 0.5) * 1e-9), random() * 0.31]);
    const amount = (BigInt(Math.round(fraction * 2 ** 52)) * (random() < 0.5 ? bIn : bOut)) / 2n ** 52n;
    const pairs: [bigint | string, bigint | string][] = [
      [outcome(() => calcOutGivenIn(bIn, wIn, bOut, wOut, amount)), outcome(() => referenceOut(bIn, wIn, bOut, wOut, amount))],
      [outcome(() => calcInGivenOut(bIn, wIn, bOut, wOut, amount)), outcome(() => referenceIn(bIn, wIn, bOut, wOut, amount))],
    ];
    for (const [got, expected] of pairs) {
      if (!sameOutcome(got, expected)) {
        differ++;
        if (differ <= 5) t.fail(`balances ${bIn} ${bOut}, weights ${wIn} ${wOut}, amount ${amount}: ${got} vs ${expected}`);
      }
    }
  }
  t.equal(differ, 0, 'no quote differs');
});

t.test('addPowError is raw + ceil(raw / 1e14) + 1 (powUp), at and around multiples of 1e14 and at random', async (t) => {
  const E14 = 10n ** 14n;
  const raws: bigint[] = [];
  for (let i = 0; i < 3000; i++) {
    // A multiple of 1e14 below 2^67 (or past it, up to 2^80) and an offset within a double's rounding of it either way:
    // raw0 / 1e14 then rounds up to the multiple's integer from below (the remainder's correction), or lands on it.
    const k = between(1n, (random() < 0.8 ? 2n ** 67n : 2n ** 80n) / E14);
    // A few units in the last place of the double below the multiple: raw0 itself just below it.
    const ulp = 2n ** BigInt(Math.max(0, Math.floor(Math.log2(Number(k * E14))) - 52));
    raws.push(k * E14 + between(-300n, 300n), k * E14 - between(1n, 3n) * ulp, toFixed18(logUniform(1e-3, 1e7)));
  }
  raws.push(E14 - 1n, E14, E14 + 1n, 2n ** 67n - 1n, 2n ** 67n, 2n ** 67n + 1n);
  let differ = 0;
  let declined = 0;
  for (const raw of raws) {
    [R[0], R[1]] = dd(raw);
    if (!addPowError()) {
      declined++;
      continue;
    }
    const got = BigInt(R[0]) + BigInt(R[1]);
    const expected = raw + (raw + E14 - 1n) / E14 + 1n;
    if (got !== expected) {
      differ++;
      if (differ <= 5) t.fail(`addPowError(${raw}) = ${got}, powUp ${expected}`);
    }
  }
  t.equal(differ, 0, `no sum differs (${declined} of ${raws.length} declined)`);
  t.ok(declined < raws.length / 10, 'at most a tenth declined');
});
