/**
 * The graphs and requests the search's exactness tests compare two searches over (test/routing/firstRoundBound.test.ts,
 * boundBeforeCurves.test.ts, rateCeilings.test.ts, ...): the shipped devnet graph and generated ones, each with
 * bench:routing's cases (three sizes of each pair); each case exact in, and exact out of a third of its amount's
 * output, at the snapshot's gas price, none and 50 times it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRoutingGraph, type RoutingGraphFixture, type RoutingGraphOptions } from '../../bench/lib/generateScale.ts';
import {
  bestTradeOfCase,
  type Case,
  devnetPairs,
  type Graph,
  generatedPairs,
  loadGraph,
  pairCases,
} from '../../bench/lib/routingGraphs.ts';
import { projectRoot } from './serverProcess.ts';

/** A graph and its search cases (bench/lib/routingGraphs.ts pairCases: three sizes of each pair). */
export interface SearchMix {
  readonly graph: Graph;
  readonly cases: readonly Case[];
}

/** The shipped devnet graph, with cases on every devnet pair. */
export function devnetMix(): SearchMix {
  const graph = loadGraph('devnet', join(projectRoot, 'catalog'), join(projectRoot, 'seeds/snapshots'));
  return { graph, cases: devnetPairs(graph).flatMap(([a, b]) => pairCases(graph.index, a, b)) };
}

/**
 * A generated graph (generateRoutingGraph with `options`) in a temporary folder removed when `t` ends, loaded once
 * `edit` (when given) has changed its files, with cases on its 40 pairs (generatedPairs).
 */
export function generatedMix(
  t: Pick<TestContext, 'teardown'>,
  options: RoutingGraphOptions,
  edit?: (fixture: RoutingGraphFixture) => void,
): SearchMix {
  const dir = mkdtempSync(join(tmpdir(), 'search-mix-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fixture = generateRoutingGraph(dir, options);
  edit?.(fixture);
  const graph = loadGraph('generated', fixture.catalogDir, fixture.snapshotDir);
  return { graph, cases: generatedPairs(fixture).flatMap(([a, b]) => pairCases(graph.index, a, b)) };
}

/** A case and the gas price it is searched at. */
export type SearchRequest = { readonly c: Case; readonly gasPriceWei: bigint };

/** Each case exact in, and exact out of a third of its amount's output, at the snapshot's gas price, none and 50 times it. */
export function searchRequests(graph: Graph, cases: readonly Case[]): SearchRequest[] {
  const out: SearchRequest[] = [];
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

/** A trade (or refusal) as text, bigints included: two searches' answers compared whole. */
export const tradeText = (x: unknown): string => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** A tap test (the subtest a check runs in). */
type TestContext = Parameters<Parameters<typeof import('tap').default.test>[0]>[0];

/**
 * Checks that two searches give the same trades over a graph's requests (searchRequests): `pair` runs both on one
 * request (and may count what each did).
 */
export function sameTrades(
  t: TestContext,
  graph: Graph,
  cases: readonly Case[],
  pair: (r: SearchRequest) => readonly [unknown, unknown],
): void {
  const all = searchRequests(graph, cases);
  t.ok(all.length >= 300, `${all.length} requests`);
  let differ = 0;
  for (const r of all) {
    const [a, b] = pair(r);
    if (tradeText(a) !== tradeText(b)) {
      differ++;
      t.fail(`${r.c.tradeType ?? 'exactIn'} ${r.c.amount} ${r.c.tokenIn} -> ${r.c.tokenOut} gas ${r.gasPriceWei}: trades differ`);
    }
  }
  t.equal(differ, 0, `0 of ${all.length} trades differ`);
}
