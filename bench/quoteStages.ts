/**
 * `npm run ts -- bench/quoteStages.ts`: what the domain work of one `POST /quotes/routes` costs in-process, by stage, with
 * no HTTP around it: JSON.parse of the body, parseQuoteRequest (validation against the schema and the catalogue),
 * QuoteService.routes (the search, priced in this thread as the API prices one-pool requests, and the route
 * quotes) and JSON.stringify of the response envelope. The shipped catalogue and devnet snapshot, the varied
 * one-pool mix of bench:http (bench/lib/quoteMix.ts; BENCH_HOPS / BENCH_SPLITS change the limits); 20,000 warm-up
 * requests, then BENCH_REQUESTS (default 30,000) timed ones. Prints the mean wall µs of each stage and the process
 * CPU µs per request. Under HTTP load the same code costs more per request (caches shared with the HTTP stack and
 * the load generator): compare it with bench:http's API-thread figure, not with req/s.
 */
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import { createPricer } from '../src/quote/Pricer.ts';
import { parseQuoteRequest } from '../src/quote/quoteRequest.ts';
import { QuoteService } from '../src/quote/quoteService.ts';
import { createQuoteStore } from '../src/store/quoteStore.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const limits = { maxHops: Number(process.env.BENCH_HOPS ?? 1), maxSplits: Number(process.env.BENCH_SPLITS ?? 1) };
const timed = Number(process.env.BENCH_REQUESTS ?? 30_000);
const config = shippedConfig();
const catalog = loadCatalog(config.catalogDir);
const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
const pricer = createPricer(config, { graph: () => graph, catalog });
const store = createQuoteStore(config);
const quotes = new QuoteService({ catalog, graph: () => graph, pricer, store });
// Any price impact: the mix has amounts far above the default bound (15%), and this measures their pricing.
const bodies = variedQuoteBodies(200, { ...limits, maxPriceImpactBps: 10_000 });

const stages = { parse: 0, validate: 0, routes: 0, stringify: 0 };
async function request(body: string, record: boolean): Promise<void> {
  const t0 = performance.now();
  const parsed: unknown = JSON.parse(body);
  const t1 = performance.now();
  const validated = parseQuoteRequest(parsed, catalog, config.defaultSlippageBps);
  const t2 = performance.now();
  const routes = await quotes.routes(validated);
  const t3 = performance.now();
  JSON.stringify({ code: 200, message: 'routes fetched successfully', data: routes });
  const t4 = performance.now();
  if (!record) return;
  stages.parse += t1 - t0;
  stages.validate += t2 - t1;
  stages.routes += t3 - t2;
  stages.stringify += t4 - t3;
}

try {
  for (let i = 0; i < 20_000; i++) await request(bodies[i % bodies.length], false);
  const cpu = process.cpuUsage();
  for (let i = 0; i < timed; i++) await request(bodies[i % bodies.length], true);
  const used = process.cpuUsage(cpu);
  const us = (ms: number): string => ((ms * 1000) / timed).toFixed(1);
  process.stdout.write(
    `POST /quotes/routes domain work in-process, maxHops ${limits.maxHops}, maxSplits ${limits.maxSplits}, ${timed} varied devnet requests:\n`,
  );
  process.stdout.write(
    `  JSON.parse ${us(stages.parse)} µs, parseQuoteRequest ${us(stages.validate)} µs, QuoteService.routes ${us(stages.routes)} µs, JSON.stringify ${us(stages.stringify)} µs\n`,
  );
  process.stdout.write(`  process CPU ${((used.user + used.system) / timed).toFixed(1)} µs per request\n`);
} finally {
  await pricer.close();
  await store.close();
}
