/**
 * Balancer's LogExpMath and FixedPoint.powUp (the service's one pow), for an exponent fixed in advance (a weighted
 * pool's weight ratio is fixed per pool and direction), returning exactly what the Solidity returns (its line-by-line
 * transliteration is test/helpers/balancerLogExp.ts), faster: the exponent's special cases (1, 2, 4) are chosen
 * once, and LogExpMath's ln/exp run unrolled with fewer bigint operations. The rewrites that change the operations
 * but not a single result: successive divisions are taken as one, floor(floor(t * x / 1e20) / n) as
 * floor(t * x / (1e20 * n)) in exp's Taylor series and at its end (floor(floor(a / b) / c) = floor(a / (b * c)) for
 * positive b and c, truncation toward zero alike; so is pow's ln_36 * y, which the contract splits only against uint256
 * overflow), a common factor leaves ln_36's first quotient, a series stops as soon
 * as its term is 0 (every later term is 0 too), and the product of the a_n starting at one takes its first factor as
 * it is (1e20 * a / 1e20 = a). The other way round, a division by a constant wider than 64 bits (1e20, 1e20 * n, 1e22,
 * 1e36) is taken as two by its 64-bit halves (1e10 and 1e10 * n, 1e11 twice, 1e18 twice): the same truncation, and
 * V8 divides by a one-word divisor about 1.4x faster than by a two-word one. test/protocols/balancerPow.test.ts
 * (seeded) and balancerQuoter.test.ts check it against pow/powUp. powUpBy first tries the same integers in
 * double-double floats (balancerPowFloat.ts, about 2.5x faster); this bigint pow decides what that path cannot prove.
 */
import { AmmError } from './ammError.ts';
import { add, MAX_POW_RELATIVE_ERROR, mulUp, ONE } from './balancerFixedPoint.ts';
import { powFloatExponent, powUpFloat } from './balancerPowFloat.ts';

const ONE_18 = ONE;
const ONE_20 = 10n ** 20n;
const ONE_36 = 10n ** 36n;
/** Halves of the two-word divisors (1e20, 1e22, 1e36): dividing by each in turn is one-word division, which is faster. */
const E10 = 10n ** 10n;
const E11 = 10n ** 11n;
const MAX_NATURAL_EXPONENT = 130n * ONE_18;
const MIN_NATURAL_EXPONENT = -41n * ONE_18;
const LN_36_LOWER_BOUND = ONE_18 - 10n ** 17n;
const LN_36_UPPER_BOUND = ONE_18 + 10n ** 17n;
const MILD_EXPONENT_BOUND = 2n ** 254n / ONE_20;
/** ONE / MAX_POW_RELATIVE_ERROR, and a bound below which raw * MAX_POW_RELATIVE_ERROR fits in uint256 with room. */
const POW_ERROR_DIVISOR = ONE / MAX_POW_RELATIVE_ERROR;
/** 2 * POW_ERROR_DIVISOR - 1: raw + ceil(raw / P) + 1 = raw + floor((raw + P - 1) / P) + 1 = raw + floor((raw + 2P - 1) / P). */
const POW_ERROR_CEIL_PLUS_ONE = 2n * POW_ERROR_DIVISOR - 1n;
const RAW_BOUND = 1n << 240n;

const X0 = 128n * ONE_18;
const A0 = 38877084059945950922200000000000000000000000000000000000n;
const X1 = 64n * ONE_18;
const A1 = 6235149080811616882910000000n;
const A0_18 = A0 * ONE_18;
const A1_18 = A1 * ONE_18;
const X2 = 3200000000000000000000n;
const A2 = 7896296018268069516100000000000000n;
const X3 = 1600000000000000000000n;
const A3 = 888611052050787263676000000n;
const X4 = 800000000000000000000n;
const A4 = 298095798704172827474000n;
const X5 = 400000000000000000000n;
const A5 = 5459815003314423907810n;
const X6 = 200000000000000000000n;
const A6 = 738905609893065022723n;
const X7 = 100000000000000000000n;
const A7 = 271828182845904523536n;
const X8 = 50000000000000000000n;
const A8 = 164872127070012814685n;
const X9 = 25000000000000000000n;
const A9 = 128402541668774148407n;
const X10 = 12500000000000000000n;
const A10 = 113314845306682631683n;
const X11 = 6250000000000000000n;
const A11 = 106449445891785942956n;
/** 1e20 * n / 1e10 for the Taylor terms n = 2 .. 12 of exp (their first 1e10 divides first). */
const TAYLOR = [2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n, 12n].map((n) => E10 * n);
/** The odd divisors 3, 5, .. 15 of the ln series. */
const ODD = [3n, 5n, 7n, 9n, 11n, 13n, 15n];

/** LogExpMath.exp, same result. */
export function expFast(x: bigint): bigint {
  if (x < MIN_NATURAL_EXPONENT || x > MAX_NATURAL_EXPONENT) throw new AmmError('OVERFLOW', 'exp: invalid exponent');
  if (x < 0n) return ONE_36 / expFast(-x);
  let firstAN = 1n;
  if (x >= X0) {
    x -= X0;
    firstAN = A0;
  } else if (x >= X1) {
    x -= X1;
    firstAN = A1;
  }
  x *= 100n;
  // product stays undefined while it is 1e20, so its first factor is taken as is.
  let product: bigint | undefined;
  if (x >= X2) {
    x -= X2;
    product = A2;
  }
  if (x >= X3) {
    x -= X3;
    product = product === undefined ? A3 : (product * A3) / E10 / E10;
  }
  if (x >= X4) {
    x -= X4;
    product = product === undefined ? A4 : (product * A4) / E10 / E10;
  }
  if (x >= X5) {
    x -= X5;
    product = product === undefined ? A5 : (product * A5) / E10 / E10;
  }
  if (x >= X6) {
    x -= X6;
    product = product === undefined ? A6 : (product * A6) / E10 / E10;
  }
  if (x >= X7) {
    x -= X7;
    product = product === undefined ? A7 : (product * A7) / E10 / E10;
  }
  if (x >= X8) {
    x -= X8;
    product = product === undefined ? A8 : (product * A8) / E10 / E10;
  }
  if (x >= X9) {
    x -= X9;
    product = product === undefined ? A9 : (product * A9) / E10 / E10;
  }
  let seriesSum = ONE_20 + x;
  let term = x;
  for (let i = 0; i < 11 && term !== 0n; i++) {
    term = (term * x) / E10 / TAYLOR[i];
    seriesSum += term;
  }
  if (product === undefined) return firstAN === 1n ? seriesSum / 100n : (seriesSum * firstAN) / 100n;
  if (firstAN === 1n) return (product * seriesSum) / E11 / E11;
  return (((product * seriesSum) / E10 / E10) * firstAN) / 100n;
}

/** LogExpMath._ln, same result. */
function lnFast(a: bigint): bigint {
  if (a < ONE_18) return -lnFast(ONE_36 / a);
  let sum = 0n;
  if (a >= A0_18) {
    a /= A0;
    sum = X0;
  }
  if (a >= A1_18) {
    a /= A1;
    sum += X1;
  }
  sum *= 100n;
  a *= 100n;
  if (a >= A2) {
    a = (a * ONE_20) / A2;
    sum += X2;
  }
  if (a >= A3) {
    a = (a * ONE_20) / A3;
    sum += X3;
  }
  if (a >= A4) {
    a = (a * ONE_20) / A4;
    sum += X4;
  }
  if (a >= A5) {
    a = (a * ONE_20) / A5;
    sum += X5;
  }
  if (a >= A6) {
    a = (a * ONE_20) / A6;
    sum += X6;
  }
  if (a >= A7) {
    a = (a * ONE_20) / A7;
    sum += X7;
  }
  if (a >= A8) {
    a = (a * ONE_20) / A8;
    sum += X8;
  }
  if (a >= A9) {
    a = (a * ONE_20) / A9;
    sum += X9;
  }
  if (a >= A10) {
    a = (a * ONE_20) / A10;
    sum += X10;
  }
  if (a >= A11) {
    a = (a * ONE_20) / A11;
    sum += X11;
  }
  const z = ((a - ONE_20) * ONE_20) / (a + ONE_20);
  const zSquared = (z * z) / E10 / E10;
  let num = z;
  let seriesSum = z;
  for (let i = 0; i < 5 && num !== 0n; i++) {
    num = (num * zSquared) / E10 / E10;
    seriesSum += num / ODD[i];
  }
  return (sum + seriesSum * 2n) / 100n;
}

/** LogExpMath._ln_36 without its final doubling (the caller folds it into a product), same result otherwise. */
function halfLn36Fast(x: bigint): bigint {
  // ((x * 1e18 - 1e36) * 1e36) / (x * 1e18 + 1e36), the common factor 1e18 taken out of the quotient.
  const z = ((x - ONE_18) * ONE_36) / (x + ONE_18);
  const zSquared = (z * z) / ONE_18 / ONE_18;
  let num = z;
  let seriesSum = z;
  for (let i = 0; i < 7 && num !== 0n; i++) {
    num = (num * zSquared) / ONE_18 / ONE_18;
    seriesSum += num / ODD[i];
  }
  return seriesSum;
}

/** LogExpMath.pow, same result and the same reverts. */
export function powFast(x: bigint, y: bigint): bigint {
  return powWith(x, y, 2n * y);
}

/** powFast with 2y taken once per exponent. */
function powWith(x: bigint, y: bigint, doubleY: bigint): bigint {
  if (y === 0n) return ONE_18;
  if (x === 0n) return 0n;
  if (x >> 255n !== 0n) throw new AmmError('OVERFLOW', 'pow: x out of bounds');
  if (y >= MILD_EXPONENT_BOUND) throw new AmmError('OVERFLOW', 'pow: y out of bounds');
  let logxTimesY: bigint;
  if (LN_36_LOWER_BOUND < x && x < LN_36_UPPER_BOUND) {
    // The contract's ((ln36 / 1e18) * y + ((ln36 % 1e18) * y) / 1e18) / 1e18 (split against overflow) is ln36 * y / 1e36:
    // with ln36 = q * 1e18 + r (r of ln36's sign, as both truncate toward zero), q * y is an integer of the sign of
    // r * y / 1e18, so the inner sum is trunc(ln36 * y / 1e18), and truncating twice by positive divisors is truncating once.
    logxTimesY = (halfLn36Fast(x) * doubleY) / ONE_18 / ONE_18;
  } else {
    logxTimesY = (lnFast(x) * y) / ONE_18;
  }
  if (logxTimesY < MIN_NATURAL_EXPONENT || logxTimesY > MAX_NATURAL_EXPONENT) {
    throw new AmmError('OVERFLOW', 'pow: product out of bounds');
  }
  return expFast(logxTimesY);
}

/** x ↦ powUp(x, y) for this y: FixedPoint.powUp's exact cases chosen once, then powUpFloat, LogExpMath through powWith where it declines. */
export function powUpBy(y: bigint): (x: bigint) => bigint {
  if (y === ONE) return (x) => x;
  if (y === 2n * ONE) return (x) => mulUp(x, x);
  if (y === 4n * ONE)
    return (x) => {
      const square = mulUp(x, x);
      return mulUp(square, square);
    };
  const doubleY = 2n * y;
  const floatY = powFloatExponent(y);
  if (floatY !== undefined) return (x) => powUpFloat(x, floatY) ?? powUpWith(x, y, doubleY);
  return (x) => powUpWith(x, y, doubleY);
}

/** FixedPoint.powUp(x, y) through powWith. */
function powUpWith(x: bigint, y: bigint, doubleY: bigint): bigint {
  const raw = powWith(x, y, doubleY);
  // mulUp(raw, 1e4) is ceil(raw / 1e14) where raw * 1e4 cannot overflow (and the sums then cannot either).
  if (raw < RAW_BOUND) return raw + (raw + POW_ERROR_CEIL_PLUS_ONE) / POW_ERROR_DIVISOR;
  return add(raw, add(mulUp(raw, MAX_POW_RELATIVE_ERROR), 1n));
}
