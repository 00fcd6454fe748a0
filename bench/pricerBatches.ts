/**
 * `npm run ts -- bench/pricerBatches.ts`: what a pricing worker round trip costs the API thread, with searches sent to the
 * worker one at a time (maxBatch 1) against in batches (the default, src/quote/taskBatches.ts). A closed loop of
 * BENCH_CONCURRENCY (default 50) clients, each sending its next search of bench:http's default-routing mix when its
 * last is answered (decoded), to a pricer with one worker; per round a new pricer, BENCH_WARM (default 3,000) searches
 * to warm it up, then BENCH_TASKS (default 4,000) timed. Rounds alternate between the settings (BENCH_BATCHES, default
 * `1,8`; BENCH_ROUNDS each, default 3). Prints per round the API (main) thread's CPU per search (/proc, 10 ms ticks), the rest of the process's
 * (the worker, V8's helpers) and the wall time per search; no HTTP, so the API figure is the pricer's share alone.
 */
import { readFileSync } from 'node:fs';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { createPricer } from '../src/quote/Pricer.ts';
import { parseQuoteRequest } from '../src/quote/quoteRequest.ts';
import { tradeSearch } from '../src/routing/TradeFinder.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const WARM = Number(process.env.BENCH_WARM ?? 3_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 4_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCHES = (process.env.BENCH_BATCHES ?? '1,8').split(',').map(Number);
const config = shippedConfig();
const catalog = loadCatalog(config.catalogDir);
const searches = variedQuoteBodies(200, { maxPriceImpactBps: 10_000 }).map((body) => {
  const request = parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps);
  return tradeSearch(request.originChain, request, request.limits, true);
});

/** User + system CPU (ms) of this process's main thread and of the whole process, from /proc. */
function cpu(): { main: number; all: number } {
  const ticks = (stat: string) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  return { main: ticks(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')), all: ticks(readFileSync('/proc/self/stat', 'utf8')) };
}

async function round(maxBatch: number): Promise<string> {
  const pricer = createPricer(config, { maxBatch });
  try {
    let next = 0;
    const load = async (count: number) => {
      const end = next + count;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < end) await pricer.findTrades(searches[next++ % searches.length]);
        }),
      );
    };
    await load(WARM);
    const before = cpu();
    const t0 = performance.now();
    await load(TASKS);
    const wall = performance.now() - t0;
    const after = cpu();
    const per = (ms: number) => ((ms * 1000) / TASKS).toFixed(0);
    return `maxBatch ${maxBatch}: API thread ${per(after.main - before.main)} µs/search, rest of the process ${per(after.all - after.main - (before.all - before.main))} µs, wall ${per(wall)} µs`;
  } finally {
    await pricer.close();
  }
}

process.stdout.write(`${searches.length} default-routing searches, ${CONCURRENCY} in flight, one worker, ${TASKS} timed per round\n`);
for (let r = 0; r < ROUNDS; r++) for (const maxBatch of BATCHES) process.stdout.write(`${await round(maxBatch)}\n`);
