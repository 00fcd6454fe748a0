/**
 * `npm run ts -- bench/tradeSteps.ts [rounds]`: the CPU of buildTradeSteps alone on bench:http's default-routing
 * devnet mix (bench/lib/quoteMix.ts, 200 amounts per pair, any price impact), in-process. Each body's trade is
 * searched once (a pricing worker), its slippage limits taken as sameChainQuote takes them; then the steps of every
 * trade are built `BENCH_PASSES` times (default 20) per round, after one warm-up round. Prints the CPU µs
 * (process.cpuUsage) per build of each round and their median, alone and with the JSON text of the steps. STEPS_OUT=<file>: writes the JSON of every trade's
 * steps there (to compare two checkouts byte for byte).
 */
import { writeFileSync } from 'node:fs';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import { chosenSlippage } from '../src/quote/autoSlippage.ts';
import { tradeStepsParams } from '../src/quote/describedQuote.ts';
import { createPricer } from '../src/quote/Pricer.ts';
import { parseQuoteRequest } from '../src/quote/quoteRequest.ts';
import { slippageLimits } from '../src/routing/slippageLimits.ts';
import { findBestTrade } from '../src/routing/TradeFinder.ts';
import { buildTradeSteps, type TradeStepsParams } from '../src/tx/buildTradeSteps.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const rounds = Number(process.argv[2] ?? 7);
const passes = Number(process.env.BENCH_PASSES ?? 20);
const config = shippedConfig({});
const catalog = loadCatalog(config.catalogDir);
const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
const pricer = createPricer(config, { graph: () => graph, catalog });
const deadline = 1_900_000_000;
const params: TradeStepsParams[] = [];
try {
  for (const body of variedQuoteBodies(200, { maxPriceImpactBps: 10_000 })) {
    const request = parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps);
    const chain = request.originChain;
    const trade = await findBestTrade(pricer, chain, request, { ...request.limits, approvalMode: request.approvalMode });
    const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, chosenSlippage(request.slippageBps, trade).slippageBps);
    params.push(tradeStepsParams(chain, request, trade, { amountInMaximum, amountOutMinimum }, deadline));
  }
} finally {
  await pricer.close();
}
if (process.env.STEPS_OUT) writeFileSync(process.env.STEPS_OUT, params.map((p) => JSON.stringify(buildTradeSteps(p))).join('\n'));
let sink = 0;
const cpu = (): number => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
/**
 * CPU µs per trade of building its steps (the steps dropped at once), and of building them and their JSON text (the
 * quote's JSON.stringify, which flattens their strings).
 */
const round = (): [number, number] => {
  const start = cpu();
  for (let k = 0; k < passes; k++) for (const p of params) sink += buildTradeSteps(p).length;
  const mid = cpu();
  for (let k = 0; k < passes; k++) for (const p of params) sink += JSON.stringify(buildTradeSteps(p)).length;
  const end = cpu();
  return [(mid - start) / (passes * params.length), (end - mid) / (passes * params.length)];
};
round();
const figures: [number, number][] = [];
for (let r = 0; r < rounds; r++) figures.push(round());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
process.stdout.write(
  `${params.length} trades x ${passes}: CPU µs per trade, buildTradeSteps ${figures.map((f) => f[0].toFixed(1)).join(' ')} (median ${median(figures.map((f) => f[0]))}); buildTradeSteps + JSON.stringify ${figures.map((f) => f[1].toFixed(1)).join(' ')} (median ${median(figures.map((f) => f[1]))})${sink > 0 ? '' : '!'}\n`,
);
