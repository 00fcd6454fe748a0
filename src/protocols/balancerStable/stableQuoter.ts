/**
 * A composable stable pool's swap between two tokens prepared for many amounts: what does not depend on the amount is
 * computed once per pool state and direction (upscaled balances, the invariant and its square, the amplification
 * terms, the running product of the balances before the one the amount changes, the sum of the untouched balances),
 * and each amount runs only StableMath's balance computation: the same operations as stableSwapGivenIn /
 * stableSwapGivenOut up to the Newton iteration, whose end is then taken directly where it is provably the rounded-up
 * root (convergedBalance), so results and errors are the same (test/protocols/balancerQuoter.test.ts).
 * A state the preparation would revert on, or balances near 2^256 (where the order of two overflow errors could
 * differ), is quoted by the general path.
 */
import { AmmError } from '../../amm/ammError.ts';
import {
  add,
  divDownInt,
  divUpInt,
  downscaleDown,
  downscaleUp,
  feeKept,
  MAX_UINT256,
  MAX_UNSCALED,
  mul,
  netOfFee,
  ONE,
  sub,
  swapFeeAdder,
  swapFeeSubtractor,
  upscale,
} from '../../amm/balancerFixedPoint.ts';
import {
  AMP_PRECISION,
  balanceIteration,
  calculateInvariant,
  type StableSwapState,
  stableSwapGivenIn,
  stableSwapGivenOut,
} from './stableMath.ts';

/** Below this every sum of a pool's balances (at most 6 tokens) fits in uint256, so only products can overflow. */
const SMALL = 1n << 250n;
const BIG = 1n << 254n;
const SQRT_BIG = 1n << 126n;
const TWO_200 = 1n << 200n;

interface Prepared {
  readonly balances: readonly bigint[];
  /** Each balance times n (pD * x * n overflows exactly when pD * (x * n) does). */
  readonly balancesTimesN: readonly bigint[];
  /** The invariant D (positive: a zero one is left to the general path). */
  readonly invariant: bigint;
  readonly ampTimesTotal: bigint;
  readonly inv2: bigint;
  /**
   * floor((D^2 - 1) / A n): ceil(D^2 / (A n P_D)) is floor((D^2 - 1) / (A n P_D)) + 1 for P_D > 0, and
   * floor(floor(u / v) / w) = floor(u / (v w)), so each quote divides once and skips the product A n P_D.
   */
  readonly inv2Minus1OverAn: bigint;
  /** The largest P_D with A n P_D in uint256 (above it the contract's product reverts). */
  readonly maxPD: bigint;
  /** b - D without the changed balance: the sum of the others + divDown(invariant, ampTimesTotal) * AMP_PRECISION - D. */
  readonly betaRest: bigint;
  /**
   * P_D's factor besides the changed balance at the changed index: n * (n * balances[1]) when the changed index is 0
   * (P_D starts at x * n, then times balances[1] * n), else the P_D of the balances before it times n. The contract's
   * checked mul(mul(P_D, x), n) overflows exactly when x * changedFactor does (every partial product is at most it).
   */
  readonly changedFactor: bigint;
  /** The index after the last balance changedFactor covers (P_D's loop goes on from it). */
  readonly next: number;
  /** The solved token's balance before the swap (c is ceil(D^2 / (A n P_D)) * AMP_PRECISION times it). */
  readonly solvedBefore: bigint;
  /** AMP_PRECISION * solvedBefore when solvedBefore > 0 (q * 1000 * s overflows exactly when q * (1000 * s) does). */
  readonly cFactor: bigint | undefined;
  /** Whether q * cFactor fits in uint256 for every q a quote can reach (q <= inv2Minus1OverAn + 1): no check then. */
  readonly cFits: boolean;
}

/** StableMath._calculateInvariant of upscaled balances at an amplification; a memo may stand in for it. */
export type InvariantOf = (amp: bigint, balances: readonly bigint[]) => bigint;

/**
 * A memo of the last invariant computed, for the quoters of one pool state (every pair and direction shares it): it
 * answers from memory only for the same amplification and the same upscaled balances, value for value.
 */
export function invariantMemo(): InvariantOf {
  let last: { amp: bigint; balances: readonly bigint[]; invariant: bigint } | undefined;
  return (amp, balances) => {
    if (
      last !== undefined &&
      last.amp === amp &&
      last.balances.length === balances.length &&
      last.balances.every((b, i) => b === balances[i])
    )
      return last.invariant;
    const invariant = calculateInvariant(amp, balances);
    last = { amp, balances: [...balances], invariant };
    return invariant;
  };
}

function prepare(
  balances: readonly bigint[],
  amp: bigint,
  changed: number,
  solved: number,
  invariantOf: InvariantOf,
): Prepared | undefined {
  if (balances.some((b) => b >= SMALL)) return undefined;
  const n = BigInt(balances.length);
  const invariant = invariantOf(amp, balances);
  const ampTimesTotal = amp * n;
  if (invariant === 0n || ampTimesTotal <= 0n) return undefined;
  const balancesTimesN = balances.map((b) => b * n);
  let changedFactor: bigint;
  if (changed === 0) changedFactor = n * balancesTimesN[1];
  else {
    let prefixPD = balances[0] * n;
    for (let j = 1; j < changed; j++) prefixPD = divDownInt(mul(mul(prefixPD, balances[j]), n), invariant);
    changedFactor = prefixPD * n;
  }
  let sumOthers = 0n;
  for (let j = 0; j < balances.length; j++) if (j !== changed && j !== solved) sumOthers += balances[j];
  const solvedBefore = balances[solved];
  const inv2 = mul(invariant, invariant);
  const inv2Minus1OverAn = (inv2 - 1n) / ampTimesTotal;
  const cFactor = solvedBefore > 0n ? AMP_PRECISION * solvedBefore : undefined;
  return {
    balances,
    balancesTimesN,
    invariant,
    ampTimesTotal,
    inv2,
    inv2Minus1OverAn,
    maxPD: MAX_UINT256 / ampTimesTotal,
    betaRest: sumOthers + mul(divDownInt(invariant, ampTimesTotal), AMP_PRECISION) - invariant,
    changedFactor,
    next: changed === 0 ? 2 : changed + 1,
    solvedBefore,
    cFactor,
    cFits: cFactor !== undefined && (inv2Minus1OverAn + 1n) * cFactor <= MAX_UINT256,
  };
}

/** StableMath._getTokenBalanceGivenInvariantAndAllOtherBalances with the changed balance at `newBalance`. */
function solvedBalance(p: Prepared, newBalance: bigint): bigint {
  const { balancesTimesN, invariant } = p;
  let pD = mul(newBalance, p.changedFactor) / invariant;
  for (let j = p.next; j < balancesTimesN.length; j++) pD = mul(pD, balancesTimesN[j]) / invariant;
  let c: bigint;
  if (pD > 0n && pD <= p.maxPD) {
    const q = p.inv2Minus1OverAn / pD + 1n;
    c = p.cFits ? q * (p.cFactor as bigint) : p.cFactor === undefined ? mul(mul(q, AMP_PRECISION), p.solvedBefore) : mul(q, p.cFactor);
  } else {
    // The contract's divUp(D^2, mul(A n, P_D)) reverts here: the product overflows, or it is zero.
    c = divUpInt(p.inv2, mul(p.ampTimesTotal, pD));
  }
  return solveBalance(c, newBalance + p.betaRest, invariant, p.inv2);
}

/**
 * StableMath's balance given c, beta = b - D and the invariant D (inv2 = D^2): what balanceIteration returns from the contract's
 * initial guess ceil((D^2 + c) / (D + b)), and the same errors, taken directly where provably equal (convergedBalance),
 * otherwise by that iteration: below 2^126 nothing overflows (y^2 + c < 2^255, 2y + b < 2^255), so its steps run on
 * plain bigint operations, the checked iteration taking over past that.
 */
export function solveBalance(c: bigint, beta: bigint, invariant: bigint, inv2: bigint = mul(invariant, invariant)): bigint {
  if (c < BIG && invariant < SQRT_BIG) {
    const end = convergedBalance(c, beta, invariant);
    if (end !== undefined) return end;
  }
  const b = beta + invariant;
  let tokenBalance = divUpInt(add(inv2, c), add(invariant, b));
  if (c >= BIG) return balanceIteration(tokenBalance, c, b, invariant);
  for (let i = 0; i < 255; i++) {
    const denominator = 2n * tokenBalance + beta;
    if (tokenBalance >= SQRT_BIG || denominator <= 0n) return balanceIteration(tokenBalance, c, b, invariant, i);
    const prev = tokenBalance;
    const numerator = tokenBalance * tokenBalance + c;
    tokenBalance = numerator === 0n ? 0n : (numerator - 1n) / denominator + 1n;
    if (tokenBalance > prev ? tokenBalance - prev <= 1n : prev - tokenBalance <= 1n) return tokenBalance;
  }
  throw new AmmError('INVALID_POOL_STATE', 'stable balance did not converge');
}

/**
 * The balance StableMath's iteration ends on, for c < 2^254 and D < 2^126, when it is provably R = ceil(r), r the
 * positive root of h(y) = y^2 + beta*y - c (beta = b - D); undefined when not proven (the caller iterates then).
 *
 * A step is f(y) = ceil((y^2 + c) / d(y)) with d(y) = 2y + beta = h'(y), and (y^2 + c) / d(y) = r + (y - r)^2 / d(y)
 * >= r where d(y) > 0, so f(y) >= R there. The contract starts from f(D) (d(D) = D + b > 0) and stops at the first
 * value y_k with |f(y_k) - y_k| <= 1, returning f(y_k). For y >= R, f(y) = y - floor(h(y) / d(y)) <= y and h / d
 * increases with y, so from f(D) on the values are integers >= R that decrease until the first one with
 * floor(h / d) <= 1 (those form an interval R, R + 1, ..). With H = h(R) and d = d(R): h(R - 1) = H - d + 1,
 * h(R + 1) = H + d + 1 with d(R + 1) = d + 2, h(R + 2) = H + 2d + 4 with d(R + 2) = d + 4. So when 4 <= H < d - 1:
 * h(R - 1) < 0 <= h(R) (R is ceil(r)), f(R) = R, f(R + 1) = R (1 <= h / d < 2 there) and R + 2 is past the interval:
 * whichever of R, R + 1 the iteration reaches first, it returns R. When also R <= D, every value is at most f(D) <= D <
 * 2^126, so no step overflows, and the error of a value at least halves each step (e' <= e^2 / (2e + r - r') + 1), so
 * it gets there in far fewer than the contract's 255 steps.
 *
 * The candidate R: first a float estimate corrected by one Newton step taken in floats: r0 from the float quadratic
 * formula (no cancellation either way: 2c / (beta + sqrt) for beta >= 0), R0 = ceil(r0) in bigint and h(R0) exactly,
 * then R0 - r = h(R0) / (R0 - r'), about h(R0) / sqrt(beta^2 + 4c) (r' the other root), in floats to ~1e-15 of itself:
 * so ceil(r) = R0 - floor(R0 - r) unless R0 - r is within ~1e-6 of an integer (fewer bigint operations than an integer
 * square root: no 4c, beta^2, quotient or its square). Where that fails the check or the floats overflow, R comes from
 * an integer square root of beta^2 + 4c (a float estimate, Newton steps and a correction). A wrong candidate would only
 * fail the check, which alone proves the answer: 4 <= h(R) < d(R) - 1 from h(R) exactly, or, for the corrected float
 * candidate, from bounds on R - r in floats (floatProven) that skip h(R) where R - r is clear of 0 and 1.
 */
export function convergedBalance(c: bigint, beta: bigint, invariant: bigint): bigint | undefined {
  // The float candidate, with h at it and the floats of beta, R and h carried into the check.
  const cf = Number(c);
  const betaf = Number(beta);
  const sq = Math.sqrt(betaf * betaf + 4 * cf);
  const r0 = Math.ceil(betaf >= 0 ? (2 * cf) / (betaf + sq) : (sq - betaf) / 2);
  if (r0 < Number.MAX_VALUE && sq > 0) {
    let root = BigInt(r0);
    let h = root * (root + beta) - c;
    let hf = Number(h);
    const t = hf / sq;
    const delta = Math.floor(t);
    if (Number.isFinite(delta)) {
      // r0 and delta are integers in floats, so r0 - delta is root's value rounded once, as Number(root) would be.
      let rootf = r0;
      if (delta !== 0) {
        root -= BigInt(delta);
        if (floatProven(t, delta, sq) && root <= invariant) return root;
        rootf = r0 - delta;
        h = root * (root + beta) - c;
        hf = Number(h);
      }
      if (proven(root, h, hf, rootf, beta, betaf, invariant)) return root;
    }
  }
  const root = sqrtRoot(c, beta);
  const h = root * (root + beta) - c;
  return proven(root, h, Number(h), Number(root), beta, betaf, invariant) ? root : undefined;
}

/**
 * Whether R = R0 - delta provably has 4 <= h(R) < d(R) - 1 (R <= D is the caller's to check), without h(R): t is
 * the float h(R0) / sq, sq the float sqrt(beta^2 + 4c), delta = floor(t). With r > r' the roots and S = r - r' =
 * sqrt(beta^2 + 4c), h(y) = (y - r)(y - r'), so the exact T = R0 - r has h(R0) = T (T + S), and with u = R - r = T - delta:
 * h(R) = u (u + S) and d(R) = 2R + beta = 2u + S, so h(R) < d(R) - 1 is (u - 1)(u + S - 1) < 0, true for 0 < u < 1 and
 * S > 1, and h(R) >= 4 holds once u S >= 4. In floats: sq is within 3 * 2^-53 of S relatively (c, beta and beta^2
 * rounded once each, a sum of two non-negative terms, a square root), h(R0) within 2^-53, the quotient too, and
 * h(R0) / S = T (1 + T / S), so t is within |T| / S + 5.1 * 2^-53 of T relatively. With |t| <= sq * 2^-20 that is below
 * err = |t| (2 |t| / sq + 2^-48) absolutely, 2^-50 more covering t - delta's rounding; so u is in t - delta +- err, and
 * the checks below give 0 < u < 1 (delta is floor(T)) and u S > (t - delta - err) sq / 2 >= 4.
 */
function floatProven(t: number, delta: number, sq: number): boolean {
  const at = Math.abs(t);
  if (!(at <= sq * 2 ** -20)) return false;
  const frac = t - delta;
  const err = at * ((2 * at) / sq + 2 ** -48) + 2 ** -50;
  return frac - err > 0 && frac + err < 1 && (frac - err) * sq >= 8;
}

/**
 * Whether the checks above prove the candidate R is where the iteration ends: h = h(R) exactly, hf, rootf and betaf
 * the floats of h, R and beta (each within 2^-53 of its value, relatively).
 */
function proven(root: bigint, h: bigint, hf: number, rootf: number, beta: bigint, betaf: number, invariant: bigint): boolean {
  if (root > invariant || h < 4n) return false;
  // h + 1 < d = 2 root + beta decided in floats where they are apart by more than the floats' error: each conversion
  // and the sum are within 2^-53 of their values, so |hf - h| + |df - d| < (|hf| + 2|root| + |beta|) * 2^-51, below
  // the slack; only a near tie is decided in bigint.
  const df = 2 * rootf + betaf;
  const slack = (Math.abs(hf) + 2 * Math.abs(rootf) + Math.abs(betaf)) * 2 ** -50 + 2;
  if (hf + slack < df) return true;
  return h + 1n < 2n * root + beta;
}

/** ceil(r) from the integer square root of beta^2 + 4c: r = (sqrt(beta^2 + 4c) - beta) / 2. */
function sqrtRoot(c: bigint, beta: bigint): bigint {
  const disc = beta * beta + 4n * c;
  let s = BigInt(Math.floor(Math.sqrt(Number(disc))));
  if (s > 0n) {
    // Each step gives >= floor(sqrt(disc)); from a float estimate (53 bits) one step is within 1 below 2^200, two above.
    s = (s + disc / s) >> 1n;
    if (disc >= TWO_200) s = (s + disc / s) >> 1n;
    if (s * s > disc) s -= 1n;
  }
  return ((s - beta) >> 1n) + 1n;
}

/**
 * x ↦ stableSwapGivenIn(state, indexIn, indexOut, x) (exactIn) or stableSwapGivenOut (exactOut), sharing across
 * amounts everything that does not depend on the amount.
 */
export function stableQuoter(
  state: StableSwapState,
  indexIn: number,
  indexOut: number,
  exactIn: boolean,
  invariantOf: InvariantOf = calculateInvariant,
): (amount: bigint) => bigint {
  const general = exactIn
    ? (amount: bigint) => stableSwapGivenIn(state, indexIn, indexOut, amount)
    : (amount: bigint) => stableSwapGivenOut(state, indexIn, indexOut, amount);
  let p: Prepared | undefined;
  try {
    const balances = state.balances.map((b, i) => upscale(b, state.scalingFactors[i]));
    p = exactIn
      ? prepare(balances, state.amp, indexIn, indexOut, invariantOf)
      : prepare(balances, state.amp, indexOut, indexIn, invariantOf);
  } catch {
    p = undefined;
  }
  if (p === undefined) return general;
  const prepared = p;
  const { swapFee, scalingFactors } = state;
  const balanceIn = prepared.balances[indexIn];
  const balanceOut = prepared.balances[indexOut];
  const balanceOutMinus1 = balanceOut - 1n;
  const scaleIn = scalingFactors[indexIn];
  const scaleOut = scalingFactors[indexOut];
  const inIsOne = scaleIn === ONE;
  const outIsOne = scaleOut === ONE;
  // Tokens of 18 decimals without a rate (scaling is the identity up to MAX_UNSCALED) and a balance out up to
  // MAX_UNSCALED: amounts in [0, MAX_UNSCALED] (exact in) or [0, balance out] (exact out) take only what can happen to
  // them (an amount and a balance below SMALL, an output up to the balance out), the rest the checked closures below.
  const plain = inIsOne && outIsOne && balanceOut <= MAX_UNSCALED;
  if (exactIn) {
    const takeFee = swapFeeSubtractor(swapFee);
    const checked = (amountIn: bigint) => {
      const net = takeFee(amountIn);
      const amount = inIsOne && net <= MAX_UNSCALED ? net : upscale(net, scaleIn);
      if (amount >= SMALL) return general(amountIn);
      // sub(sub(balanceOut, solved), 1n) in one subtraction: either step underflows exactly when solved >= balanceOut.
      const solved = solvedBalance(prepared, balanceIn + amount);
      if (solved >= balanceOut) throw new AmmError('OVERFLOW', 'sub underflows');
      const out = balanceOutMinus1 - solved;
      return outIsOne && out <= MAX_UNSCALED ? out : downscaleDown(out, scaleOut);
    };
    const kept = feeKept(swapFee);
    if (!plain || kept === undefined) return checked;
    return (amountIn) => {
      if (amountIn < 0n || amountIn > MAX_UNSCALED) return checked(amountIn);
      const solved = solvedBalance(prepared, balanceIn + netOfFee(amountIn, kept));
      if (solved >= balanceOut) throw new AmmError('OVERFLOW', 'sub underflows');
      return balanceOutMinus1 - solved;
    };
  }
  const addFee = swapFeeAdder(swapFee);
  const checked = (amountOut: bigint) => {
    const amount = outIsOne && amountOut <= MAX_UNSCALED ? amountOut : upscale(amountOut, scaleOut);
    const amountIn = add(sub(solvedBalance(prepared, sub(balanceOut, amount)), balanceIn), 1n);
    return addFee(inIsOne && amountIn <= MAX_UNSCALED ? amountIn : downscaleUp(amountIn, scaleIn));
  };
  if (!plain) return checked;
  return (amountOut) => {
    if (amountOut < 0n || amountOut > balanceOut) return checked(amountOut);
    const amountIn = sub(solvedBalance(prepared, balanceOut - amountOut), balanceIn) + 1n;
    // Past MAX_UNSCALED (or 2^256, where add reverts) the checked closure computes it again and scales or reverts.
    return amountIn <= MAX_UNSCALED ? addFee(amountIn) : checked(amountOut);
  };
}
