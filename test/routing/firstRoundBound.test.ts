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
import { projectRoot } from '../helpers/serverProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'first-round-bound-test-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A case and the gas price it is searched at. */
type Request = { readonly c: Case; readonly gasPriceWei: bigint };

/** Each case exact in, and exact out of a third of its amount's output, at the snapshot's gas price, none and 50 times it. */
function requests(graph: Graph, cases: readonly Case[]): Request[] {
  const out: Request[] = [];
  for (const c of cases) {
    for (const gasPriceWei of [graph.gasPriceWei, 0n, graph.gasPriceWei * 50n]) {
      out.push({ c, gasPriceWei });
      const sized = bestTradeOfCase(graph, c, gasPriceWei);
      if (sized.ok && sized.trade.amountOut > 2n)
        out.push({ c: { ...c, tradeType: 'exactOut', amount: sized.trade.amountOut / 3n }, gasPriceWei });
    }
  }
  return out;
}

/** Sets of one a search solved (the first level of its SolveCache). */
function singlesSolved(tree: SolveCache): number {
  let n = 0;
  for (const child of tree.next?.values() ?? []) if (child.solved) n++;
  return n;
}

const text = (x: unknown): string => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];

function compare(t: TestContext, graph: Graph, cases: readonly Case[]): void {
  const all = requests(graph, cases);
  t.ok(all.length >= 300, `${all.length} requests`);
  let differ = 0;
  let bounded = 0;
  let unbounded = 0;
  for (const { c, gasPriceWei } of all) {
    const withTree: SolveCache = {};
    const withoutTree: SolveCache = {};
    const a = bestTradeOfCase(graph, c, gasPriceWei, ALL, { solves: withTree, records: true });
    const b = bestTradeOfCase(graph, c, gasPriceWei, ALL, { solves: withoutTree, records: true, firstRoundBound: false });
    if (text(a) !== text(b)) {
      differ++;
      t.fail(`${c.tradeType ?? 'exactIn'} ${c.amount} ${c.tokenIn} -> ${c.tokenOut} gas ${gasPriceWei}: trades differ`);
    }
    bounded += singlesSolved(withTree);
    unbounded += singlesSolved(withoutTree);
  }
  t.equal(differ, 0, `0 of ${all.length} trades differ`);
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
