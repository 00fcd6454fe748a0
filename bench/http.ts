/**
 * `npm run bench:http`: HTTP throughput and latency of the service against the bare-Koa ceiling, in one run.
 *
 * Every server runs in its own process (`node --import tsx ...`); autocannon drives load on loopback from this
 * process, at 10 and 50 connections. The machine is shared, so cases are interleaved: BENCH_ROUNDS (default 3)
 * rounds each run every case for BENCH_SECONDS (default 3) after a 1 s warm-up, and each figure is the median
 * over the rounds; ratios compare those medians. Latencies are recorded per response here (sub-millisecond),
 * not from autocannon's whole-millisecond histogram.
 *
 * Environment: BENCH_SECONDS, BENCH_ROUNDS, REDIS_URL (default redis://127.0.0.1:6379), BENCH_CASES (comma list of case ids
 * to run: ceiling, blockchains, tokens, tokens-eth, routes, quotes, quotes-redis, routes-info), BENCH_CONNECTIONS (default "10,50"),
 * BENCH_CPU_PROF (a folder: service processes run with --cpu-prof there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { createApiKeyStore } from '../src/store/apiKeyStore.ts';
import { reportRows, type BenchRow, ms, num } from './lib/benchRows.ts';
import { describeMachine } from './lib/machine.ts';
import { BENCH_SERVER, lazyServer, runLoadCases, startService, type LoadCase } from './lib/loadCases.ts';
import { devnetQuoteBodies, quoteRequests } from './lib/quoteMix.ts';
import type { LoadResult } from './lib/runLoad.ts';
import { redisAnswers } from '../test/helpers/redis.ts';
import { startServer, type ServerProcess } from '../test/helpers/serverProcess.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const CASES = new Set((process.env.BENCH_CASES ?? 'ceiling,blockchains,tokens,tokens-eth,routes,quotes,quotes-redis,routes-info').split(','));
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

interface Case extends LoadCase {
  /** Connection counts this case runs at (default all). */
  connections?: number[];
  target?: (result: LoadResult, ratio: number) => { target: string; met: boolean };
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
const redisPrefix = `bench:${process.pid}:${randomBytes(4).toString('hex')}`;
const servers: Promise<ServerProcess>[] = [];
const serviceEnv = { DATA_DIR: dataDir, QUOTE_TTL_SECONDS: '600' };
const profileArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];

/** Starts a server on first use and reuses it across connection levels; stopped at the end. */
function server(start: () => Promise<ServerProcess>): () => Promise<ServerProcess> {
  return lazyServer(() => {
    const s = start();
    servers.push(s);
    return s;
  });
}

const bodies = devnetQuoteBodies();
let memoryKey = '';
let redisKey = '';
const redisUp = CASES.has('quotes-redis') && (await redisAnswers(REDIS_URL));

const bare = server(() => startServer({ entry: 'bench/lib/bareKoaServer.ts', ...BENCH_SERVER }));
const service = server(() => startService(serviceEnv, profileArgs));
const serviceInfo = server(() => startService({ ...serviceEnv, LOG_LEVEL: 'info' }));
const serviceRedis = server(() => startService({ ...serviceEnv, REDIS_URL, REDIS_KEY_PREFIX: redisPrefix }, profileArgs));

const cases: Case[] = [
  { id: 'ceiling', label: 'bare Koa POST (ceiling)', server: bare, requests: () => quoteRequests('/echo', bodies) },
  { id: 'blockchains', label: 'GET /blockchains', server: service, requests: () => [{ method: 'GET', path: '/blockchains' }] },
  { id: 'tokens', label: 'GET /blockchains/tokens', server: service, requests: () => [{ method: 'GET', path: '/blockchains/tokens' }] },
  { id: 'tokens-eth', label: 'GET /blockchains/tokens?chainId=1', server: service, requests: () => [{ method: 'GET', path: '/blockchains/tokens?chainId=1' }] },
  {
    id: 'routes',
    label: 'POST /quotes/routes',
    server: service,
    requests: () => quoteRequests('/quotes/routes', bodies),
    target: (r, ratio) => ({ target: '>= 50%, p99 <= 20 ms at c=50', met: ratio >= 0.5 && r.p99 <= 20 }),
  },
  { id: 'quotes', label: 'POST /quotes (memory store)', server: service, requests: () => quoteRequests('/quotes', bodies, { 'x-api-key': memoryKey }) },
  {
    id: 'quotes-redis',
    label: 'POST /quotes (Redis)',
    server: serviceRedis,
    requests: () => quoteRequests('/quotes', bodies, { 'x-api-key': redisKey }),
    target: (_r, ratio) => ({ target: '>= 35% at c=50', met: ratio >= 0.35 }),
  },
  { id: 'routes-info', label: 'POST /quotes/routes, LOG_LEVEL=info', server: serviceInfo, requests: () => quoteRequests('/quotes/routes', bodies), connections: [50] },
];

const rows: BenchRow[] = [];
try {
  memoryKey = (await createApiKeyStore({ redisUrl: undefined, dataDir }).create('bench')).key;
  if (redisUp) {
    const keys = createApiKeyStore({ redisUrl: REDIS_URL, dataDir, redisKeyPrefix: redisPrefix });
    redisKey = (await keys.create('bench')).key;
    await keys.close();
  }
  process.stdout.write(`machine: ${describeMachine()}\nload: autocannon on loopback, ${ROUNDS} interleaved rounds of ${SECONDS} s per case after 1 s warm-up; medians\n`);
  for (const connections of CONNECTIONS) {
    const active = cases.filter((c) => CASES.has(c.id) && (!c.connections || c.connections.includes(connections)));
    const runs = await runLoadCases(active.filter((c) => c.id !== 'quotes-redis' || redisUp), { connections, rounds: ROUNDS, seconds: SECONDS });
    const ceiling = runs.get('ceiling')?.median;
    for (const c of active) {
      const name = `${c.label} c=${connections}`;
      const run = runs.get(c.id);
      if (!run) {
        rows.push({ part: 'http', case: name, result: `not measured: no Redis answers at ${REDIS_URL}`, ratio: '', target: c.target && connections === 50 ? '>= 35% at c=50' : '', met: c.target && connections === 50 ? false : null });
        continue;
      }
      const result = run.median;
      const ratio = ceiling ? result.rps / ceiling.rps : Number.NaN;
      const judged = c.target && connections === 50 ? c.target(result, ratio) : undefined;
      const failed = result.failures > 0 ? `, ${result.failures} failed (${result.failureCodes})` : '';
      rows.push({
        part: 'http',
        case: name,
        result: `${num(result.rps)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}${failed}`,
        ratio: c.id === 'ceiling' ? '100%' : Number.isNaN(ratio) ? '' : `${(ratio * 100).toFixed(0)}% of ceiling`,
        target: judged?.target ?? '',
        met: judged ? judged.met && result.failures === 0 : null,
      });
      process.stdout.write(`  ${name}: ${rows[rows.length - 1].result} ${rows[rows.length - 1].ratio} [rounds: ${run.rounds.map((r) => num(r.rps)).join(', ')}]\n`);
    }
  }
} finally {
  for (const s of servers) await (await s.catch(() => undefined))?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (redisUp) {
    const client = createClient({ url: REDIS_URL });
    client.on('error', () => undefined);
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${redisPrefix}*`, COUNT: 1000 })) if (keys.length) await client.unlink(keys);
    client.destroy();
  }
}
reportRows(rows);
