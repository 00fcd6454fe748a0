import t from 'tap';
import { ALL, bestTradeOfCase, type Case, type Graph, MAX_HOPS } from '../../bench/lib/routingGraphs.ts';
import { executablePaths } from '../../src/routing/candidates.ts';
import { outputAt, pathCurve, rateAtZero, surplusAt } from '../../src/routing/pathCurve.ts';
import { pathOutputBound, pathSurplusBound } from '../../src/routing/poolDepth.ts';
import type { CurveCache } from '../../src/routing/searchCurves.ts';
import { tradeEnds } from '../../src/routing/tradeEnds.ts';
import { devnetMix, generatedMix, sameTrades } from '../helpers/searchRequests.ts';

type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];

function compare(t: TestContext, graph: Graph, cases: readonly Case[], maxRoutes?: number): void {
  let lazy = 0;
  let eager = 0;
  const steered = maxRoutes === undefined ? {} : { maxRoutes };
  sameTrades(t, graph, cases, ({ c, gasPriceWei }) => {
    const built: CurveCache = new Map();
    const every: CurveCache = new Map();
    const a = bestTradeOfCase(graph, c, gasPriceWei, ALL, { curves: built, ...steered });
    const b = bestTradeOfCase(graph, c, gasPriceWei, ALL, { curves: every, boundBeforeCurves: false, ...steered });
    lazy += built.size;
    eager += every.size;
    return [a, b];
  });
  t.ok(lazy < eager / 2, `${lazy} curves built with the bounds, ${eager} without`);
}

const { graph: generatedGraph, cases: generatedCases } = generatedMix(t, { pools: 3000, tokens: 300, seed: 11, v4Pools: 300 });

t.test('devnet: the same trades with the bounds as with every curve built, fewer curves', async (t) => {
  const { graph, cases } = devnetMix();
  compare(t, graph, cases);
});

t.test('generated graph with v4 pools: the same trades with the bounds as with every curve built', async (t) => {
  compare(t, generatedGraph, generatedCases);
});

// Most paths beyond the steered ones (bestOtherPath): for exact input each is bounded from its pools' depth before its
// curve is built; a bound any tighter than the curve's gives other trades here.
t.test('paths beyond 4 steered: the same trades with their depth bound as with their curves built, fewer curves', async (t) => {
  const { graph, cases } = devnetMix();
  compare(t, graph, cases, 4);
  compare(t, generatedGraph, generatedCases, 4);
});

t.test('the depth bounds hold over every path float curve, and are its own on one pool', async (t) => {
  const { index } = generatedGraph;
  let paths = 0;
  let below = 0;
  let loose = 0;
  let single = 0;
  for (const c of generatedCases) {
    const ends = tradeEnds(index.wrappedNative, c.tokenIn, c.tokenOut);
    const found = executablePaths(index, ends, { maxHops: MAX_HOPS, tradeType: 'exactIn', allow: ALL }, undefined);
    for (const p of found.paths) {
      paths++;
      const onePool = p.path.pools.length === 1;
      if (onePool) single++;
      // As far as its pools' known state goes, so that the curve's surplus is its own, not where the curve was cut.
      const curve = pathCurve(p.path, 'exactIn', Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      if (curve.x.length === 0) continue;
      for (const x of [Number(c.amount) / 100, Number(c.amount), Number(c.amount) * 10, curve.endX]) {
        const exact = outputAt(curve, Math.min(x, curve.endX));
        const bound = pathOutputBound(p.path, 'exactIn', Math.min(x, curve.endX));
        if (exact > bound * (1 + 1e-12)) below++;
        if (onePool && bound > exact * (1 + 1e-6) + 1e-6) loose++;
      }
      for (const share of [0.999, 0.9, 0.5]) {
        const lambda = rateAtZero(curve) * share;
        const exact = surplusAt(curve, lambda);
        const bound = pathSurplusBound(p.path, 'exactIn', lambda);
        if (exact > bound * (1 + 1e-9) + 1e-9) below++;
        if (onePool && bound > exact * (1 + 1e-6) + 1e-6) loose++;
      }
    }
  }
  t.ok(paths > 500 && single > 50, `${paths} paths, ${single} of one pool`);
  t.equal(below, 0, 'no curve above its bounds');
  t.equal(loose, 0, 'one pool: the bounds are its curve');
});
