import type { Hex, Log, PublicClient } from 'viem';
import { type LogFilter, type RangeLog, scanLogs } from './logRanges.ts';

/** Blocks per eth_getLogs request (within what public RPC providers accept for a filtered query). */
export const LOG_RANGE_BLOCKS = 5_000;

/**
 * The logs matching `filter` in blocks [fromBlock, toBlock] through a viem client, as scanLogs reads them (ranges of
 * LOG_RANGE_BLOCKS, halved while the endpoint refuses one as too large), in chain order; `stop` ends the reading after
 * a range in which it finds what it looks for. Logs come as the node sends them, with blockNumber as a bigint.
 */
export async function logsInRange(
  client: PublicClient,
  filter: LogFilter,
  fromBlock: bigint,
  toBlock: bigint,
  stop?: (logs: readonly Log[]) => boolean,
): Promise<Log[]> {
  const asLog = (log: RangeLog): Log => ({ ...log, blockNumber: BigInt(log.blockNumber) }) as unknown as Log;
  const request = (method: 'eth_getLogs', params: unknown[]) =>
    client.request({ method, params: params as never }) as unknown as Promise<RangeLog[]>;
  const { logs } = await scanLogs(request, filter, Number(fromBlock), Number(toBlock), {
    range: LOG_RANGE_BLOCKS,
    maxRequests: Number.POSITIVE_INFINITY,
    ...(stop ? { stop: (found: readonly RangeLog[]) => stop(found.map(asLog)) } : {}),
  });
  return logs.map(asLog);
}

/** A uint256 or address as the 32-byte topic eth_getLogs compares. */
export function topicOf(value: bigint | string): Hex {
  const hex = typeof value === 'bigint' ? value.toString(16) : value.slice(2).toLowerCase();
  return `0x${hex.padStart(64, '0')}`;
}
