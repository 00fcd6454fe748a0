// powUpFloat (src/amm/balancerPowFloat.ts, the double-double path of powUpBy) against FixedPoint.powUp's line-by-line
// transliteration (test/helpers/balancerLogExp.ts, equal to the chain: balancerMath.devnet.test.ts): wherever it
// returns a value, the value is the contract's, and it returns none where the contract reverts. Then WeightedMath's
// calcOutGivenIn / calcInGivenOut (through powUpBy, so the float path with its bigint fallback) against the same math
// written with the transliteration. Seeded; POW_FLOAT_CASES=<n> and POW_FLOAT_SEED=<n> run a larger one-off sweep
// (the 1,000,000-case runs of the journal, bench/HISTORY.md). Last, powUpInto (the pow written out as one function on
// locals) against the same steps composed from balancerDoubleDouble.ts's primitives: the same bits and the same
// declines on every case (POW_INTO_CASES, default 200,000).
import t from 'tap';
import { add, dd, div, floorOf, floorOfRatio, load, mul, R, reciprocal, times100, truncOf } from '../../src/amm/balancerDoubleDouble.ts';
import { complement, divDown, divUp, mulDown, mulUp, ONE, sub } from '../../src/amm/balancerFixedPoint.ts';
import {
  addPowError,
  type PowFloatExponent,
  powFloatExponent,
  powUpFloat,
  powUpFloatBy,
  powUpInto,
} from '../../src/amm/balancerPowFloat.ts';
import { EXP_PRODUCTS, EXP_X, TAYLOR_DIVISORS, TAYLOR_INVERSES } from '../../src/amm/balancerPowTables.ts';
import { calcInGivenOut, calcOutGivenIn } from '../../src/protocols/balancerWeighted/weightedMath.ts';
import { composedLnTimesY } from '../helpers/balancerLnComposed.ts';
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

/**
 * powUpInto's steps composed from balancerDoubleDouble.ts's primitives (mul, div, add, times100, floorOf, floorOfRatio,
 * truncOf through the registers R), in the order balancerPowFloat.ts's header and powUpInto state: ln_36's window (or
 * balancerLnFloat.ts's ln, composed in test/helpers/balancerLnComposed.ts), exp, powUp's error term. powUpInto (and
 * lnTimesY) write these steps out on locals; this is what they must compute, bit for bit.
 */
const INV_E20 = reciprocal(1e20);
const INV_100 = reciprocal(100);
const INV_E22 = reciprocal(10n ** 22n);
const ONE_36 = dd(10n ** 36n);

function composedLn36(series: Float64Array, xh: number, xl: number): boolean {
  add(xh, xl, -1e18, 0);
  const nh = R[0];
  const nl = R[1];
  add(xh, xl, 1e18, 0);
  div(nh, nl, R[0], R[1]);
  const zh = R[0];
  const zl = R[1];
  mul(zh, zl, zh, zl);
  const wh = R[0];
  const wl = R[1];
  for (const [tail, relative] of [
    [2 ** -24, 2 ** -72],
    [2 ** -50, 2 ** -92],
  ]) {
    let kd = 1;
    for (let w = wh; w > tail && kd < 8; kd++) w *= wh;
    let ah = series[14];
    let al = 0;
    let k = 6;
    if (kd < 8) for (; k >= kd; k--) ah = ah * wh + series[2 * k];
    else al = series[15];
    for (; k >= 0; k--) {
      mul(ah, al, wh, wl);
      add(R[0], R[1], series[2 * k], series[2 * k + 1]);
      ah = R[0];
      al = R[1];
    }
    mul(ah, al, zh, zl);
    if (truncOf(R[0], R[1], 2 ** -30, relative)) return true;
  }
  return false;
}

function composedExp(): boolean {
  let vh = R[0];
  let vl = R[1];
  const negative = vh < 0;
  if (negative) {
    vh = -vh;
    vl = -vl;
  }
  times100(vh, vl);
  let xh = R[0];
  let xl = R[1];
  let mask = 0;
  for (let i = 0; i < 6; i++) {
    mask <<= 1;
    if (xh > EXP_X[i] || (xh === EXP_X[i] && xl >= 0)) {
      add(xh, xl, -EXP_X[i], 0);
      xh = R[0];
      xl = R[1];
      mask |= 1;
    }
  }
  mul(xh, xl, INV_E20[0], INV_E20[1]);
  const fh = R[0];
  const fl = R[1];
  add(1e20, 0, xh, xl);
  let sumH = R[0];
  let sumL = R[1];
  let termH = xh;
  let termL = xl;
  let i = 0;
  for (; i < 11 && (termH >= 2 ** 53 || termH * fh * (1 / TAYLOR_DIVISORS[i]) >= 2 ** 40); i++) {
    mul(fh, fl, TAYLOR_INVERSES[i][0], TAYLOR_INVERSES[i][1]);
    mul(termH, termL, R[0], R[1]);
    if (!floorOf(R[0], R[1])) return false;
    termH = R[0];
    termL = R[1];
    add(sumH, sumL, termH, termL);
    sumH = R[0];
    sumL = R[1];
  }
  // From a term below 2^53 whose quotient is below 2^40 on, plain doubles (four roundings, a 2^-48 relative margin), else as above.
  let small = 0;
  for (let term = termH; i < 11 && term !== 0; i++) {
    const q = term * fh * (1 / TAYLOR_DIVISORS[i]);
    if (q - Math.floor(q) > q * 2 ** -48 && q - Math.floor(q) < 1 - q * 2 ** -48) term = Math.floor(q);
    else {
      mul(term, 0, fh, fl);
      mul(R[0], R[1], TAYLOR_INVERSES[i][0], TAYLOR_INVERSES[i][1]);
      if (!floorOf(R[0], R[1])) return false;
      term = R[0];
    }
    small += term;
  }
  add(sumH, sumL, small, 0);
  if (mask === 0) {
    mul(R[0], R[1], INV_100[0], INV_100[1]);
    if (!floorOfRatio(R[0], R[1], 100)) return false;
  } else {
    mul(EXP_PRODUCTS[4 * mask], EXP_PRODUCTS[4 * mask + 1], R[0], R[1]);
    mul(R[0], R[1], INV_E22[0], INV_E22[1]);
    if (!floorOf(R[0], R[1])) return false;
  }
  if (!negative) return true;
  div(ONE_36[0], ONE_36[1], R[0], R[1]);
  return floorOf(R[0], R[1]);
}

function composedPowUp(y: PowFloatExponent): boolean {
  const xh = R[0];
  const xl = R[1];
  if (!(xh > 1e17 && xh < 2 ** 64)) return false;
  const inWindow = (xh > 0.9e18 || (xh === 0.9e18 && xl > 0)) && (xh < 1.1e18 || (xh === 1.1e18 && xl < 0));
  if (!(inWindow ? composedLn36(y.series, xh, xl) : composedLnTimesY(y))) return false;
  if (!(Math.abs(R[0]) < 16e18)) return false;
  return composedExp() && addPowError();
}

const INTO_CASES = Number(process.env.POW_INTO_CASES ?? 200000);

t.test(`powUpInto equals its steps composed, bit for bit and decline for decline, ${INTO_CASES} seeded cases and the edges`, async (t) => {
  const ratios = [ONE / 4n, (3n * ONE) / 2n, 666666666666666667n, ONE / 3n, 3n * ONE, 4n * ONE, ONE, 2n ** 70n - 1n];
  const cases: [bigint, bigint][] = [];
  for (const edge of BASE_EDGES) for (let d = -4n; d <= 4n; d++) for (const y of ratios) cases.push([edge + d, y]);
  for (let i = 0; i < INTO_CASES; i++) {
    // Half as the other tests draw them, half a weighted quote's bases (ln_36's window most) and weight ratios.
    const x =
      random() < 0.5
        ? base()
        : random() < 0.5
          ? between((ONE * 10n) / 13n, (ONE * 10n) / 7n)
          : ONE + BigInt(Math.round((random() < 0.5 ? -1 : 1) * logUniform(1, 1e17)));
    cases.push([x, random() < 0.5 ? exponent(x) : pick(ratios)]);
  }
  let answered = 0;
  let windowAnswered = 0;
  let negative = 0;
  let differ = 0;
  for (const [x, y] of cases) {
    const prepared = powFloatExponent(y);
    if (prepared === undefined || x <= 0n || x >= 2n ** 100n) continue;
    load(x);
    const inWindow = x > (9n * ONE) / 10n && x < (11n * ONE) / 10n;
    const composed = composedPowUp(prepared);
    const want = [R[0], R[1]];
    load(x);
    const got = powUpInto(prepared);
    if (got !== composed || (got && !(Object.is(R[0], want[0]) && Object.is(R[1], want[1])))) {
      differ++;
      if (differ <= 5) t.fail(`powUpInto at x ${x}, y ${y}: ${got} (${R[0]}, ${R[1]}), composed ${composed} (${want})`);
    }
    if (got) {
      answered++;
      if (inWindow) windowAnswered++;
      if (x < ONE) negative++;
    }
  }
  t.equal(differ, 0, `no output or decline differs (${answered} of ${cases.length} answered, ${windowAnswered} in ln_36's window)`);
  t.ok(windowAnswered > cases.length / 4 && answered - windowAnswered > cases.length / 10, 'both ln paths answered often');
  t.ok(negative > cases.length / 10, `negative logarithms (exp's inversion) answered often (${negative})`);
});
