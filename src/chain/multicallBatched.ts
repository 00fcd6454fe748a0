import { type Address, decodeFunctionResult, encodeFunctionData, type PublicClient, type StateOverride } from 'viem';
import type { ReadCall } from '../protocols/PoolSource.ts';
import { multicall3Abi } from './seedAbis.ts';

/** Where and how to run batched reads. */
export interface MulticallOptions {
  readonly multicall3: Address;
  /** Every read is made at this block. */
  readonly blockNumber: bigint;
  /** Bound on calls per aggregate3 request. */
  readonly batchSize: number;
  /** Batches in flight at once. */
  readonly concurrency: number;
  /** Called after each batch completes. */
  readonly onBatch?: () => void;
}

/** Number of aggregate3 requests needed for `calls` reads. */
export function batchCount(calls: number, batchSize: number): number {
  return Math.ceil(calls / batchSize);
}

/**
 * Runs reads through Multicall3.aggregate3 (allowFailure = true) at one block, at most `batchSize` per request.
 * A result is undefined when its call reverted, returned nothing (no contract) or did not decode.
 * `stateOverride`, when given, is sent with each batch's eth_call (code placed at addresses for that call only).
 */
export async function multicallBatched<T>(
  client: PublicClient,
  options: MulticallOptions,
  calls: readonly ReadCall<T>[],
  stateOverride?: (batch: readonly ReadCall<T>[]) => StateOverride,
): Promise<(T | undefined)[]> {
  const results: (T | undefined)[] = new Array(calls.length).fill(undefined);
  const starts: number[] = [];
  for (let i = 0; i < calls.length; i += options.batchSize) starts.push(i);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < starts.length) {
      const start = starts[next++];
      const chunk = calls.slice(start, start + options.batchSize);
      const data = encodeFunctionData({
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [chunk.map((c) => ({ target: c.target, allowFailure: true, callData: c.data }))],
      });
      const { data: ret } = await client.call({
        to: options.multicall3,
        data,
        blockNumber: options.blockNumber,
        ...(stateOverride ? { stateOverride: stateOverride(chunk) } : {}),
      });
      if (ret === undefined) throw new Error('aggregate3 returned no data (is Multicall3 deployed at that address?)');
      const decoded = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: ret });
      decoded.forEach((r, k) => {
        if (!r.success || r.returnData === '0x') return;
        try {
          results[start + k] = chunk[k].decode(r.returnData);
        } catch {
          results[start + k] = undefined;
        }
      });
      options.onBatch?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, starts.length) }, worker));
  return results;
}
