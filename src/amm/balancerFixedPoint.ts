/**
 * Balancer v2's 18-decimal fixed-point arithmetic (v2-solidity-utils FixedPoint and LogExpMath, as the February 2023
 * pools are built with), in bigint, with every rounding direction and every revert of the Solidity: a revert throws an
 * AmmError. Shared by the weighted and the stable pool math and by the pools' scaling (decimals, token rates).
 */
import { AmmError } from './ammError.ts';

export const ONE = 10n ** 18n;
const TWO = 2n * ONE;
const FOUR = 4n * ONE;
const MAX_UINT256 = (1n << 256n) - 1n;
/** FixedPoint.MAX_POW_RELATIVE_ERROR: 1e-14. */
const MAX_POW_RELATIVE_ERROR = 10_000n;

function checked(value: bigint, what: string): bigint {
  if (value > MAX_UINT256) throw new AmmError('OVERFLOW', `${what} overflows uint256`);
  return value;
}

export function add(a: bigint, b: bigint): bigint {
  return checked(a + b, 'add');
}

export function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw new AmmError('OVERFLOW', 'sub underflows');
  return a - b;
}

/** Plain integer product (Math.mul: reverts on overflow). */
export function mul(a: bigint, b: bigint): bigint {
  return checked(a * b, 'mul');
}

/** Plain integer division rounding down (Math.divDown). */
export function divDownInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'division by zero');
  return a / b;
}

/** Plain integer division rounding up (Math.divUp: 0 stays 0). */
export function divUpInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'division by zero');
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}

export function mulDown(a: bigint, b: bigint): bigint {
  return checked(a * b, 'mulDown') / ONE;
}

export function mulUp(a: bigint, b: bigint): bigint {
  const product = checked(a * b, 'mulUp');
  return product === 0n ? 0n : (product - 1n) / ONE + 1n;
}

export function divDown(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'divDown by zero');
  return checked(a * ONE, 'divDown') / b;
}

export function divUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'divUp by zero');
  const inflated = checked(a * ONE, 'divUp');
  return inflated === 0n ? 0n : (inflated - 1n) / b + 1n;
}

/** 1 - x, or 0 when x >= 1. */
export function complement(x: bigint): bigint {
  return x < ONE ? ONE - x : 0n;
}

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

// LogExpMath: natural exponent and logarithm in 18 (and internally 20 and 36) decimals. bigint division truncates
// toward zero, as Solidity's signed division does.
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

function ln36Of(x: bigint): bigint {
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

/** A token's scaling factor for its decimals: 1e18 * 10^(18 - decimals) (BasePool._computeScalingFactor). */
export function decimalsScalingFactor(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18)
    throw new AmmError('INVALID_POOL_STATE', `decimals ${decimals} out of range`);
  return ONE * 10n ** BigInt(18 - decimals);
}

/** Raw amount to the pool's 18-decimal (and rate-adjusted) units, rounding down (ScalingHelpers._upscale). */
export function upscale(amount: bigint, scalingFactor: bigint): bigint {
  return mulDown(amount, scalingFactor);
}

/** Back to raw units rounding down (ScalingHelpers._downscaleDown). */
export function downscaleDown(amount: bigint, scalingFactor: bigint): bigint {
  return divDown(amount, scalingFactor);
}

/** Back to raw units rounding up (ScalingHelpers._downscaleUp). */
export function downscaleUp(amount: bigint, scalingFactor: bigint): bigint {
  return divUp(amount, scalingFactor);
}

/** The input left after the swap fee (BasePool._subtractSwapFeeAmount: the fee rounds up). */
export function subtractSwapFee(amount: bigint, swapFee: bigint): bigint {
  return sub(amount, mulUp(amount, swapFee));
}

/** The input including the swap fee (BasePool._addSwapFeeAmount: divided by 1 - fee, rounding up). */
export function addSwapFee(amount: bigint, swapFee: bigint): bigint {
  return divUp(amount, complement(swapFee));
}
