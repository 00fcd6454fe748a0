import t from 'tap';
import { LogScanTooLong, type RangeLog, scanLogs } from '../../src/chain/logRanges.ts';
import { RpcRequestError } from '../../src/chain/seedRpc.ts';

const hex = (n: number): string => `0x${n.toString(16)}`;

/** A fake endpoint: one log in each block listed, ranges wider than `maxRange` refused as too large; records each request's range. */
function endpoint(logBlocks: readonly number[], maxRange: number) {
  const asked: [number, number][] = [];
  const request = async (_method: 'eth_getLogs', params: unknown[]): Promise<RangeLog[]> => {
    const { fromBlock, toBlock } = params[0] as { fromBlock: string; toBlock: string };
    const from = Number(fromBlock);
    const to = Number(toBlock);
    asked.push([from, to]);
    if (to - from + 1 > maxRange) throw new RpcRequestError('eth_getLogs: query exceeds max block range 100', false, -32600);
    return logBlocks
      .filter((b) => b >= from && b <= to)
      .reverse()
      .map((b) => ({ address: '0x01', topics: [], data: '0x', blockNumber: hex(b), logIndex: '0x0' }));
  };
  return { asked, request };
}

t.test('scanLogs: ranges of `range` blocks, a refused range halved and the smaller range kept, logs in block order', async (t) => {
  const { asked, request } = endpoint([5, 150, 420, 999], 250);
  const { logs, requests, range } = await scanLogs(request, { topics: [['0xaa'], null] }, 0, 999, { range: 400, maxRequests: 100 });
  t.same(
    logs.map((l) => Number(l.blockNumber)),
    [5, 150, 420, 999],
  );
  t.same(asked, [
    [0, 399],
    [0, 199],
    [200, 399],
    [400, 599],
    [600, 799],
    [800, 999],
  ]);
  t.equal(requests, 6);
  t.equal(range, 200);
});

t.test('scanLogs: stop ends the scan after the range in which it finds what it looks for', async (t) => {
  const { asked, request } = endpoint([150, 420, 999], 1000);
  const { logs } = await scanLogs(request, { topics: [] }, 0, 999, {
    range: 100,
    maxRequests: 100,
    stop: (found) => found.some((l) => Number(l.blockNumber) === 150),
  });
  t.same(
    logs.map((l) => Number(l.blockNumber)),
    [150],
  );
  t.same(asked.at(-1), [100, 199]);
});

t.test('scanLogs: LogScanTooLong when the ranges the endpoint serves would take more than maxRequests', async (t) => {
  const { request } = endpoint([], 10);
  await t.rejects(scanLogs(request, { topics: [] }, 0, 999, { range: 100, maxRequests: 20 }), LogScanTooLong);
});
