import { buildAcrossDepositSteps } from '../tx/buildAcrossDepositSteps.ts';
import { buildTradeSteps } from '../tx/buildTradeSteps.ts';
import type { Step } from '../tx/Step.ts';
import type { BridgeRoutePlan, TradeLegPlan } from './planBridgeRoute.ts';

/** Seconds a client has, after the expected fill time, to send a destination step before its deadline passes. */
export const DESTINATION_STEP_GRACE_SECONDS = 600;

/** Parameters of {@link buildBridgeRouteSteps}. */
export interface BridgeRouteStepsParams {
  readonly plan: BridgeRoutePlan;
  /** Sends every step, on both chains. */
  readonly wallet: string;
  /** The quote's deadline (Unix seconds): the origin swap's on-chain deadline. */
  readonly deadline: number;
  /**
   * The wallet's current allowances read from the chains, keyed by allowanceKey(chainId, token, spender); a missing
   * key was not read: that approval is then the one without a sender (approveSteps).
   */
  readonly allowances?: ReadonlyMap<string, bigint>;
}

/** The key of an allowance of `token` for `spender` on a chain in BridgeRouteStepsParams.allowances. */
export function allowanceKey(chainId: number, token: string, spender: string): string {
  return `${chainId}:${token.toLowerCase()}:${spender.toLowerCase()}`;
}

/**
 * The deadline of a destination swap: the quote's deadline (last moment to send the origin steps) plus the
 * expected fill time plus {@link DESTINATION_STEP_GRACE_SECONDS}.
 */
export function destinationDeadline(deadline: number, fillTimeSeconds: number): number {
  return deadline + fillTimeSeconds + DESTINATION_STEP_GRACE_SECONDS;
}

/** A leg's allowances of its input token per spender (lower case), as buildTradeSteps takes them. */
function legAllowances(leg: TradeLegPlan, allowances: ReadonlyMap<string, bigint> | undefined): ReadonlyMap<string, bigint> | undefined {
  if (!allowances) return undefined;
  const prefix = allowanceKey(leg.chain.chainId, leg.tokenIn.address, '');
  return new Map([...allowances].flatMap(([key, value]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), value] as const] : [])));
}

/** The steps of a trade leg (a bare wrap's are buildWrapSteps', through buildTradeSteps). */
function legSteps(leg: TradeLegPlan, wallet: string, deadline: number, allowances: ReadonlyMap<string, bigint> | undefined): Step[] {
  return buildTradeSteps({
    chain: leg.chain,
    trade: leg.trade,
    tokenIn: leg.tokenIn,
    tokenOut: leg.tokenOut,
    amountOutMinimum: leg.amountOutMinimum,
    recipient: leg.recipient,
    wallet,
    deadline,
    allowances: legAllowances(leg, allowances),
  });
}

/**
 * The ordered steps of a bridge route, each with the chainId of the chain it is sent on:
 * 1. origin chain: the origin swap's approval and swap (when the input is not the bridged asset), paying the wallet;
 * 2. origin chain: the SpokePool approval (ERC-20 input) and the `depositNow`;
 * 3. destination chain, only after the fill has arrived: a wrap (WETH output through a native fill) or the
 *    destination swap's approval and swap of exactly the bridged amount, paying the recipient.
 * With `allowances`, each approval (its chain, token and spender) is shaped by the wallet's current allowance
 * (approveSteps): none when it covers the amount.
 */
export function buildBridgeRouteSteps(params: BridgeRouteStepsParams): Step[] {
  const { plan, wallet, deadline, allowances } = params;
  const origin = plan.originBridge;
  const steps: Step[] = [];
  if (plan.originSwap) steps.push(...legSteps(plan.originSwap, wallet, deadline, allowances));
  steps.push(
    ...buildAcrossDepositSteps({
      chainId: plan.originChain.chainId,
      spokePool: origin.spokePoolAddress,
      bridgeName: origin.name,
      inputToken: plan.deposit.inputToken,
      wrappedNativeToken: plan.originChain.wrappedNativeToken,
      outputToken: plan.deposit.outputToken,
      receivedToken: plan.deposit.receivedToken,
      inputAmount: plan.deposit.inputAmount,
      outputAmount: plan.deposit.outputAmount,
      destinationChainId: plan.destinationChain.chainId,
      destinationName: plan.destinationChain.name,
      recipient: plan.deposit.recipient,
      wallet,
      fillDeadlineOffsetSeconds: origin.fillDeadlineOffsetSeconds,
      allowance: allowances?.get(allowanceKey(plan.originChain.chainId, plan.deposit.inputToken.address, origin.spokePoolAddress)),
    }),
  );
  const leg = plan.destinationLeg;
  if (leg) steps.push(...legSteps(leg, wallet, destinationDeadline(deadline, plan.terms.fillTimeSeconds), allowances));
  return steps;
}
