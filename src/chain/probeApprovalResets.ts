import { type Address, decodeFunctionResult, encodeFunctionData, type PublicClient } from 'viem';
import type { ReadCall } from '../protocols/PoolSource.ts';
import { APPROVAL_PROBE_OWNER, APPROVAL_PROBE_SPENDER, APPROVAL_RESET_PROBE_CODE, approvalResetProbeAbi } from './approvalResetProbe.ts';
import { type MulticallOptions, multicallBatched } from './multicallBatched.ts';

/** The three approvals of one probe: from a zero allowance, over a non-zero one, and after a reset to 0. */
export interface ApprovalProbeOutcome {
  readonly first: boolean;
  readonly second: boolean;
  readonly afterReset: boolean;
}

/**
 * What a probe found: approve works over a leftover allowance ('none'), it reverts (or returns false) over one and
 * works after a reset to 0 ('reset': the token's approvals reset to 0 first), or approve did not work even so ('failed').
 */
export type ApprovalResetResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'reset'; readonly detail: string }
  | { readonly kind: 'failed'; readonly detail: string };

/** Classifies one probe's outcome (undefined: the probe call itself failed). */
export function approvalResetResult(outcome: ApprovalProbeOutcome | undefined): ApprovalResetResult {
  if (!outcome) return { kind: 'failed', detail: 'its approve could not be simulated' };
  if (!outcome.first) return { kind: 'failed', detail: 'approve from a zero allowance reverted or returned false' };
  if (outcome.second) return { kind: 'none' };
  if (!outcome.afterReset)
    return { kind: 'failed', detail: 'approve over a non-zero allowance reverted or returned false, and a reset to 0 did not help' };
  return {
    kind: 'reset',
    detail: 'approve reverts (or returns false) while the allowance is not zero: its approvals reset the allowance to 0 first',
  };
}

/**
 * Finds, at the pinned block and without sending anything, the tokens whose approve refuses a new non-zero amount
 * while the allowance is not zero (Tether USD's rule on Ethereum): one eth_call per batch runs Multicall3.aggregate3
 * over `probe(token, spender)` calls on APPROVAL_PROBE_OWNER, where ApprovalResetProbe's code is placed (state
 * override). The owner approves 1, then 2, and when the second fails, 0 then 2; the token's own approve sets the
 * allowance, so no storage layout is assumed. Needs an endpoint that supports eth_call state overrides.
 */
export async function probeApprovalResets(
  client: PublicClient,
  options: MulticallOptions,
  tokens: readonly Address[],
): Promise<ApprovalResetResult[]> {
  const calls: ReadCall<ApprovalProbeOutcome>[] = tokens.map((token) => ({
    target: APPROVAL_PROBE_OWNER,
    data: encodeFunctionData({ abi: approvalResetProbeAbi, functionName: 'probe', args: [token, APPROVAL_PROBE_SPENDER] }),
    decode: (r) => {
      const [first, second, afterReset] = decodeFunctionResult({ abi: approvalResetProbeAbi, functionName: 'probe', data: r });
      return { first, second, afterReset };
    },
  }));
  const outcomes = await multicallBatched(client, options, calls, () => [
    { address: APPROVAL_PROBE_OWNER, code: APPROVAL_RESET_PROBE_CODE },
  ]);
  return outcomes.map(approvalResetResult);
}
