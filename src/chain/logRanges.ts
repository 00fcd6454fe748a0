import { RANGE_REFUSED, RpcRequestError } from './seedRpc.ts';

/** The endpoint refused an eth_getLogs range as too large (its JSON-RPC error says so). */
export function refusedRange(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RpcRequestError) return RANGE_REFUSED.test(e.message);
  }
  return false;
}

/** One log as eth_getLogs returns it. */
export interface RangeLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly blockNumber: string;
  readonly logIndex: string;
}

/** The eth_getLogs filter besides the blocks. */
export interface LogFilter {
  /** One contract or any of several. */
  readonly address?: string | readonly string[];
  /** Per position: one topic, any of several, or null for any. */
  readonly topics: readonly (string | readonly string[] | null)[];
}

/** A log scan that would take more requests than allowed (an endpoint that only serves tiny ranges). */
export class LogScanTooLong extends Error {
  override readonly name = 'LogScanTooLong';
}

const hex = (n: number): string => `0x${n.toString(16)}`;

/**
 * Every log of [fromBlock, toBlock] matching the filter, in ranges of `range` blocks, each range halved while the
 * endpoint refuses it as too large (the smaller range is then kept for the rest). Throws what the endpoint said
 * when even one block is refused or the failure is of another kind, and LogScanTooLong when the remaining ranges
 * would take more than maxRequests requests in all. `stop` ends the scan after a range in which it finds what it looks
 * for. Logs come in block and log order.
 */
export async function scanLogs(
  request: (method: 'eth_getLogs', params: unknown[]) => Promise<RangeLog[]>,
  filter: LogFilter,
  fromBlock: number,
  toBlock: number,
  options: {
    readonly range: number;
    readonly maxRequests: number;
    readonly onRange?: (from: number, to: number, logs: number) => void;
    readonly stop?: (logs: readonly RangeLog[]) => boolean;
  },
): Promise<{ logs: RangeLog[]; requests: number; range: number }> {
  let range = Math.max(1, Math.floor(options.range));
  let requests = 0;
  const logs: RangeLog[] = [];
  const one = async (from: number, to: number): Promise<void> => {
    if (requests + Math.ceil((toBlock - from + 1) / range) > options.maxRequests)
      throw new LogScanTooLong(
        `the endpoint serves eth_getLogs over ${range} blocks at most: blocks ${from}..${toBlock} would take more than ${options.maxRequests} requests`,
      );
    requests++;
    try {
      const got = await request('eth_getLogs', [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }]);
      logs.push(...got);
      options.onRange?.(from, to, got.length);
    } catch (err) {
      if (from === to || !refusedRange(err)) throw err;
      const mid = from + Math.floor((to - from) / 2);
      range = Math.max(1, mid - from + 1);
      await one(from, mid);
      await one(mid + 1, to);
    }
  };
  for (let from = fromBlock; from <= toBlock; ) {
    const to = Math.min(toBlock, from + range - 1);
    const before = logs.length;
    await one(from, to);
    from = to + 1;
    if (options.stop?.(logs.slice(before))) break;
  }
  logs.sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex));
  return { logs, requests, range };
}
