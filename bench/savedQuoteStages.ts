/**
 * `npm run ts -- bench/savedQuoteStages.ts`: the API thread's CPU of one `POST /quotes` beyond the search, in-process, by
 * stage. The search of each of bench:http's default-routing bodies (bench/lib/quoteMix.ts, any price impact) runs
 * once in a pricing worker; the timed requests then take their described trade from that answer (Pricer.findQuote: the
 * worker describes the trade and builds its steps), so what is timed is what the API thread does around it:
 * parseQuoteRequest, `sameChainQuote` (refusals, taking the worker's answer),
 * `saveQuote` (the Quote, its JSON and the store's write) and the response envelope's text. REDIS_URL set: the quotes
 * are saved in Redis under a key prefix of its own (written, not read back; they expire after 60 s), else in memory.
 * BENCH_REQUESTS (default 20,000) timed after 5,000 warm-up requests, one at a time. Prints the mean wall and CPU µs
 * of each stage and the process CPU µs per request (the pricing worker is idle then: the API thread's CPU; the Redis
 * server's is not counted).
 */
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import type { DeploymentQuote } from '../src/quote/describedQuote.ts';
import { createPricer } from '../src/quote/Pricer.ts';
import { QUOTE_VALIDITY_SECONDS } from '../src/quote/Quote.ts';
import { quoteContext } from '../src/quote/quoteContext.ts';
import { parseQuoteRequest } from '../src/quote/quoteRequest.ts';
import { sameChainQuote } from '../src/quote/sameChainQuote.ts';
import { saveQuote } from '../src/quote/saveQuote.ts';
import { createQuoteStore } from '../src/store/quoteStore.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const timed = Number(process.env.BENCH_REQUESTS ?? 20_000);
const config = shippedConfig({
  REDIS_URL: process.env.REDIS_URL ?? '',
  REDIS_KEY_PREFIX: `bench:stages:${process.pid}`,
  QUOTE_TTL_SECONDS: '60',
});
const catalog = loadCatalog(config.catalogDir);
const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
const pricer = createPricer(config, { graph: () => graph, catalog });
const store = createQuoteStore(config);
const bodies = variedQuoteBodies(200, { maxPriceImpactBps: 10_000 });
/** Each body's search answer, by the body's index: the timed requests read it instead of searching again. */
const answers: DeploymentQuote[][] = [];
let current = 0;
const ctx = quoteContext({
  catalog,
  graph: () => graph,
  pricer: {
    findTrades: (search) => pricer.findTrades(search),
    findQuote: async (search) => (answers[current] ??= await pricer.findQuote(search)),
    findRoutes: (search) => pricer.findRoutes(search),
    close: () => pricer.close(),
    queueSize: () => 0,
  },
  store,
});

/** Wall and CPU (process.cpuUsage: every thread, the pricing worker idle then) µs per stage, summed. */
const stages = { validate: [0, 0], steps: [0, 0], save: [0, 0], envelope: [0, 0] };
type Stage = keyof typeof stages;
let bytes = 0;
let mark = { wall: 0, cpu: 0 };
const now = () => {
  const c = process.cpuUsage();
  return { wall: performance.now() * 1000, cpu: c.user + c.system };
};
function lap(stage: Stage, record: boolean): void {
  const at = now();
  if (record) {
    stages[stage][0] += at.wall - mark.wall;
    stages[stage][1] += at.cpu - mark.cpu;
  }
  mark = at;
}
async function request(index: number, record: boolean): Promise<void> {
  current = index % bodies.length;
  mark = now();
  const validated = parseQuoteRequest(JSON.parse(bodies[current]), catalog, config.defaultSlippageBps);
  lap('validate', record);
  const createdMs = Date.now();
  const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
  const priced = await sameChainQuote(ctx, validated, deadline);
  lap('steps', record);
  const saved = await saveQuote(ctx, { request: validated, orgId: 'bench', createdMs, deadline }, priced);
  lap('save', record);
  const envelope = `{"code":201,"message":"quote created successfully","data":${saved.json}}`;
  lap('envelope', record);
  if (record) bytes += envelope.length;
}

try {
  for (let i = 0; i < bodies.length; i++) await request(i, false);
  for (let i = 0; i < 5_000; i++) await request(i, false);
  const cpu = process.cpuUsage();
  for (let i = 0; i < timed; i++) await request(i, true);
  const used = process.cpuUsage(cpu);
  const us = (stage: Stage): string => `${(stages[stage][0] / timed).toFixed(1)} / ${(stages[stage][1] / timed).toFixed(1)}`;
  process.stdout.write(
    `POST /quotes around the search, in-process, ${store.kind} store, ${timed} default-routing devnet requests (${(bytes / timed).toFixed(0)} B answers):\n`,
  );
  process.stdout.write(
    `  wall / CPU µs: JSON.parse + parseQuoteRequest ${us('validate')}, sameChainQuote ${us('steps')}, saveQuote ${us('save')}, envelope ${us('envelope')}\n`,
  );
  process.stdout.write(`  process CPU ${((used.user + used.system) / timed).toFixed(1)} µs per request\n`);
} finally {
  await pricer.close();
  await store.close();
}
