import { type Address, decodeFunctionResult, encodeFunctionData, type PublicClient } from 'viem';
import type { ReadCall } from '../protocols/PoolSource.ts';
import { type MulticallOptions, multicallBatched } from './multicallBatched.ts';
import { PROBE_RECEIVER, TRANSFER_FEE_PROBE_CODE, transferFeeProbeAbi } from './transferFeeProbe.ts';

/** One token to probe: `holder` (a pool) holds at least `amount` of it. */
export interface TransferProbe {
  readonly token: Address;
  readonly holder: Address;
  readonly amount: bigint;
}

/** What a probe found: no loss, a fee (rounded basis points), or a transfer that failed. */
export type TransferFeeResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'fee'; readonly buyFeeBps: number; readonly sellFeeBps: number; readonly detail: string }
  | { readonly kind: 'failed'; readonly detail: string };

/** The amount a probe moves: a hundredth of the holder's balance, rounded down to a multiple of 10,000 when that leaves something. */
export function transferFeeProbeAmount(balance: bigint): bigint {
  const share = balance / 100n;
  if (share >= 10_000n) return share - (share % 10_000n);
  return share > 0n ? share : balance;
}

/** round(lost x 10000 / sent), 0 when nothing was lost (or more arrived than was sent). */
export function feeBps(sent: bigint, arrived: bigint): number {
  if (sent === 0n || arrived >= sent) return 0;
  return Number(((sent - arrived) * 20_000n + sent) / (2n * sent));
}

const percent = (bps: number): string => `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

/** Classifies one probe's outcome. */
export function transferFeeResult(
  amount: bigint,
  outcome: { received: bigint; returned: bigint } | undefined,
  holder: Address,
): TransferFeeResult {
  if (!outcome) return { kind: 'failed', detail: `a transfer out of its pool ${holder} and back could not be simulated` };
  const buyFeeBps = feeBps(amount, outcome.received);
  const sellFeeBps = feeBps(outcome.received, outcome.returned);
  if (buyFeeBps === 0 && sellFeeBps === 0) return { kind: 'none' };
  return {
    kind: 'fee',
    buyFeeBps,
    sellFeeBps,
    detail: `it takes a fee on transfer: ${percent(buyFeeBps)} of a transfer out of a pool (buy), ${percent(sellFeeBps)} of a transfer into one (sell)`,
  };
}

/**
 * Measures each token's transfer fee at the pinned block without sending anything: one eth_call per batch runs
 * Multicall3.aggregate3 over `probe(token, receiver, amount)` calls, with TransferFeeProbe's code placed (state
 * override) at the batch's holders and at PROBE_RECEIVER. The holder sends `amount` to the receiver, which sends
 * what arrived back; the token sees a pool paying out and a pool being paid, as in a swap. Needs an endpoint that
 * supports eth_call state overrides (geth, reth, erigon, anvil and the common providers do).
 */
export async function probeTransferFees(
  client: PublicClient,
  options: MulticallOptions,
  probes: readonly TransferProbe[],
): Promise<TransferFeeResult[]> {
  const calls: ReadCall<{ received: bigint; returned: bigint }>[] = probes.map((p) => ({
    target: p.holder,
    data: encodeFunctionData({ abi: transferFeeProbeAbi, functionName: 'probe', args: [p.token, PROBE_RECEIVER, p.amount] }),
    decode: (r) => {
      const [received, returned] = decodeFunctionResult({ abi: transferFeeProbeAbi, functionName: 'probe', data: r });
      return { received, returned };
    },
  }));
  const outcomes = await multicallBatched(client, options, calls, (batch) =>
    [...new Set(batch.map((c) => c.target)), PROBE_RECEIVER].map((address) => ({ address, code: TRANSFER_FEE_PROBE_CODE })),
  );
  return probes.map((p, i) => transferFeeResult(p.amount, outcomes[i], p.holder));
}
