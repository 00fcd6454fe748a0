// The split search's first round (each path alone) skips a path whose single-path bound (scoreBound) cannot beat the
// best set of one so far (bestTrade's admit). The bound must never change a trade: over the devnet's and a generated
// graph's (v2, v3 and v4 pools) search mix, exact input and exact output, with and without gas, the search with it
// gives exactly the trades of the search without it (BestTradeOptions.firstRoundBound false: every path solved
// alone), while it does leave sets of one unsolved (counted in the SolveCache each search records).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateRoutingGraph } from '../../bench/lib/generateScale.ts';
import {
  ALL,
  bestTradeOfCase,
  type Case,
  devnetPairs,
  type Graph,
  generatedPairs,
  loadGraph,
  pairCases,
} from '../../bench/lib/routingGraphs.ts';
import type { SolveCache } from '../../src/routing/splitContext.ts';
import { sameTrades } from '../helpers/searchRequests.ts';
import { projectRoot } from '../helpers/serverProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'first-round-bound-test-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

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
  const graph = loadGraph('devnet', join(projectRoot, 'catalog'), join(projectRoot, 'seeds/snapshots'));
  compare(
    t,
    graph,
    devnetPairs(graph).flatMap(([a, b]) => pairCases(graph.index, a, b)),
  );
});

t.test('generated graph with v4 pools: the same trades with the bound as without', async (t) => {
  const fixture = generateRoutingGraph(dir, { pools: 3000, tokens: 300, seed: 11, v4Pools: 300 });
  const graph = loadGraph('generated', fixture.catalogDir, fixture.snapshotDir);
  compare(
    t,
    graph,
    generatedPairs(fixture).flatMap(([a, b]) => pairCases(graph.index, a, b)),
  );
});
