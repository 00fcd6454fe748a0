import type { Address } from 'viem';
import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { GAS, gasLimit } from '../routing/gasModel.ts';
import { erc20Abi, permit2Abi } from './abis.ts';
import { encodeCall } from './encodeCall.ts';
import { checkUint256, displayAmount, type Step, type StepToken, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';

/** Calldata encoders of the erc20 functions used here. */
const erc20Call = {
  approve: encodeCall(erc20Abi, 'approve'),
};
const permit2Approve = encodeCall(permit2Abi, 'approve');

/** Parameters of {@link approveSteps}. */
export interface ApproveStepParams {
  readonly chainId: number;
  /** The ERC-20 token to approve (never the native asset); `approvalReset` asks for an approval of 0 first. */
  readonly token: StepToken;
  /** Contract allowed to spend: a DEX router, a bridge's SpokePool. */
  readonly spender: string;
  /** How the spender is named in the message, e.g. 'Uniswap V3 router' or 'Across SpokePool'. */
  readonly spenderName: string;
  /** Exactly the amount the next step spends, smallest units. */
  readonly amount: bigint;
  /** The wallet that sends the step. */
  readonly wallet: string;
  /** The wallet's current allowance of `token` for `spender`, read from the chain; undefined when not read. */
  readonly allowance?: bigint;
}

/**
 * The approval steps before a spend: ERC-20 `approve(spender, amount)` for exactly `amount`, `to` the token.
 * Message: `Approve <amount> <symbol> for <spenderName>`, e.g. `Approve 1500.25 USDC for Uniswap V3 router`
 * (the amount in display units, exact, without trailing zeros). `gasLimit`: the gas model's approval with its margin.
 * A token flagged `approvalReset` (its approve reverts while the allowance is not zero, as Tether USD's on Ethereum
 * does) gets `approve(spender, 0)` first, message `Reset the <symbol> allowance of <spenderName> to 0`: the wallet
 * may hold a leftover allowance from an earlier quote, and a reset when there is none costs only gas.
 * With the wallet's current `allowance` read from the chain: no step when it covers `amount`; otherwise the approval,
 * preceded by the reset only for an `approvalReset` token whose allowance is not zero.
 * Every approval of a quote (each router, the bridge deposit) is built here.
 */
export function approveSteps(params: ApproveStepParams): Step[] {
  checkUint256(params.amount, 'amount');
  const token = stepAddress(params.token.address, 'token');
  if (token === NATIVE_TOKEN_ADDRESS) throw new StepBuildError('token: the native asset needs no approval');
  const spender = stepAddress(params.spender, 'spender');
  const from = stepAddress(params.wallet, 'wallet');
  const { allowance } = params;
  if (allowance !== undefined && allowance >= params.amount) return [];
  const steps =
    params.token.approvalReset && allowance !== 0n
      ? [approveStep(params.chainId, from, token, spender, 0n, `Reset the ${params.token.symbol} allowance of ${params.spenderName} to 0`)]
      : [];
  steps.push(
    approveStep(
      params.chainId,
      from,
      token,
      spender,
      params.amount,
      `Approve ${displayAmount(params.amount, params.token)} ${params.token.symbol} for ${params.spenderName}`,
    ),
  );
  return steps;
}

/** One `approve(spender, amount)` step of `from` on `token`. */
function approveStep(chainId: number, from: Address, token: Address, spender: Address, amount: bigint, message: string): Step {
  return {
    message,
    from,
    to: token,
    data: erc20Call.approve([spender, amount]),
    amount: amount.toString(),
    chainId,
    spender,
    gasLimit: gasLimit(GAS.approve).toString(),
  };
}

/** Parameters of {@link permit2ApproveSteps}. */
export interface Permit2ApproveParams {
  readonly chainId: number;
  /** Permit2's address (catalogue `permit2Address`). */
  readonly permit2: string;
  readonly token: StepToken;
  /** The contract Permit2 lets pull the token: the Universal Router. */
  readonly spender: string;
  readonly spenderName: string;
  /** Exactly what the next step pulls (uint160). */
  readonly amount: bigint;
  /** Unix seconds when the Permit2 allowance ends (uint48): the quote's deadline. */
  readonly expiration: number;
  readonly wallet: string;
  /** The wallet's Permit2 allowance of `token` for `spender`, read from the chain; undefined when not read. */
  readonly allowance?: Permit2Allowance;
}

/** What Permit2's `allowance(owner, token, spender)` returns. */
export interface Permit2Allowance {
  readonly amount: bigint;
  /** Unix seconds (uint48); 0: none was ever set. */
  readonly expiration: number;
  readonly nonce: number;
}

/**
 * The Permit2 approval before a Universal Router swap, as a plain transaction (no typed-data signature, so Safe and EOA
 * wallets alike can send it): `Permit2.approve(token, spender, amount, expiration)` for exactly `amount` until
 * `expiration`, `to` Permit2. Message: `Allow <spenderName> to spend <amount> <symbol> through Permit2`. None when the
 * allowance read from the chain already covers `amount` until `expiration`. (The ERC-20 approval of Permit2 itself is
 * approveSteps' with Permit2 as the spender.)
 */
export function permit2ApproveSteps(params: Permit2ApproveParams): Step[] {
  checkUint256(params.amount, 'amount');
  if (params.amount >= 1n << 160n) throw new StepBuildError(`amount: ${params.amount} exceeds Permit2's uint160`);
  const token = stepAddress(params.token.address, 'token');
  if (token === NATIVE_TOKEN_ADDRESS) throw new StepBuildError('token: the native asset needs no approval');
  const { allowance } = params;
  if (allowance && allowance.amount >= params.amount && allowance.expiration >= params.expiration) return [];
  const permit2 = stepAddress(params.permit2, 'permit2');
  const spender = stepAddress(params.spender, 'spender');
  return [
    {
      message: `Allow ${params.spenderName} to spend ${displayAmount(params.amount, params.token)} ${params.token.symbol} through Permit2`,
      from: stepAddress(params.wallet, 'wallet'),
      to: permit2,
      data: permit2Approve([token, spender as Address, params.amount, params.expiration]),
      amount: params.amount.toString(),
      chainId: params.chainId,
      gasLimit: gasLimit(GAS.permit2Approve).toString(),
    },
  ];
}
