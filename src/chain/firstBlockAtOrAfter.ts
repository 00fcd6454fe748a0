import type { PublicClient } from 'viem';

/**
 * The first block in [from, to] whose timestamp is at or after `timestamp` (Unix seconds), by binary search over the
 * blocks' timestamps (about log2(to − from) block reads); `to + 1` when every block in the range is earlier.
 */
export async function firstBlockAtOrAfter(client: PublicClient, timestamp: number, from: bigint, to: bigint): Promise<bigint> {
  let [lo, hi] = [from, to + 1n];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    const block = await client.getBlock({ blockNumber: mid });
    if (Number(block.timestamp) >= timestamp) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}
