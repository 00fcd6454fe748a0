/**
 * bench:routing, part "splits": the output splits at the optimum (maxSplits 5, marginal rates equalised) add over the
 * best single path (maxSplits 1) on large trades (10-50% of the deepest direct pool's tokenIn balance), gasPriceWei 0
 * (gross output), and what the split search costs beside the single-path one.
 */
import type { TradeOutcome } from '../../src/routing/bestTrade.ts';
import { type BenchRow, ms } from '../lib/benchRows.ts';
import { ALL, balanceOf, bestTradeOfCase, type Case, devnetPairs, type Graph, type RoutingGraphs } from '../lib/routingGraphs.ts';
import { median, timed } from '../lib/timing.ts';

function splitsGraph(graph: Graph, pairs: readonly [string, string][]): BenchRow {
  const trades: Case[] = [];
  for (const [a, b] of pairs) {
    const direct = graph.index.poolsOf(a).filter((e) => e.token0 === b || e.token1 === b);
    if (direct.length === 0) continue;
    const deepest = direct.reduce((max, e) => (balanceOf(e, a) > max ? balanceOf(e, a) : max), 0n);
    for (const pct of [10n, 20n, 30n, 40n, 50n]) trades.push({ tokenIn: a, tokenOut: b, amount: (deepest * pct) / 100n, size: `${pct}%` });
  }
  const gains: number[] = [];
  const singleMs: number[] = [];
  const splitMs: number[] = [];
  let splitTrades = 0;
  let improved = 0;
  let refused = 0;
  for (const c of trades) {
    bestTradeOfCase(graph, c, 0n, ALL, undefined, 1);
    bestTradeOfCase(graph, c, 0n);
    const p: number[] = [];
    const r: number[] = [];
    let single: TradeOutcome | undefined;
    let split: TradeOutcome | undefined;
    for (let i = 0; i < 3; i++) {
      const [po, pt] = timed(() => bestTradeOfCase(graph, c, 0n, ALL, undefined, 1));
      const [ro, rt] = timed(() => bestTradeOfCase(graph, c, 0n));
      single = po;
      split = ro;
      p.push(pt);
      r.push(rt);
    }
    singleMs.push(median(p));
    splitMs.push(median(r));
    if (!single!.ok || !split!.ok) {
      refused++;
      continue;
    }
    if (split!.trade.splits.length > 1) splitTrades++;
    const gain = split!.trade.amountOut - single!.trade.amountOut;
    if (gain > 0n) improved++;
    gains.push(Number((gain * 10_000_000_000n) / single!.trade.amountOut) / 1e6);
  }
  const avg = gains.reduce((a, b) => a + b, 0) / gains.length;
  const max = Math.max(...gains);
  const min = Math.min(...gains);
  const pSingle = median(singleMs);
  const pSplit = median(splitMs);
  const extra = median(splitMs.map((t, i) => t - singleMs[i]));
  process.stdout.write(
    `splits ${graph.name}: ${trades.length} trades, gains avg ${avg.toFixed(3)} bps, max ${max.toFixed(3)} bps, min ${min.toFixed(3)}; time p50 ${ms(pSingle)} -> ${ms(pSplit)}\n`,
  );
  return {
    part: 'routing',
    case: `splits at the optimum vs the best single path, ${graph.name}, ${trades.length} trades of 10-50% of the deepest pool, gas 0`,
    result: `output +${avg.toFixed(2)} bps on average, max +${max.toFixed(2)} bps${min < 0 ? `, min ${min.toFixed(2)} bps` : ''}; higher on ${improved} of ${gains.length} (split on ${splitTrades})${refused ? `, ${refused} refused` : ''}`,
    ratio: `time p50 ${ms(pSingle)} -> ${ms(pSplit)} (${pSplit >= pSingle ? '+' : ''}${(((pSplit - pSingle) / pSingle) * 100).toFixed(0)}%); median extra per trade ${ms(extra)}`,
    target: '',
    met: null,
  };
}

/**
 * The splits part: on the devnet every ordered pair of ERC-20s with a direct pool; on the generated graph the 20
 * ordered base pairs and the 4 most popular generated tokens against each base, both ways.
 */
export function splitsPart(graphs: RoutingGraphs): BenchRow[] {
  const { devnet, fixture } = graphs;
  const devnetErc20Pairs = devnetPairs(devnet).filter(([a, b]) => a !== devnet.index.native && b !== devnet.index.native);
  const bases = fixture.tokens.slice(0, fixture.baseTokens);
  const top = fixture.tokens.slice(fixture.baseTokens, fixture.baseTokens + 4);
  const pairs: [string, string][] = [];
  for (const a of bases) for (const b of bases) if (a !== b) pairs.push([a, b]);
  for (const t of top) for (const b of bases) pairs.push([t, b], [b, t]);
  return [splitsGraph(devnet, devnetErc20Pairs), splitsGraph(graphs.generated, pairs)];
}
