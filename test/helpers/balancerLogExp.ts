/**
 * Balancer's LogExpMath and FixedPoint.powUp/powDown transliterated line by line from v2-solidity-utils (bigint
 * division truncates toward zero, as Solidity's signed division does): the reference src/amm/balancerPow.ts (the
 * service's one pow, with rewrites that change no result) is checked against in test/protocols/balancerQuoter.test.ts.
 */
import { AmmError } from '../../src/amm/ammError.ts';
import { add, MAX_POW_RELATIVE_ERROR, mulDown, mulUp, ONE } from '../../src/amm/balancerFixedPoint.ts';

const TWO = 2n * ONE;
const FOUR = 4n * ONE;

/** x^y rounded up: exact for y = 1, 2, 4; otherwise LogExpMath.pow plus its maximum relative error. */
export function powUp(x: bigint, y: bigint): bigint {
  if (y === ONE) return x;
  if (y === TWO) return mulUp(x, x);
  if (y === FOUR) {
    const square = mulUp(x, x);
    return mulUp(square, square);
  }
  const raw = pow(x, y);
  return add(raw, add(mulUp(raw, MAX_POW_RELATIVE_ERROR), 1n));
}

/** x^y rounded down: exact for y = 1, 2, 4; otherwise LogExpMath.pow minus its maximum relative error (floored at 0). */
export function powDown(x: bigint, y: bigint): bigint {
  if (y === ONE) return x;
  if (y === TWO) return mulDown(x, x);
  if (y === FOUR) {
    const square = mulDown(x, x);
    return mulDown(square, square);
  }
  const raw = pow(x, y);
  const maxError = add(mulUp(raw, MAX_POW_RELATIVE_ERROR), 1n);
  return raw < maxError ? 0n : raw - maxError;
}

// LogExpMath: natural exponent and logarithm in 18 (and internally 20 and 36) decimals.
const ONE_18 = ONE;
const ONE_20 = 10n ** 20n;
const ONE_36 = 10n ** 36n;
const MAX_NATURAL_EXPONENT = 130n * ONE_18;
const MIN_NATURAL_EXPONENT = -41n * ONE_18;
const LN_36_LOWER_BOUND = ONE_18 - 10n ** 17n;
const LN_36_UPPER_BOUND = ONE_18 + 10n ** 17n;
const MILD_EXPONENT_BOUND = 2n ** 254n / ONE_20;

/** 2^7 and 2^6 (18 decimals) with e to those powers (no decimals). */
const X0 = 128n * ONE_18;
const A0 = 38877084059945950922200000000000000000000000000000000000n;
const X1 = 64n * ONE_18;
const A1 = 6235149080811616882910000000n;
/** 2^5 down to 2^-4 (20 decimals) with e to those powers (20 decimals). */
const SERIES: readonly (readonly [bigint, bigint])[] = [
  [3200000000000000000000n, 7896296018268069516100000000000000n],
  [1600000000000000000000n, 888611052050787263676000000n],
  [800000000000000000000n, 298095798704172827474000n],
  [400000000000000000000n, 5459815003314423907810n],
  [200000000000000000000n, 738905609893065022723n],
  [100000000000000000000n, 271828182845904523536n],
  [50000000000000000000n, 164872127070012814685n],
  [25000000000000000000n, 128402541668774148407n],
  [12500000000000000000n, 113314845306682631683n],
  [6250000000000000000n, 106449445891785942956n],
];

/** LogExpMath.pow: x^y for 18-decimal x and y, through exp(y * ln(x)). */
export function pow(x: bigint, y: bigint): bigint {
  if (y === 0n) return ONE_18;
  if (x === 0n) return 0n;
  if (x >> 255n !== 0n) throw new AmmError('OVERFLOW', 'pow: x out of bounds');
  if (y >= MILD_EXPONENT_BOUND) throw new AmmError('OVERFLOW', 'pow: y out of bounds');
  let logxTimesY: bigint;
  if (LN_36_LOWER_BOUND < x && x < LN_36_UPPER_BOUND) {
    const ln36 = ln36Of(x);
    logxTimesY = (ln36 / ONE_18) * y + ((ln36 % ONE_18) * y) / ONE_18;
  } else {
    logxTimesY = lnOf(x) * y;
  }
  logxTimesY /= ONE_18;
  if (logxTimesY < MIN_NATURAL_EXPONENT || logxTimesY > MAX_NATURAL_EXPONENT) {
    throw new AmmError('OVERFLOW', 'pow: product out of bounds');
  }
  return exp(logxTimesY);
}

/** LogExpMath.exp: e^x for 18-decimal x in [-41, 130]. */
export function exp(x: bigint): bigint {
  if (x < MIN_NATURAL_EXPONENT || x > MAX_NATURAL_EXPONENT) throw new AmmError('OVERFLOW', 'exp: invalid exponent');
  if (x < 0n) return (ONE_18 * ONE_18) / exp(-x);
  let firstAN: bigint;
  if (x >= X0) {
    x -= X0;
    firstAN = A0;
  } else if (x >= X1) {
    x -= X1;
    firstAN = A1;
  } else {
    firstAN = 1n;
  }
  x *= 100n;
  let product = ONE_20;
  // Only 2^5 .. 2^-2 take part in exp (the last two entries serve ln only).
  for (let i = 0; i < 8; i++) {
    const [xn, an] = SERIES[i];
    if (x >= xn) {
      x -= xn;
      product = (product * an) / ONE_20;
    }
  }
  let seriesSum = ONE_20;
  let term = x;
  seriesSum += term;
  for (let n = 2n; n <= 12n; n++) {
    term = (term * x) / ONE_20 / n;
    seriesSum += term;
  }
  return (((product * seriesSum) / ONE_20) * firstAN) / 100n;
}

function lnOf(a: bigint): bigint {
  if (a < ONE_18) return -lnOf((ONE_18 * ONE_18) / a);
  let sum = 0n;
  if (a >= A0 * ONE_18) {
    a /= A0;
    sum += X0;
  }
  if (a >= A1 * ONE_18) {
    a /= A1;
    sum += X1;
  }
  sum *= 100n;
  a *= 100n;
  for (const [xn, an] of SERIES) {
    if (a >= an) {
      a = (a * ONE_20) / an;
      sum += xn;
    }
  }
  const z = ((a - ONE_20) * ONE_20) / (a + ONE_20);
  const zSquared = (z * z) / ONE_20;
  let num = z;
  let seriesSum = num;
  for (let d = 3n; d <= 11n; d += 2n) {
    num = (num * zSquared) / ONE_20;
    seriesSum += num / d;
  }
  seriesSum *= 2n;
  return (sum + seriesSum) / 100n;
}

/** LogExpMath._ln_36: ln(x) with 36 decimals, for 18-decimal x in ln_36's window. */
export function ln36Of(x: bigint): bigint {
  x *= ONE_18;
  const z = ((x - ONE_36) * ONE_36) / (x + ONE_36);
  const zSquared = (z * z) / ONE_36;
  let num = z;
  let seriesSum = num;
  for (let d = 3n; d <= 15n; d += 2n) {
    num = (num * zSquared) / ONE_36;
    seriesSum += num / d;
  }
  return seriesSum * 2n;
}
