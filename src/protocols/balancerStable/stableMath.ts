/**
 * A Balancer v2 composable stable pool's swap between two of its tokens, exactly as ComposableStablePool (February
 * 2023, v3) computes it inside Vault.swap: the swap fee comes off the raw input, balances and amounts are scaled by
 * each token's scaling factor (decimals times its rate provider's cached rate), the pool's own BPT is left out, the
 * StableMath invariant and Newton iterations price the trade at the current amplification, and the result is scaled
 * back rounding in the pool's favour.
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

/** StableMath._AMP_PRECISION: amplification parameters carry three decimals. */
export const AMP_PRECISION = 1000n;

/** An amplification parameter (AMP_PRECISION included), constant or ramping linearly from start to end. */
export interface AmpRamp {
  readonly startValue: bigint;
  readonly endValue: bigint;
  readonly startTime: bigint;
  readonly endTime: bigint;
}

/** StableMath amplification at a block timestamp (StablePoolAmplification._getAmplificationParameter). */
export function ampAt(ramp: AmpRamp, timestamp: bigint): bigint {
  if (timestamp >= ramp.endTime) return ramp.endValue;
  const elapsed = timestamp - ramp.startTime;
  const duration = ramp.endTime - ramp.startTime;
  if (ramp.endValue > ramp.startValue) return ramp.startValue + ((ramp.endValue - ramp.startValue) * elapsed) / duration;
  return ramp.startValue - ((ramp.startValue - ramp.endValue) * elapsed) / duration;
}

/** StableMath._calculateInvariant (upscaled balances), rounding as the contract: Newton steps until within 1. */
export function calculateInvariant(amp: bigint, balances: readonly bigint[]): bigint {
  let sum = 0n;
  const n = BigInt(balances.length);
  for (const b of balances) sum = add(sum, b);
  if (sum === 0n) return 0n;
  let invariant = sum;
  const ampTimesTotal = amp * n;
  for (let i = 0; i < 255; i++) {
    let dP = invariant;
    for (const b of balances) dP = divDownInt(mul(dP, invariant), mul(b, n));
    const prev = invariant;
    invariant = divDownInt(
      mul(add(divDownInt(mul(ampTimesTotal, sum), AMP_PRECISION), mul(dP, n)), invariant),
      add(divDownInt(mul(ampTimesTotal - AMP_PRECISION, invariant), AMP_PRECISION), mul(n + 1n, dP)),
    );
    if (invariant > prev ? invariant - prev <= 1n : prev - invariant <= 1n) return invariant;
  }
  throw new AmmError('INVALID_POOL_STATE', 'stable invariant did not converge');
}

/** StableMath._getTokenBalanceGivenInvariantAndAllOtherBalances: the balance of token `index` that keeps the invariant. */
export function balanceGivenInvariant(amp: bigint, balances: readonly bigint[], invariant: bigint, index: number): bigint {
  const n = BigInt(balances.length);
  const ampTimesTotal = amp * n;
  let sum = balances[0];
  let pD = balances[0] * n;
  for (let j = 1; j < balances.length; j++) {
    pD = divDownInt(mul(mul(pD, balances[j]), n), invariant);
    sum = add(sum, balances[j]);
  }
  sum -= balances[index];
  const inv2 = mul(invariant, invariant);
  const c = mul(mul(divUpInt(inv2, mul(ampTimesTotal, pD)), AMP_PRECISION), balances[index]);
  const b = add(sum, mul(divDownInt(invariant, ampTimesTotal), AMP_PRECISION));
  return balanceIteration(divUpInt(add(inv2, c), add(invariant, b)), c, b, invariant);
}

/**
 * StableMath's Newton iteration for a token balance, y <- ceil((y^2 + c) / (2y + b - D)) until two successive values
 * are within 1, from `tokenBalance` as step `from` (0: the contract's initial guess), every operation checked.
 */
export function balanceIteration(tokenBalance: bigint, c: bigint, b: bigint, invariant: bigint, from = 0): bigint {
  for (let i = from; i < 255; i++) {
    const prev = tokenBalance;
    tokenBalance = divUpInt(add(mul(tokenBalance, tokenBalance), c), sub(add(mul(tokenBalance, 2n), b), invariant));
    if (tokenBalance > prev ? tokenBalance - prev <= 1n : prev - tokenBalance <= 1n) return tokenBalance;
  }
  throw new AmmError('INVALID_POOL_STATE', 'stable balance did not converge');
}

/** StableMath._calcOutGivenIn (upscaled). */
export function calcOutGivenIn(
  amp: bigint,
  balances: readonly bigint[],
  indexIn: number,
  indexOut: number,
  amountIn: bigint,
  invariant: bigint,
): bigint {
  const after = [...balances];
  after[indexIn] = add(after[indexIn], amountIn);
  const finalOut = balanceGivenInvariant(amp, after, invariant, indexOut);
  return sub(sub(balances[indexOut], finalOut), 1n);
}

/** StableMath._calcInGivenOut (upscaled). */
export function calcInGivenOut(
  amp: bigint,
  balances: readonly bigint[],
  indexIn: number,
  indexOut: number,
  amountOut: bigint,
  invariant: bigint,
): bigint {
  const after = [...balances];
  after[indexOut] = sub(after[indexOut], amountOut);
  const finalIn = balanceGivenInvariant(amp, after, invariant, indexIn);
  return add(sub(finalIn, balances[indexIn]), 1n);
}

/** A composable stable pool's tradeable tokens (BPT left out), raw, with what a swap between them needs. */
export interface StableSwapState {
  /** Raw balances of the pool's own tokens, in the Vault's order with the BPT dropped. */
  readonly balances: readonly bigint[];
  /** Their scaling factors: decimals factor times the token's rate (FixedPoint.mulDown), 1e18 rate when none. */
  readonly scalingFactors: readonly bigint[];
  /** The amplification parameter at the swap's block (AMP_PRECISION included). */
  readonly amp: bigint;
  /** Swap fee percentage, 18 decimals. */
  readonly swapFee: bigint;
}

function upscaled(state: StableSwapState): bigint[] {
  return state.balances.map((b, i) => upscale(b, state.scalingFactors[i]));
}

/** Raw output for a raw input between two tokens (indices without the BPT). */
export function stableSwapGivenIn(state: StableSwapState, indexIn: number, indexOut: number, amountIn: bigint): bigint {
  const amount = upscale(subtractSwapFee(amountIn, state.swapFee), state.scalingFactors[indexIn]);
  const balances = upscaled(state);
  const invariant = calculateInvariant(state.amp, balances);
  const out = calcOutGivenIn(state.amp, balances, indexIn, indexOut, amount, invariant);
  return downscaleDown(out, state.scalingFactors[indexOut]);
}

/** Raw input for a raw output between two tokens (indices without the BPT). */
export function stableSwapGivenOut(state: StableSwapState, indexIn: number, indexOut: number, amountOut: bigint): bigint {
  const amount = upscale(amountOut, state.scalingFactors[indexOut]);
  const balances = upscaled(state);
  const invariant = calculateInvariant(state.amp, balances);
  const amountIn = calcInGivenOut(state.amp, balances, indexIn, indexOut, amount, invariant);
  return addSwapFee(downscaleUp(amountIn, state.scalingFactors[indexIn]), state.swapFee);
}
