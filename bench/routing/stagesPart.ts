/**
 * bench:routing, part "stages" (issue 27): the route search per quote with paths of stages searched (a path no single
 * router runs, e.g. Balancer then Uniswap pools, cut into consecutive steps: handoverSlippageBps, as POST /quotes
 * searches at the request's slippage, default 50 bps), on the generated 10,000-pool graph with
 * BENCH_ROUTING_BALANCER_POOLS (default 500) Balancer pools added (the balancer part's graph and cases). With
 * BENCH_BEFORE=<git ref>[,<git ref>...], each commit's search on the same graph and cases in alternating rounds (this,
 * before; before, this; ...): p50/p99 of both, and how many best trades take a path of stages, alone or beside other paths.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TradeOutcome } from '../../src/routing/bestTrade.ts';
import { beforeCheckout, type CheckoutOutcome, checkoutSearch, removeCheckout } from '../lib/beforeCheckout.ts';
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH, rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import { bestTradeOfCase, type Case, CHAIN_ID, generatedPairs, loadGraph, pairCases, SEARCH_ROUNDS } from '../lib/routingGraphs.ts';
import { shuffled, timedCpu } from '../lib/timing.ts';
import { balancerBasePairs, ROUTING_BALANCER_POOLS } from './balancerPart.ts';

/** BENCH_BEFORE: one commit, or several separated by commas (each its own side in the alternating rounds). */
const BEFORE = process.env.BENCH_BEFORE?.split(',').filter((r) => r !== '') ?? [];
/** The hand-over slippage searched: the service's default slippage (DEFAULT_SLIPPAGE_BPS). */
const HANDOVER_BPS = 50;

/** How many best trades take a path of stages: alone, and as one part of a split. */
function stagedCounts(outcomes: readonly (TradeOutcome | CheckoutOutcome)[]): { alone: number; inSplits: number } {
  let alone = 0;
  let inSplits = 0;
  for (const o of outcomes) {
    if (!o.ok) continue;
    const splits = (o as Extract<TradeOutcome, { ok: true }>).trade.splits;
    if (!splits.some((s) => s.route.stages)) continue;
    if (splits.length === 1) alone++;
    else inSplits++;
  }
  return { alone, inSplits };
}

/** The stages part: one row (two with BENCH_BEFORE). */
export async function stagesPart(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-routing-stages-'));
  const roots = BEFORE.map((ref) => beforeCheckout(ref));
  try {
    const fixture = generateRoutingGraph(dir, { ...ROUTING_GRAPH, balancerPools: ROUTING_BALANCER_POOLS });
    const { weighted, stable } = fixture.balancerPools;
    const graph = loadGraph(
      `generated ${num(ROUTING_GRAPH.pools)} pools + ${num(weighted + stable)} Balancer`,
      fixture.catalogDir,
      fixture.snapshotDir,
    );
    const basePairs = balancerBasePairs(fixture.tokens);
    const cases: Case[] = [...generatedPairs(fixture), ...basePairs].flatMap(([a, b]) => pairCases(graph.index, a, b));
    const searches: ((c: Case) => TradeOutcome | CheckoutOutcome)[] = [
      (c) => bestTradeOfCase(graph, c, graph.gasPriceWei, undefined, undefined, undefined, HANDOVER_BPS),
    ];
    for (const root of roots) {
      const before = await checkoutSearch(root, fixture.catalogDir, fixture.snapshotDir, CHAIN_ID, HANDOVER_BPS);
      searches.push((c) => before(c, graph.gasPriceWei));
    }
    // A first pass converts the pools the quotes touch, and gives each side's outcomes.
    const outcomes = searches.map((search) => cases.map((c) => search(c)));
    const sides = searches.map(() => ({ wall: new LatencyRecorder(), cpu: new LatencyRecorder() }));
    const random = rng(29);
    for (let round = 0; round < SEARCH_ROUNDS; round++) {
      const order = round % 2 === 0 ? [...searches.keys()] : [...searches.keys()].reverse();
      for (const k of order)
        for (const c of shuffled(cases, random)) {
          const [, wall, cpu] = timedCpu(() => searches[k](c));
          sides[k].wall.add(wall);
          sides[k].cpu.add(cpu);
        }
    }
    const figures = sides.map((s) => [...s.wall.percentiles([50, 99]), ...s.cpu.percentiles([50, 99])]);
    const staged = outcomes.map(stagedCounts);
    const said = (k: number): string => {
      const [w50, w99, c50, c99] = figures[k];
      return `p50 ${ms(w50)}, p99 ${ms(w99)} (CPU p50 ${ms(c50)}, p99 ${ms(c99)}); paths of stages in ${staged[k].alone} trades alone, ${staged[k].inSplits} in splits`;
    };
    const line = `stages ${graph.name}, handover ${HANDOVER_BPS} bps: ${said(0)}${BEFORE.map((ref, b) => `; ${ref}: ${said(b + 1)}`).join('')}`;
    process.stdout.write(`${line}\n`);
    const rows: BenchRow[] = [
      {
        part: 'routing',
        case: `search per quote with paths of stages (handover ${HANDOVER_BPS} bps), ${graph.name}, defaults`,
        result: `${said(0)}; ${num(sides[0].wall.count)} quotes of ${cases.length} trades`,
        ratio: '',
        target: '',
        met: null,
      },
    ];
    for (const [b, ref] of BEFORE.entries()) {
      let higher = 0;
      let lower = 0;
      for (let i = 0; i < cases.length; i++) {
        const [a, o] = [outcomes[0][i], outcomes[b + 1][i]];
        if (!a.ok || !o.ok) continue;
        // As the search ranks them: net of the network fee in tokenOut.
        const net = (x: typeof a) => x.trade.amountOut - (('gasCost' in x.trade ? x.trade.gasCost.tokenOut : null) ?? 0n);
        if (net(a) > net(o)) higher++;
        else if (net(a) < net(o)) lower++;
      }
      const x = (p: number, q: number): string => `x${(p / q).toFixed(2)}`;
      const [now, then] = [figures[0], figures[b + 1]];
      rows.push({
        part: 'routing',
        case: `search per quote with paths of stages, ${graph.name}, against ${ref}, alternating rounds`,
        result: `before: ${said(b + 1)}`,
        ratio: `p50 ${x(now[0], then[0])}, p99 ${x(now[1], then[1])}; CPU p50 ${x(now[2], then[2])}, p99 ${x(now[3], then[3])}; output net of gas vs before: ${higher} higher, ${lower} lower of ${cases.length}`,
        target: '',
        met: null,
      });
    }
    return rows;
  } finally {
    for (const root of roots) removeCheckout(root);
    rmSync(dir, { recursive: true, force: true });
  }
}
