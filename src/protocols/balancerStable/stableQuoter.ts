/**
 * A composable stable pool's swap between two tokens prepared for many amounts: what does not depend on the amount is
 * computed once per pool state and direction (upscaled balances, the invariant and its square, the amplification
 * terms, the running product of the balances before the one the amount changes, the sum of the untouched balances),
 * and each amount runs only StableMath's balance iteration with the same operations in the same order as
 * stableSwapGivenIn / stableSwapGivenOut, so results and errors are the same (test/protocols/balancerQuoter.test.ts).
 * A state the preparation would revert on, or balances near 2^256 (where the order of two overflow errors could
 * differ), is quoted by the general path.
 */
import { AmmError } from '../../amm/ammError.ts';
import {
  add,
  addSwapFee,
  divDownInt,
  divUpInt,
  downscaleDown,
  downscaleUp,
  mul,
  sub,
  subtractSwapFee,
  upscale,
} from '../../amm/balancerFixedPoint.ts';
import { AMP_PRECISION, calculateInvariant, type StableSwapState, stableSwapGivenIn, stableSwapGivenOut } from './stableMath.ts';

/** Below this every sum of a pool's balances (at most 6 tokens) fits in uint256, so only products can overflow. */
const SMALL = 1n << 250n;
const BIG = 1n << 254n;
const SQRT_BIG = 1n << 126n;

interface Prepared {
  readonly balances: readonly bigint[];
  readonly n: bigint;
  readonly invariant: bigint;
  readonly ampTimesTotal: bigint;
  readonly inv2: bigint;
  /** divDown(invariant, ampTimesTotal) * AMP_PRECISION: b without the sum. */
  readonly bTerm: bigint;
  /** The changed balance's index, the solved balance's index. */
  readonly changed: number;
  readonly solved: number;
  /** P_D after the balances before `changed` (unused when changed is 0). */
  readonly prefixPD: bigint;
  /** Sum of the balances other than the changed and the solved one. */
  readonly sumOthers: bigint;
  /** The solved token's balance before the swap (c is ceil(D^2 / (A n P_D)) * AMP_PRECISION times it). */
  readonly solvedBefore: bigint;
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
  let prefixPD = balances[0] * n;
  for (let j = 1; j < changed; j++) prefixPD = divDownInt(mul(mul(prefixPD, balances[j]), n), invariant);
  let sumOthers = 0n;
  for (let j = 0; j < balances.length; j++) if (j !== changed && j !== solved) sumOthers += balances[j];
  return {
    balances,
    n,
    invariant,
    ampTimesTotal,
    inv2: mul(invariant, invariant),
    bTerm: mul(divDownInt(invariant, ampTimesTotal), AMP_PRECISION),
    changed,
    solved,
    prefixPD,
    sumOthers,
    solvedBefore: balances[solved],
  };
}

/** StableMath._getTokenBalanceGivenInvariantAndAllOtherBalances with the changed balance at `newBalance`. */
function solvedBalance(p: Prepared, newBalance: bigint): bigint {
  const { balances, n, invariant, changed } = p;
  let pD: bigint;
  let j: number;
  if (changed === 0) {
    pD = newBalance * n;
    j = 1;
  } else {
    pD = p.prefixPD;
    j = changed;
  }
  for (; j < balances.length; j++) {
    pD = divDownInt(mul(mul(pD, j === changed ? newBalance : balances[j]), n), invariant);
  }
  const c = mul(mul(divUpInt(p.inv2, mul(p.ampTimesTotal, pD)), AMP_PRECISION), p.solvedBefore);
  const b = p.sumOthers + newBalance + p.bTerm;
  let tokenBalance = divUpInt(add(p.inv2, c), add(invariant, b));
  if (c >= BIG) return newton(tokenBalance, c, b, invariant, 0);
  // While the balance is below 2^126 nothing overflows (y^2 + c < 2^255, 2y + b < 2^255): plain bigint operations.
  const bMinusInvariant = b - invariant;
  for (let i = 0; i < 255; i++) {
    const denominator = 2n * tokenBalance + bMinusInvariant;
    if (tokenBalance >= SQRT_BIG || denominator <= 0n) return newton(tokenBalance, c, b, invariant, i);
    const prev = tokenBalance;
    const numerator = tokenBalance * tokenBalance + c;
    tokenBalance = numerator === 0n ? 0n : (numerator - 1n) / denominator + 1n;
    if (tokenBalance > prev ? tokenBalance - prev <= 1n : prev - tokenBalance <= 1n) return tokenBalance;
  }
  throw new AmmError('INVALID_POOL_STATE', 'stable balance did not converge');
}

/** The balance iteration from step `from` on with every operation checked (its reverts as in the contract). */
function newton(tokenBalance: bigint, c: bigint, b: bigint, invariant: bigint, from: number): bigint {
  for (let i = from; i < 255; i++) {
    const prev = tokenBalance;
    tokenBalance = divUpInt(add(mul(tokenBalance, tokenBalance), c), sub(add(mul(tokenBalance, 2n), b), invariant));
    if (tokenBalance > prev ? tokenBalance - prev <= 1n : prev - tokenBalance <= 1n) return tokenBalance;
  }
  throw new AmmError('INVALID_POOL_STATE', 'stable balance did not converge');
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
  if (exactIn) {
    const scaleIn = scalingFactors[indexIn];
    const scaleOut = scalingFactors[indexOut];
    return (amountIn) => {
      const amount = upscale(subtractSwapFee(amountIn, swapFee), scaleIn);
      if (amount >= SMALL) return general(amountIn);
      const finalOut = solvedBalance(prepared, balanceIn + amount);
      return downscaleDown(sub(sub(balanceOut, finalOut), 1n), scaleOut);
    };
  }
  const scaleIn = scalingFactors[indexIn];
  const scaleOut = scalingFactors[indexOut];
  return (amountOut) => {
    const finalIn = solvedBalance(prepared, sub(balanceOut, upscale(amountOut, scaleOut)));
    return addSwapFee(downscaleUp(add(sub(finalIn, balanceIn), 1n), scaleIn), swapFee);
  };
}
