import t from 'tap';
import { ROUTING_GRAPH } from '../../bench/lib/generateScale.ts';
import { type Case, CHAIN_ID, type Graph, MAX_HOPS, MAX_SPLITS } from '../../bench/lib/routingGraphs.ts';
import { type DeploymentId, deploymentId } from '../../src/catalog/Catalog.ts';
import { bestTradesByDeployment, type DeploymentTrade } from '../../src/routing/bestTradesByDeployment.ts';
import type { RoutingLimits } from '../../src/routing/RoutingLimits.ts';
import { devnetMix, generatedMix } from '../helpers/searchRequests.ts';

type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];

/** An outcome as text, bigints included: equal texts are equal outcomes to the byte. */
const text = (o: DeploymentTrade['outcome']): string => JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** The routing limits each case is searched at: the API's defaults, and two smaller. */
const LIMITS = [
  { maxHops: MAX_HOPS, maxSplits: MAX_SPLITS },
  { maxHops: 2, maxSplits: 3 },
  { maxHops: 1, maxSplits: 1 },
] as const;

/** Every case of a graph at every limit and side; returns how many outcomes were compared and how many were trades. */
function compare(t: TestContext, graph: Graph, cases: readonly Case[]): { compared: number; trades: number; mixed: number } {
  const deployments = graph.index.chain.dexes.map((d) => deploymentId(d.slug, d.version));
  let compared = 0;
  let trades = 0;
  let mixed = 0;
  for (const c of cases)
    for (const tradeType of ['exactIn', 'exactOut'] as const)
      for (const l of LIMITS) {
        const limits: RoutingLimits = { ...l, gasPriceWei: graph.gasPriceWei, deployments };
        const subject = { tokenIn: c.tokenIn, tokenOut: c.tokenOut, tradeType, amount: c.amount };
        const alone = (only: readonly DeploymentId[]): string =>
          text(bestTradesByDeployment(graph.index, subject, { ...limits, deployments: only }, false)[0].outcome);
        const found = bestTradesByDeployment(graph.index, subject, limits, true);
        const all = alone(deployments);
        const overAll = found.find((f) => f.deployment === '');
        const name = `${graph.symbol(c.tokenIn)} -> ${graph.symbol(c.tokenOut)} ${c.size} ${tradeType} ${l.maxHops}/${l.maxSplits}`;
        if (overAll) {
          mixed++;
          if (text(overAll.outcome) !== all) t.fail(`${name}: the trade over all deployments`);
        }
        t.same(
          found.filter((f) => f.deployment !== '').map((f) => f.deployment),
          deployments,
          `${name}: one entry per deployment`,
        );
        for (const f of found) {
          if (f.deployment === '') continue;
          const own = text(f.outcome);
          // The deployment of the best trade over all deployments, when it uses one only, stands for it (no search of
          // its own): its entry is that trade.
          if (own !== alone([f.deployment]) && own !== all) t.fail(`${name}: ${f.deployment}`);
          compared++;
          if (f.outcome.ok) trades++;
        }
      }
  return { compared, trades, mixed };
}

t.test('devnet: each deployment trade is the search kept to it alone, to the byte', async (t) => {
  const { graph, cases } = devnetMix();
  const { compared, trades, mixed } = compare(t, graph, cases);
  t.ok(compared >= 1000 && trades >= 300 && mixed >= 50, `${compared} outcomes compared, ${trades} trades, ${mixed} mixed`);
});

t.test('generated graph with v4 and Balancer pools: the same', async (t) => {
  const { graph, cases } = generatedMix(t, { ...ROUTING_GRAPH, pools: 3_000, tokens: 300, v4Pools: 300, balancerPools: 100 });
  t.equal(graph.index.chain.chainId, CHAIN_ID);
  const { compared, trades, mixed } = compare(t, graph, cases);
  t.ok(compared >= 1000 && trades >= 300 && mixed >= 50, `${compared} outcomes compared, ${trades} trades, ${mixed} mixed`);
});
