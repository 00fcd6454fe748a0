/**
 * bench:routing, part "refine": the output the 1% refinement adds over the plain 5% grid (refineGrid 0) on large
 * trades (10-50% of the deepest direct pool's tokenIn balance), gasPriceWei 0 (gross output), and what it costs.
 */
import type { TradeOutcome } from '../../src/routing/bestTrade.ts';
import { type BenchRow, ms } from '../lib/benchRows.ts';
import { ALL, balanceOf, bestTradeOfCase, type Case, devnetPairs, type Graph, type RoutingGraphs } from '../lib/routingGraphs.ts';
import { median, timed } from '../lib/timing.ts';

function refineGraph(graph: Graph, pairs: readonly [string, string][]): BenchRow {
  const trades: Case[] = [];
  for (const [a, b] of pairs) {
    const direct = graph.index.poolsOf(a).filter((e) => e.token0 === b || e.token1 === b);
    if (direct.length === 0) continue;
    const deepest = direct.reduce((max, e) => (balanceOf(e, a) > max ? balanceOf(e, a) : max), 0n);
    for (const pct of [10n, 20n, 30n, 40n, 50n]) trades.push({ tokenIn: a, tokenOut: b, amount: (deepest * pct) / 100n, size: `${pct}%` });
  }
  const gains: number[] = [];
  const plainMs: number[] = [];
  const refinedMs: number[] = [];
  let splitTrades = 0;
  let improved = 0;
  let refused = 0;
  for (const c of trades) {
    bestTradeOfCase(graph, c, 0n, ALL, { refineGrid: 0 });
    bestTradeOfCase(graph, c, 0n);
    const p: number[] = [];
    const r: number[] = [];
    let plain: TradeOutcome | undefined;
    let refined: TradeOutcome | undefined;
    for (let i = 0; i < 3; i++) {
      const [po, pt] = timed(() => bestTradeOfCase(graph, c, 0n, ALL, { refineGrid: 0 }));
      const [ro, rt] = timed(() => bestTradeOfCase(graph, c, 0n));
      plain = po;
      refined = ro;
      p.push(pt);
      r.push(rt);
    }
    plainMs.push(median(p));
    refinedMs.push(median(r));
    if (!plain!.ok || !refined!.ok) {
      refused++;
      continue;
    }
    if (plain!.trade.splits.length > 1) splitTrades++;
    const gain = refined!.trade.amountOut - plain!.trade.amountOut;
    if (gain > 0n) improved++;
    gains.push(Number((gain * 10_000_000_000n) / plain!.trade.amountOut) / 1e6);
  }
  const avg = gains.reduce((a, b) => a + b, 0) / gains.length;
  const max = Math.max(...gains);
  const min = Math.min(...gains);
  const pPlain = median(plainMs);
  const pRefined = median(refinedMs);
  const extra = median(refinedMs.map((t, i) => t - plainMs[i]));
  process.stdout.write(
    `refine ${graph.name}: ${trades.length} trades, gains avg ${avg.toFixed(3)} bps, max ${max.toFixed(3)} bps, min ${min.toFixed(3)}; time p50 ${ms(pPlain)} -> ${ms(pRefined)}\n`,
  );
  return {
    part: 'routing',
    case: `1% refinement vs plain 5% grid, ${graph.name}, ${trades.length} trades of 10-50% of the deepest pool, gas 0`,
    result: `output +${avg.toFixed(2)} bps on average, max +${max.toFixed(2)} bps${min < 0 ? `, min ${min.toFixed(2)} bps` : ''}; higher on ${improved} of ${gains.length} (grid chose a split on ${splitTrades})${refused ? `, ${refused} refused` : ''}`,
    ratio: `time p50 ${ms(pPlain)} -> ${ms(pRefined)} (${pRefined >= pPlain ? '+' : ''}${(((pRefined - pPlain) / pPlain) * 100).toFixed(0)}%); median extra per trade ${ms(extra)}`,
    target: '',
    met: null,
  };
}

/**
 * The refine part: on the devnet every ordered pair of ERC-20s with a direct pool; on the generated graph the 20
 * ordered base pairs and the 4 most popular generated tokens against each base, both ways.
 */
export function refinePart(graphs: RoutingGraphs): BenchRow[] {
  const { devnet, fixture } = graphs;
  const devnetErc20Pairs = devnetPairs(devnet).filter(([a, b]) => a !== devnet.index.native && b !== devnet.index.native);
  const bases = fixture.tokens.slice(0, fixture.baseTokens);
  const top = fixture.tokens.slice(fixture.baseTokens, fixture.baseTokens + 4);
  const pairs: [string, string][] = [];
  for (const a of bases) for (const b of bases) if (a !== b) pairs.push([a, b]);
  for (const t of top) for (const b of bases) pairs.push([t, b], [b, t]);
  return [refineGraph(devnet, devnetErc20Pairs), refineGraph(graphs.generated, pairs)];
}
