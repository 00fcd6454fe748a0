/**
 * bench:routing, part "balancer" (issue 27): the route search per quote with Balancer v2 pools in the graph against
 * the same graph without them (bench/routing/addedPools.ts): the generated 10,000-pool graph with
 * BENCH_ROUTING_BALANCER_POOLS (default 500) Balancer pools added by generateRoutingGraph's balancerPools option
 * (composable stable pools on the stablecoin bases, weighted pools 50/50, 80/20 and of three tokens on the bases and
 * on popular tokens; the 10,000 v2/v3 pools are the same). "Without" is the same snapshot with its Balancer pools
 * dropped before indexing; the cases are the search part's 120 (amounts from the graph without Balancer), plus three
 * sizes of each stablecoin pair and of WETH/WBTC and WETH/USDC, where the base pools' Balancer pools compete.
 * Target: p99 with Balancer at most 10% above p99 without.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchRow, num } from '../lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH } from '../lib/generateScale.ts';
import { generatedPairs, loadGraph, pairCases } from '../lib/routingGraphs.ts';
import { compareAddedPools } from './addedPools.ts';

/** Balancer pools added to the generated graph (BENCH_ROUTING_BALANCER_POOLS, default 500: a twentieth of its pools). */
export const ROUTING_BALANCER_POOLS = Number(process.env.BENCH_ROUTING_BALANCER_POOLS ?? 500);

const withoutBalancer = (p: { version: string }): boolean => p.version !== 'balancerV2';

/** The pairs between base tokens the Balancer graph's stable and weighted pools serve, beside the generated pairs. */
export function balancerBasePairs(tokens: readonly string[]): [string, string][] {
  const [weth, usdc, usdt, dai, wbtc] = tokens;
  return [
    [usdc, usdt],
    [usdt, dai],
    [dai, usdc],
    [weth, wbtc],
    [usdc, weth],
  ];
}

/** The balancer part: one row. */
export async function balancerPart(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-routing-balancer-'));
  try {
    const fixture = generateRoutingGraph(dir, { ...ROUTING_GRAPH, balancerPools: ROUTING_BALANCER_POOLS });
    const { weighted, stable } = fixture.balancerPools;
    const name = `generated ${num(ROUTING_GRAPH.pools)} pools`;
    const withBalancer = loadGraph(`${name} + ${num(weighted + stable)} Balancer`, fixture.catalogDir, fixture.snapshotDir);
    const without = loadGraph(name, fixture.catalogDir, fixture.snapshotDir, withoutBalancer);
    const basePairs = balancerBasePairs(fixture.tokens);
    const cases = [...generatedPairs(fixture), ...basePairs].flatMap(([a, b]) => pairCases(without.index, a, b));
    return compareAddedPools(name, withBalancer, without, cases, {
      label: 'Balancer',
      count: weighted + stable,
      detail: `(${num(weighted)} weighted, ${num(stable)} stable)`,
      version: 'balancerV2',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
