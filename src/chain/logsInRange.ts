import type { Address, Hex, Log, PublicClient } from 'viem';

/** Blocks per eth_getLogs request (within what public RPC providers accept for a filtered query). */
export const LOG_RANGE_BLOCKS = 5_000n;

/** An eth_getLogs filter without its block range: one address, topics (null: any; an array: any of them). */
export interface LogFilter {
  readonly address: string;
  readonly topics: ReadonlyArray<Hex | readonly Hex[] | null>;
}

/**
 * The logs matching `filter` in blocks [fromBlock, toBlock], read in ranges of LOG_RANGE_BLOCKS, in chain order;
 * `stop` ends the reading after a range in which it finds what it looks for. Logs come as the node sends them, with
 * blockNumber converted to a bigint.
 */
export async function logsInRange(
  client: PublicClient,
  filter: LogFilter,
  fromBlock: bigint,
  toBlock: bigint,
  stop: (logs: readonly Log[]) => boolean = () => false,
): Promise<Log[]> {
  const found: Log[] = [];
  for (let from = fromBlock; from <= toBlock; from += LOG_RANGE_BLOCKS) {
    const to = from + LOG_RANGE_BLOCKS - 1n < toBlock ? from + LOG_RANGE_BLOCKS - 1n : toBlock;
    const raw = await client.request({
      method: 'eth_getLogs',
      params: [
        {
          address: filter.address as Address,
          topics: filter.topics as (Hex | Hex[] | null)[],
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
        },
      ],
    });
    const logs = raw.map((log) => ({ ...log, blockNumber: BigInt(log.blockNumber ?? 0) }) as unknown as Log);
    found.push(...logs);
    if (stop(logs)) break;
  }
  return found;
}

/** A uint256 or address as the 32-byte topic eth_getLogs compares. */
export function topicOf(value: bigint | string): Hex {
  const hex = typeof value === 'bigint' ? value.toString(16) : value.slice(2).toLowerCase();
  return `0x${hex.padStart(64, '0')}`;
}
