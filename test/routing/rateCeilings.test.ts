// The search passes over paths by the ceilings of their rates at zero (ExecutablePaths.byRate): the split search's
// rounds skip a path at or below the set's rate, and in the first round one worth alone no more than the best set of
// one; the single-path search bounds paths in rate order and stops at the first whose ceiling is below what a path
// must reach; a later round skips a set whose value bound less a floor of its fee cannot win. None of it may change a
// trade: over the devnet's and generated graphs' search mix (v2, v3, v4 and Balancer pools; more parallel paths),
// exact input and exact output, with and without gas, with splits and without, the search gives exactly the trades of
// the search without ceilings (BestTradeOptions.rateCeilings false: every ceiling Infinity, no fee floor), while it
// does take fewer single-path bounds and solve fewer sets with splits.
import t from 'tap';
import { ALL, bestTradeOfCase, type Case, type Graph } from '../../bench/lib/routingGraphs.ts';
import type { SingleCache } from '../../src/routing/singlePath.ts';
import type { SolveCache } from '../../src/routing/splitContext.ts';
import { devnetMix, generatedMix, sameTrades } from '../helpers/searchRequests.ts';

/** Sets a search solved (every level of its SolveCache). */
function setsSolved(tree: SolveCache): number {
  let n = tree.solved ? 1 : 0;
  for (const child of tree.next?.values() ?? []) n += setsSolved(child);
  return n;
}

/** Single paths a search bounded (its SingleCache's bounds). */
function singlesBounded(singles: SingleCache): number {
  let n = 0;
  for (const s of singles.values()) if (s.bound !== undefined) n++;
  return n;
}

type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];

function compare(t: TestContext, graph: Graph, cases: readonly Case[], maxSplits: number): void {
  const counts = { solved: [0, 0], bounded: [0, 0] };
  sameTrades(
    t,
    graph,
    cases,
    ({ c, gasPriceWei }) =>
      [true, false].map((rateCeilings, k) => {
        const solves: SolveCache = {};
        const singles: SingleCache = new Map();
        const outcome = bestTradeOfCase(graph, c, gasPriceWei, ALL, { solves, singles, records: true, rateCeilings }, maxSplits);
        counts.solved[k] += setsSolved(solves);
        counts.bounded[k] += singlesBounded(singles);
        return outcome;
      }) as [ReturnType<typeof bestTradeOfCase>, ReturnType<typeof bestTradeOfCase>],
  );
  if (maxSplits > 1) {
    // (Single paths' bounds from their curves: those the SingleCache records.)
    const [bounded, unbounded] = counts.bounded;
    t.ok(bounded < unbounded, `${bounded} single paths bounded with the ceilings, ${unbounded} without`);
    const [solved, all] = counts.solved;
    t.ok(solved < all, `${solved} sets solved with the ceilings and fee floor, ${all} without`);
  }
}

t.test('devnet: the same trades with the ceilings as without', async (t) => {
  const { graph, cases } = devnetMix();
  for (const maxSplits of [5, 1]) t.test(`maxSplits ${maxSplits}`, async (t) => compare(t, graph, cases, maxSplits));
});

t.test('generated graphs: the same trades with the ceilings as without', async (t) => {
  // v4 and Balancer (weighted, stable) pools among them; and one with more pools per token, so a pair has more
  // parallel paths.
  for (const [name, options] of [
    ['v4 and Balancer', { pools: 3000, tokens: 300, seed: 11, v4Pools: 300, balancerPools: 100 }],
    ['dense', { pools: 8000, tokens: 260, seed: 5 }],
  ] as const) {
    const { graph, cases } = generatedMix(t, options);
    for (const maxSplits of [5, 1]) t.test(`${name}, maxSplits ${maxSplits}`, async (t) => compare(t, graph, cases, maxSplits));
  }
});
