import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from './sqrtPriceMath.ts';

/** SwapMath's 1e6: fees are in hundredths of a bip (pips), so a fee of MAX_FEE pips would be 100%. */
export const MAX_FEE = 1_000_000n;

/** Result of one swap step; a caller-owned record that computeSwapStep overwrites (no allocation per step). */
export interface SwapStep {
  sqrtRatioNextX96: bigint;
  amountIn: bigint;
  amountOut: bigint;
  feeAmount: bigint;
  /**
   * What the step would take to reach its target, as the contract computes it first (exact input: the input, fee
   * excluded, rounded up; exact output: the output, rounded down): the same for every amount stepped from the same
   * price and liquidity to the same target (toTarget).
   */
  amountToTarget: bigint;
}

/** A fresh SwapStep record to pass to computeSwapStep. */
export function createSwapStep(): SwapStep {
  return { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n, amountToTarget: 0n };
}

/**
 * One swap step within a single liquidity range, like SwapMath.computeSwapStep (v3-core, and v4-core's, whose
 * results are the same: where v4 takes amountIn = the remainder less fee and amountOut = the remaining output
 * instead of recomputing them, the swapper's totals do not change; v4 adds the 100% fee): the price reached,
 * the input consumed (fee excluded), the output and the fee. amountRemaining > 0 is exact input, < 0 exact output.
 * feePips is the fee in hundredths of a bip (3000 = 0.3%). Writes into `out` and returns it. `toTarget`, when given,
 * is the step's amountToTarget as an earlier step from the same price and liquidity to the same target computed it
 * (a ladder's next amount, a tick source's precomputed range): not computed again.
 */
export function computeSwapStep(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
  out: SwapStep = createSwapStep(),
  toTarget?: bigint,
): SwapStep {
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96;
  const exactIn = amountRemaining >= 0n;
  let sqrtRatioNextX96: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const amountRemainingLessFee = (amountRemaining * (MAX_FEE - feePips)) / MAX_FEE;
    amountIn = toTarget ?? amountToTarget(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true, zeroForOne);
    out.amountToTarget = amountIn;
    sqrtRatioNextX96 =
      amountRemainingLessFee >= amountIn
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne);
  } else {
    amountOut = toTarget ?? amountToTarget(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false, zeroForOne);
    out.amountToTarget = amountOut;
    sqrtRatioNextX96 =
      -amountRemaining >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne);
  }
  const max = sqrtRatioTargetX96 === sqrtRatioNextX96;
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false);
  }
  // Cap the output so it does not exceed the remaining output amount.
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;
  // The target not reached on exact input: the rest of the maximum input is taken as fee.
  const feeAmount =
    exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96 ? amountRemaining - amountIn : stepFee(amountIn, feePips, MAX_FEE - feePips);
  out.sqrtRatioNextX96 = sqrtRatioNextX96;
  out.amountIn = amountIn;
  out.amountOut = amountOut;
  out.feeAmount = feeAmount;
  return out;
}

/**
 * computeSwapStep's first amount, what the step takes to reach its target from the current price: exact input, the
 * input (fee excluded) rounded up; exact output, the output rounded down (SwapStep.amountToTarget).
 */
export function amountToTarget(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  exactIn: boolean,
  zeroForOne: boolean,
): bigint {
  return exactIn
    ? inputTo(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, zeroForOne)
    : outputTo(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, zeroForOne);
}

/** The input (fee excluded) a step takes from price `from` to price `to` in one range, rounded up. */
function inputTo(from: bigint, to: bigint, liquidity: bigint, zeroForOne: boolean): bigint {
  return zeroForOne ? getAmount0Delta(to, from, liquidity, true) : getAmount1Delta(from, to, liquidity, true);
}

/** The output a step gives from price `from` to price `to` in one range, rounded down. */
function outputTo(from: bigint, to: bigint, liquidity: bigint, zeroForOne: boolean): bigint {
  return zeroForOne ? getAmount1Delta(to, from, liquidity, false) : getAmount0Delta(from, to, liquidity, false);
}

/**
 * computeSwapStep's fee on a step's input where the step reached its target or is exact output:
 * mulDivRoundingUp(amountIn, feePips, 1e6 - feePips), or amountIn itself at v4's 100% fee (exact input only:
 * Pool.swap refuses exact output; the target is then reached only when amountIn is 0). `feeComplement` is
 * 1e6 - feePips.
 */
function stepFee(amountIn: bigint, feePips: bigint, feeComplement: bigint): bigint {
  if (feePips === MAX_FEE) return amountIn;
  const p = amountIn * feePips;
  const fee = p / feeComplement;
  return fee * feeComplement === p ? fee : fee + 1n;
}

/** What the tick walk reads of a step that reaches its target (stepReachingTarget); caller-owned, overwritten. */
export interface StepReach {
  /** Exact input: the input with its fee; exact output: the output. */
  taken: bigint;
  /** Exact input: the output; exact output: the input with its fee. */
  swapped: bigint;
}

/** A fresh StepReach record to pass to stepReachingTarget. */
export function createStepReach(): StepReach {
  return { taken: 0n, swapped: 0n };
}

/**
 * computeSwapStep for a step the amount reaches the target of (its amountRemainingLessFee, or remaining output, at
 * least `toTarget`, the step's amountToTarget), with only what a swapper's totals read: the price reached is the
 * target; exact input takes toTarget plus its fee and swaps the output to the target; exact output takes toTarget
 * (computeSwapStep's cap does not apply: it is at most the remaining output) and swaps the input to the target plus
 * its fee. Without computeSwapStep's remainder less fee and negated amount, which the caller already compared.
 * `feeComplement` is 1e6 - feePips. test/amm/swapMath.test.ts holds it to computeSwapStep. Writes into `out`.
 */
export function stepReachingTarget(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  exactIn: boolean,
  zeroForOne: boolean,
  toTarget: bigint,
  feePips: bigint,
  feeComplement: bigint,
  out: StepReach,
): StepReach {
  if (exactIn) {
    out.taken = toTarget + stepFee(toTarget, feePips, feeComplement);
    out.swapped = outputTo(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, zeroForOne);
    return out;
  }
  const amountIn = inputTo(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, zeroForOne);
  out.taken = toTarget;
  out.swapped = amountIn + stepFee(amountIn, feePips, feeComplement);
  return out;
}

/** What the tick walk reads of a step an amount ends inside (stepEndingInside); caller-owned, overwritten. */
export interface StepEnd {
  sqrtRatioNextX96: bigint;
  /** Exact input: the output; exact output: the input with its fee. */
  swapped: bigint;
}

/** A fresh StepEnd record to pass to stepEndingInside. */
export function createStepEnd(): StepEnd {
  return { sqrtRatioNextX96: 0n, swapped: 0n };
}

/**
 * computeSwapStep for a step whose target the amount does not reach (`remaining` below its amountToTarget), with
 * only what a swapper's totals read: the price reached and the amount swapped for it. Exact input (`remaining` is
 * amountRemainingLessFee): the whole remainder is taken (computeSwapStep's amountIn + feeAmount, the fee being the
 * rest), so only the price and the output are computed, as v4-core's SwapMath does. Exact output (`remaining` is
 * the output left): computeSwapStep caps amountOut at it, and the output its price rounding gives is never less, so
 * only the input and its fee are computed (v4-core takes the remaining output without computing it).
 * test/amm/swapMath.test.ts holds both to the v3 SDK's computeSwapStep. Writes into `out` and returns it.
 */
export function stepEndingInside(
  sqrtRatioCurrentX96: bigint,
  liquidity: bigint,
  exactIn: boolean,
  remaining: bigint,
  zeroForOne: boolean,
  feePips: bigint,
  feeComplement: bigint,
  out: StepEnd,
): StepEnd {
  if (exactIn) {
    const next = getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, remaining, zeroForOne);
    out.sqrtRatioNextX96 = next;
    out.swapped = outputTo(sqrtRatioCurrentX96, next, liquidity, zeroForOne);
    return out;
  }
  const next = getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, remaining, zeroForOne);
  const amountIn = inputTo(sqrtRatioCurrentX96, next, liquidity, zeroForOne);
  out.sqrtRatioNextX96 = next;
  out.swapped = amountIn + stepFee(amountIn, feePips, feeComplement);
  return out;
}
