// A path through a pool that refuses every swap its way (PoolProtocol.paysNothing: a Uniswap v4 pool whose swap fee is
// 100%) is never part of a trade, so the route search leaves it out (ExecutablePaths.unpaid) and prices it only for a
// refusal code. On a generated graph with v4 pools, a third of them at a 100% fee: such a pool refuses every amount
// (exact input and output, both directions, 1 wei to 10^30), only such pools pay nothing, and over the graph's search
// mix (exact input and output, three gas prices; splits and one path) the search leaving those paths out gives exactly
// the trades and refusal codes of the search that weighs them as any other path, while it leaves paths out.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ALL, bestTradeOfCase, MAX_HOPS } from '../../bench/lib/routingGraphs.ts';
import { protocolOf, type SnapshotPool } from '../../src/protocols/registry.ts';
import { MAX_LP_FEE } from '../../src/protocols/uniswapV4/v4Fees.ts';
import { executablePaths } from '../../src/routing/candidates.ts';
import { tradeEnds } from '../../src/routing/tradeEnds.ts';
import { generatedMix, sameTrades } from '../helpers/searchRequests.ts';

// Every third v4 pool at a 100% fee (a static fee: the key's fee and lpFee alike).
const full = new Set<string>();
const { graph, cases } = generatedMix(t, { pools: 3000, tokens: 300, seed: 11, v4Pools: 300 }, (generated) => {
  const file = join(generated.snapshotDir, 'devnet.json');
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { pools: (SnapshotPool & { fee: number; lpFee?: number })[] };
  let v4 = 0;
  for (const p of snapshot.pools) {
    if (p.version !== 'v4' || v4++ % 3 !== 0) continue;
    p.fee = MAX_LP_FEE;
    p.lpFee = MAX_LP_FEE;
    full.add(p.address.toLowerCase());
  }
  writeFileSync(file, JSON.stringify(snapshot));
});

t.test('a 100% fee v4 pool refuses every amount; only such pools pay nothing', async (t) => {
  const amounts = Array.from({ length: 31 }, (_, e) => 10n ** BigInt(e));
  let refusing = 0;
  let paying = 0;
  const wrong: string[] = [];
  for (const e of graph.index.poolsOf(graph.index.baseTokens[0])) {
    const pool = graph.index.pool(e)!;
    const protocol = protocolOf(pool.kind);
    for (const zeroForOne of [true, false]) {
      const nothing = protocol.paysNothing?.(pool, zeroForOne) === true;
      if (nothing !== full.has(e.address)) wrong.push(`${e.address} ${zeroForOne}: paysNothing ${nothing}`);
      if (!nothing) {
        paying++;
        continue;
      }
      refusing++;
      for (const side of ['exactIn', 'exactOut'] as const)
        if (protocol.quoteLadder(pool, zeroForOne, side, amounts).some((q) => q.ok))
          wrong.push(`${e.address} ${zeroForOne} ${side}: an amount priced`);
    }
  }
  t.same(wrong, [], 'paysNothing exactly at a 100% fee, and every amount refused there');
  t.ok(refusing >= 4 && paying >= 4, `${refusing} pool directions pay nothing, ${paying} pay`);
});

t.test('the same trades with the paths that pay nothing left out as with them searched', async (t) => {
  let unpaid = 0;
  for (const c of cases) {
    const ends = tradeEnds(graph.index.wrappedNative, c.tokenIn, c.tokenOut);
    unpaid += executablePaths(graph.index, ends, { maxHops: MAX_HOPS, tradeType: 'exactIn', allow: ALL }, undefined).unpaid.length;
  }
  t.ok(unpaid >= cases.length, `${unpaid} paths left out over ${cases.length} cases`);
  for (const maxSplits of [5, 1]) {
    sameTrades(t, graph, cases, ({ c, gasPriceWei }) => [
      bestTradeOfCase(graph, c, gasPriceWei, ALL, {}, maxSplits),
      bestTradeOfCase(graph, c, gasPriceWei, ALL, { leaveOutUnpaid: false }, maxSplits),
    ]);
  }
});
