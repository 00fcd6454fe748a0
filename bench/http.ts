/**
 * `npm run bench:http`: HTTP throughput and latency of the service against the bare-Koa ceiling, in one run.
 *
 * Every server runs in its own process (`node --import ./src/loader/register.js ...`); autocannon drives load on loopback from this
 * process, at 50 connections (BENCH_CONNECTIONS). The machine is shared, so cases are interleaved: BENCH_ROUNDS (default 3)
 * rounds each run every case for BENCH_SECONDS (default 3) after a 1 s warm-up, and each figure is the median
 * over the rounds; ratios compare those medians. Latencies are recorded per response here (sub-millisecond),
 * not from autocannon's whole-millisecond histogram.
 *
 * The service runs as `npm start` runs it: default settings, so logging at info (its lines go to a pipe read by
 * this process). Quote amounts vary per request (variedQuoteBodies), so no cache of identical answers can serve.
 * The targets (issue 14) are judged at c=50 as ratios to the bare-Koa ceiling of the same run.
 *
 * Each result also gives the CPU time of the service's API (main) thread per response and of the whole process (the
 * pricing workers too) per response (Linux /proc), which load from other jobs on the shared VM moves far less than
 * req/s: the figures to compare before/after a change by.
 *
 * BENCH_BEFORE=<git ref>: the same cases also run against that commit (checked out in a temporary worktree beside
 * this one), interleaved in the same rounds, so before and after are measured under the same load.
 *
 * Environment: BENCH_SECONDS, BENCH_ROUNDS, REDIS_URL (default redis://127.0.0.1:6379), BENCH_CASES (comma list of case ids
 * to run: ceiling, tokens, blockchains, tokens-eth, routes-single, routes-refused, quotes-redis, quotes-memory,
 * routes-default, routes-default-w2 (WORKER_THREADS=2), quotes-redis-default, and with WEB_CONCURRENCY=2: cluster-routes, cluster-quotes),
 * BENCH_CONNECTIONS (default "50"), BENCH_BEFORE, BENCH_CPU_PROF (a folder: service processes run with --cpu-prof there, their pricing workers too).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import { createApiKeyStore } from '../src/store/apiKeyStore.ts';
import { redisAnswers } from '../test/helpers/redis.ts';
import { type ServerProcess, startServer } from '../test/helpers/serverProcess.ts';
import { beforeCheckout, removeCheckout } from './lib/beforeCheckout.ts';
import { type BenchRow, ms, num, reportRows } from './lib/benchRows.ts';
import { BENCH_SERVER, type LoadCase, lazyServer, runLoadCases, startService } from './lib/loadCases.ts';
import { describeMachine } from './lib/machine.ts';
import { quoteRequests, variedQuoteBodies } from './lib/quoteMix.ts';
import type { LoadResult } from './lib/runLoad.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '50').split(',').map(Number);
const CASES = new Set(
  (process.env.BENCH_CASES ?? 'ceiling,tokens,routes-single,quotes-redis,routes-default,quotes-redis-default').split(','),
);
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const BEFORE = process.env.BENCH_BEFORE;

interface Case extends LoadCase {
  target?: (result: LoadResult, ratio: number) => { target: string; met: boolean };
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
const redisPrefix = `bench:${process.pid}:${randomBytes(4).toString('hex')}`;
const servers: Promise<ServerProcess>[] = [];
const serviceEnv = { DATA_DIR: dataDir, QUOTE_TTL_SECONDS: '600', LOG_LEVEL: 'info' };
const profileArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];

/** Starts a server on first use and reuses it across connection levels; stopped at the end. */
function server(start: () => Promise<ServerProcess>): () => Promise<ServerProcess> {
  return lazyServer(() => {
    const s = start();
    servers.push(s);
    return s;
  });
}

// The mix's large amounts move prices far beyond the default maxPriceImpactBps (15%, since issue 23): this checkout's
// bodies allow any impact, so it prices what a checkout from before the bound prices (BENCH_BEFORE's bodies lack the
// field when that checkout predates it, as it would refuse it as unknown).
const ANY_IMPACT = { maxPriceImpactBps: 10_000 };
const single = variedQuoteBodies(200, { maxHops: 1, maxSplits: 1, ...ANY_IMPACT });
const routing = variedQuoteBodies(200, ANY_IMPACT);
const singleBefore = variedQuoteBodies(200, { maxHops: 1, maxSplits: 1 });
const routingBefore = variedQuoteBodies(200);
// The one-pool bodies on a chain the catalogue does not have: refused by validation (400) before any pricing.
const refused = variedQuoteBodies(200, { maxHops: 1, maxSplits: 1, originChainId: 999 });
const keys = { memory: '', redis: '' };
const redisUp =
  (CASES.has('quotes-redis') || CASES.has('quotes-redis-default') || CASES.has('cluster-quotes') || CASES.has('cluster-routes')) &&
  (await redisAnswers(REDIS_URL));
const beforeRoot = BEFORE ? beforeCheckout(BEFORE) : undefined;

const bare = server(() => startServer({ entry: 'bench/lib/bareKoaServer.ts', ...BENCH_SERVER }));

/** The service cases for one checkout (this one, or BENCH_BEFORE's with ids suffixed `@before`). */
function serviceCases(root: string | undefined): Case[] {
  const suffix = root ? '@before' : '';
  const label = (l: string): string => (root ? `${l} [before: ${BEFORE}]` : l);
  const service = server(() => startService(serviceEnv, profileArgs, root));
  const serviceRedis = server(() => startService({ ...serviceEnv, REDIS_URL, REDIS_KEY_PREFIX: redisPrefix }, profileArgs, root));
  // Two pricing workers beside the API thread (WORKER_THREADS=2; the default on 2 cores is 1).
  const serviceTwoWorkers = server(() => startService({ ...serviceEnv, WORKER_THREADS: '2' }, profileArgs, root));
  // A checkout that knows maxPriceImpactBps gets the same bodies as this one.
  const knowsImpact = !root || readFileSync(join(root, 'src/quote/quoteRequest.ts'), 'utf8').includes('maxPriceImpactBps');
  const bodies = knowsImpact ? { single, routing } : { single: singleBefore, routing: routingBefore };
  return [
    {
      id: `tokens${suffix}`,
      label: label('GET /blockchains/tokens'),
      server: service,
      requests: () => [{ method: 'GET', path: '/blockchains/tokens' }],
      target: (_r, ratio) => ({ target: '>= 75%', met: ratio >= 0.75 }),
    },
    {
      id: `blockchains${suffix}`,
      label: label('GET /blockchains'),
      server: service,
      requests: () => [{ method: 'GET', path: '/blockchains' }],
    },
    {
      id: `tokens-eth${suffix}`,
      label: label('GET /blockchains/tokens?chainId=1'),
      server: service,
      requests: () => [{ method: 'GET', path: '/blockchains/tokens?chainId=1' }],
    },
    {
      id: `routes-single${suffix}`,
      label: label('POST /quotes/routes, one pool (maxHops 1, maxSplits 1)'),
      server: service,
      requests: () => quoteRequests('/quotes/routes', bodies.single),
      target: (r, ratio) => ({ target: '>= 50%, p99 <= 20 ms', met: ratio >= 0.5 && r.p99 <= 20 }),
    },
    {
      // The same middleware, body parsing and validation, then an error envelope instead of pricing: what the request
      // path costs without the quote itself.
      id: `routes-refused${suffix}`,
      label: label('POST /quotes/routes refused by validation (400, unknown originChainId)'),
      server: service,
      status: 400,
      requests: () => quoteRequests('/quotes/routes', refused),
    },
    {
      id: `quotes-redis${suffix}`,
      label: label('POST /quotes (Redis), one pool'),
      server: serviceRedis,
      requests: () => quoteRequests('/quotes', bodies.single, { 'x-api-key': keys.redis }),
      target: (_r, ratio) => ({ target: '>= 35%', met: ratio >= 0.35 }),
    },
    {
      id: `quotes-memory${suffix}`,
      label: label('POST /quotes (memory store), one pool'),
      server: service,
      requests: () => quoteRequests('/quotes', bodies.single, { 'x-api-key': keys.memory }),
    },
    {
      id: `routes-default${suffix}`,
      label: label('POST /quotes/routes, default routing'),
      server: service,
      requests: () => quoteRequests('/quotes/routes', bodies.routing),
      target: (r, ratio) => ({ target: '>= 25%, p99 <= 100 ms', met: ratio >= 0.25 && r.p99 <= 100 }),
    },
    {
      id: `routes-default-w2${suffix}`,
      label: label('POST /quotes/routes, default routing, WORKER_THREADS=2'),
      server: serviceTwoWorkers,
      requests: () => quoteRequests('/quotes/routes', bodies.routing),
    },
    {
      id: `quotes-redis-default${suffix}`,
      label: label('POST /quotes (Redis), default routing'),
      server: serviceRedis,
      requests: () => quoteRequests('/quotes', bodies.routing, { 'x-api-key': keys.redis }),
      target: (_r, ratio) => ({ target: '>= 20%', met: ratio >= 0.2 }),
    },
    ...clusterCases(root, suffix, label),
  ];
}

/** The one-pool quote cases with WEB_CONCURRENCY=2 (two API processes on one port; Redis, which it needs, for both). */
function clusterCases(root: string | undefined, suffix: string, label: (l: string) => string): Case[] {
  const cluster = server(() =>
    startService({ ...serviceEnv, WEB_CONCURRENCY: '2', REDIS_URL, REDIS_KEY_PREFIX: redisPrefix }, profileArgs, root),
  );
  return [
    {
      id: `cluster-routes${suffix}`,
      label: label('POST /quotes/routes, one pool, WEB_CONCURRENCY=2 (Redis)'),
      server: cluster,
      requests: () => quoteRequests('/quotes/routes', single),
    },
    {
      id: `cluster-quotes${suffix}`,
      label: label('POST /quotes (Redis), one pool, WEB_CONCURRENCY=2'),
      server: cluster,
      requests: () => quoteRequests('/quotes', single, { 'x-api-key': keys.redis }),
    },
  ];
}

const cases: Case[] = [
  { id: 'ceiling', label: 'bare Koa POST (ceiling)', server: bare, requests: () => quoteRequests('/echo', single) },
  ...serviceCases(undefined),
  ...(beforeRoot ? serviceCases(beforeRoot) : []),
];
const wanted = (c: Case): boolean => CASES.has(c.id.replace('@before', ''));

/** The API thread's CPU time per response (see threadCpuMs), for same-run before/after comparisons. */
const cpu = (r: LoadResult): string =>
  (r.apiCpuUs === undefined ? '' : `, API thread ${r.apiCpuUs.toFixed(0)} µs/req`) +
  (r.processCpuUs === undefined ? '' : `, process ${r.processCpuUs.toFixed(0)} µs/req`);

const rows: BenchRow[] = [];
try {
  keys.memory = (await createApiKeyStore({ redisUrl: undefined, dataDir }).create('bench')).key;
  if (redisUp) {
    const store = createApiKeyStore({ redisUrl: REDIS_URL, dataDir, redisKeyPrefix: redisPrefix });
    keys.redis = (await store.create('bench')).key;
    await store.close();
  }
  process.stdout.write(
    `machine: ${describeMachine()}\nload: autocannon on loopback, ${ROUNDS} interleaved rounds of ${SECONDS} s per case after 1 s warm-up; medians\n`,
  );
  for (const connections of CONNECTIONS) {
    const active = cases.filter(wanted);
    const runs = await runLoadCases(
      active.filter((c) => !/^(quotes-redis|cluster-)/.test(c.id) || redisUp),
      { connections, rounds: ROUNDS, seconds: SECONDS },
    );
    const ceiling = runs.get('ceiling')?.median;
    for (const c of active) {
      const name = `${c.label} c=${connections}`;
      const run = runs.get(c.id);
      if (!run) {
        rows.push({
          part: 'http',
          case: name,
          result: `not measured: no Redis answers at ${REDIS_URL}`,
          ratio: '',
          target: c.target && connections === 50 ? c.target({ p99: Number.POSITIVE_INFINITY } as LoadResult, 0).target : '',
          met: c.target && connections === 50 ? false : null,
        });
        continue;
      }
      // A cluster's pid is its primary, which serves no requests: no API-thread figure for those cases.
      const result = c.id.startsWith('cluster-') ? { ...run.median, apiCpuUs: undefined, processCpuUs: undefined } : run.median;
      const ratio = ceiling ? result.rps / ceiling.rps : Number.NaN;
      const judged = c.target && connections === 50 ? c.target(result, ratio) : undefined;
      const failed = result.failures > 0 ? `, ${result.failures} failed (${result.failureCodes})` : '';
      rows.push({
        part: 'http',
        case: name,
        result: `${num(result.rps)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}${cpu(result)}${failed}`,
        ratio: c.id === 'ceiling' ? '100%' : Number.isNaN(ratio) ? '' : `${(ratio * 100).toFixed(0)}% of ceiling`,
        target: judged?.target ?? '',
        met: judged ? judged.met && result.failures === 0 : null,
      });
      const rounds = run.rounds
        .map(
          (r) => `${num(r.rps)}${result.apiCpuUs === undefined ? '' : ` (${r.apiCpuUs!.toFixed(0)} / ${r.processCpuUs?.toFixed(0)} µs)`}`,
        )
        .join(', ');
      process.stdout.write(`  ${name}: ${rows[rows.length - 1].result} ${rows[rows.length - 1].ratio} [rounds: ${rounds}]\n`);
    }
  }
} finally {
  for (const s of servers) await (await s.catch(() => undefined))?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (beforeRoot) removeCheckout(beforeRoot);
  if (redisUp) {
    const client = createClient({ url: REDIS_URL });
    client.on('error', () => undefined);
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${redisPrefix}*`, COUNT: 1000 })) if (keys.length) await client.unlink(keys);
    client.destroy();
  }
}
reportRows(rows);
