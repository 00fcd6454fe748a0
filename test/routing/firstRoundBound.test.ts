// The split search's first round (each path alone) skips a path whose single-path bound (scoreBound) cannot beat the
// best set of one so far (bestTrade's admit). The bound must never change a trade: over the devnet's and a generated
// graph's (v2, v3 and v4 pools) search mix, exact input and exact output, with and without gas, the search with it
// gives exactly the trades of the search without it (BestTradeOptions.firstRoundBound false: every path solved
// alone), while it does leave sets of one unsolved (counted in the SolveCache each search records).
import t from 'tap';
import { ALL, bestTradeOfCase, type Case, type Graph } from '../../bench/lib/routingGraphs.ts';
import type { SolveCache } from '../../src/routing/splitContext.ts';
import { devnetMix, generatedMix, sameTrades } from '../helpers/searchRequests.ts';

/** Sets of one a search solved (the first level of its SolveCache). */
function singlesSolved(tree: SolveCache): number {
  let n = 0;
  for (const child of tree.next?.values() ?? []) if (child.solved) n++;
  return n;
}

type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];

function compare(t: TestContext, graph: Graph, cases: readonly Case[]): void {
  let bounded = 0;
  let unbounded = 0;
  sameTrades(t, graph, cases, ({ c, gasPriceWei }) => {
    const withTree: SolveCache = {};
    const withoutTree: SolveCache = {};
    const a = bestTradeOfCase(graph, c, gasPriceWei, ALL, { solves: withTree, records: true });
    const b = bestTradeOfCase(graph, c, gasPriceWei, ALL, { solves: withoutTree, records: true, firstRoundBound: false });
    bounded += singlesSolved(withTree);
    unbounded += singlesSolved(withoutTree);
    return [a, b];
  });
  t.ok(bounded < unbounded / 2, `${bounded} sets of one solved with the bound, ${unbounded} without`);
}

t.test('devnet: the same trades with the bound as without, fewer sets of one solved', async (t) => {
  const { graph, cases } = devnetMix();
  compare(t, graph, cases);
});

t.test('generated graph with v4 pools: the same trades with the bound as without', async (t) => {
  const { graph, cases } = generatedMix(t, { pools: 3000, tokens: 300, seed: 11, v4Pools: 300 });
  compare(t, graph, cases);
});
