// Paths of stages get their curve only where a bound of what they can deliver says the search may choose them
// (src/routing/stagedRoutes.ts outputBound, mayAdd; bestTrade's admit). The bound must never change a trade: over
// seeded requests on a generated graph with Balancer pools (many paths of stages), the search with it gives exactly
// the trades of the search without it (every steered path's curve built beforehand, so no path waits on the bound),
// while it does leave curves unbuilt; and it bounds every such path's float curve.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateRoutingGraph } from '../../bench/lib/generateScale.ts';
import { type Case, generatedPairs, loadGraph, MAX_HOPS, MAX_SPLITS, pairCases } from '../../bench/lib/routingGraphs.ts';
import { balancerBasePairs } from '../../bench/routing/balancerPart.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { executablePaths } from '../../src/routing/candidates.ts';
import { fixedAmountCurve } from '../../src/routing/optimalSplit.ts';
import { outputAt, rateAtZero } from '../../src/routing/pathCurve.ts';
import type { CurveCache } from '../../src/routing/searchCurves.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';
import { outputBound } from '../../src/routing/stagedRoutes.ts';
import { tradeEnds } from '../../src/routing/tradeEnds.ts';

const HANDOVER_BPS = 50;
const dir = mkdtempSync(join(tmpdir(), 'staged-bound-test-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fixture = generateRoutingGraph(dir, { pools: 3000, tokens: 300, seed: 11, balancerPools: 200 });
const graph = loadGraph('generated', fixture.catalogDir, fixture.snapshotDir);
const { index } = graph;

/** The requests: each pair's search mix, a thousand times its largest amount, and exact output of half a trade's. */
function requests(): TradeRequest[] {
  const cases: Case[] = [...generatedPairs(fixture), ...balancerBasePairs(fixture.tokens)].flatMap(([a, b]) => pairCases(index, a, b));
  const base = (c: Case, gasPriceWei: bigint): TradeRequest => ({
    tokenIn: c.tokenIn,
    tokenOut: c.tokenOut,
    tradeType: 'exactIn',
    amount: c.amount,
    maxHops: MAX_HOPS,
    maxSplits: MAX_SPLITS,
    gasPriceWei,
    allow: () => true,
    handoverSlippageBps: HANDOVER_BPS,
  });
  const out: TradeRequest[] = [];
  for (const c of cases) {
    for (const gas of [graph.gasPriceWei, 0n]) {
      const r = base(c, gas);
      out.push(r, { ...r, amount: r.amount * 1000n });
      const sized = bestTrade(index, r);
      if (sized.ok && sized.trade.amountOut > 1n) out.push({ ...r, tradeType: 'exactOut', amount: sized.trade.amountOut / 2n });
    }
  }
  return out;
}

/** Every steered path's curve for a request: the search given these builds none on demand (no bound consulted). */
function allCurves(r: TradeRequest): { curves: CurveCache; staged: string[] } {
  const found = executablePaths(index, tradeEnds(index.wrappedNative, r.tokenIn, r.tokenOut), r, undefined);
  const curves: CurveCache = new Map(found.paths.map((c) => [c.key, fixedAmountCurve(c.path, r.tradeType, r.amount)]));
  return { curves, staged: found.paths.filter((c) => c.stages).map((c) => c.key) };
}

const text = (x: unknown): string => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

t.test('the search with the bound gives exactly the trades of the search without it, leaving curves unbuilt', async (t) => {
  const all = requests();
  t.ok(all.length >= 300, `${all.length} requests`);
  let differ = 0;
  let staged = 0;
  let skipped = 0;
  let stagedTrades = 0;
  for (const r of all) {
    const without = allCurves(r);
    const built: CurveCache = new Map();
    const bounded = bestTrade(index, r, { curves: built });
    const unbounded = bestTrade(index, r, { curves: without.curves });
    if (text(bounded) !== text(unbounded)) {
      differ++;
      t.fail(`${r.tradeType} ${r.amount} ${r.tokenIn} -> ${r.tokenOut}: trades differ`);
    }
    staged += without.staged.length;
    skipped += without.staged.filter((k) => !built.has(k)).length;
    if (bounded.ok && bounded.trade.splits.some((s) => s.route.stages)) stagedTrades++;
  }
  t.equal(differ, 0, `0 of ${all.length} trades differ`);
  t.ok(stagedTrades > 0, `${stagedTrades} trades take a path of stages`);
  t.ok(skipped > staged / 2, `${skipped} of ${staged} curves of paths of stages left unbuilt`);
});

t.test('the output bound holds over each path of stages float curve', async (t) => {
  let paths = 0;
  let bad = 0;
  for (const r of requests().slice(0, 60)) {
    const found = executablePaths(index, tradeEnds(index.wrappedNative, r.tokenIn, r.tokenOut), r, undefined);
    for (const c of found.paths) {
      if (!c.stages) continue;
      paths++;
      const b = outputBound(c.path, 'exactIn');
      const curve = fixedAmountCurve(c.path, 'exactIn', r.amount * 1000n);
      if (rateAtZero(curve) > b.rate * (1 + 1e-9)) bad++;
      for (const x of [curve.endX / 1e6, curve.endX / 100, curve.endX / 2, curve.endX])
        if (Number.isFinite(x) && outputAt(curve, x) > Math.min(b.rate * x, b.cap) * (1 + 1e-9)) bad++;
    }
  }
  t.ok(paths > 0, `${paths} paths of stages`);
  t.equal(bad, 0, 'rate at zero and output never above the bound');
});
