/**
 * `npm run ts -- bench/threadCpu.ts`: where the CPU of one `POST /quotes/routes` goes, by thread, at steady state. The service
 * runs as bench:http runs it (bench/lib/loadCases.ts, LOG_LEVEL info); after BENCH_WARM seconds of load (default 20:
 * the JIT of the API thread and of the pricing worker settles only after some thousands of requests, and its compiler
 * threads are busy until then) BENCH_SECONDS (default 8) are measured at c=50, and each thread's user and system CPU
 * per response is printed (/proc/<pid>/task/<tid>/stat): the API (main) thread, the pricing worker(s), and V8's and
 * libuv's helper threads (the optimizing compiler, GC).
 *
 * The V8 CPU profiler (`--cpu-prof`, bench:http's BENCH_CPU_PROF) samples on a wall-clock timer: on a 2-core VM with the
 * load generator, the API thread and the worker competing, a thread's samples pile up where it was preempted (e.g. in
 * a socket write that woke the reader), so its shares are of wall time, not of CPU. BENCH_PERF=<file> records the
 * service with `perf record -g` (CPU clock) during the measured window instead; the service then runs with
 * `--perf-basic-prof` so JavaScript frames have names (`perf report -i <file> --tid <tid> --children --sort sym`).
 *
 * Environment: BENCH_WARM, BENCH_SECONDS, BENCH_ROUTING (`default`, or `single`: maxHops 1 / maxSplits 1),
 * BENCH_PERF, BENCH_NODE_ARGS (node and V8 flags for the service, space-separated, e.g. `--single-threaded-gc`), WORKER_THREADS (passed to the service), BENCH_PATH (`routes`, the default: `POST /quotes/routes`; or
 * `quotes`: `POST /quotes` saved in Redis at REDIS_URL, default redis://127.0.0.1:6379, under a key prefix of its own; or
 * `refused`: `POST /quotes/routes` refused by validation before any pricing, bench:http's routes-refused: the request path alone),
 * BENCH_GRAPH_DIR (a folder generateScale wrote, e.g. `npm run ts -- bench/writeScale.ts <dir> [detached]`: its catalogue and
 * snapshots served instead of the shipped devnet's).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKeyStore } from '../src/store/apiKeyStore.ts';
import { startService } from './lib/loadCases.ts';
import { quoteRequests, variedQuoteBodies } from './lib/quoteMix.ts';
import { runLoad } from './lib/runLoad.ts';

const WARM = Number(process.env.BENCH_WARM ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SINGLE = process.env.BENCH_ROUTING === 'single';
const PERF = process.env.BENCH_PERF;
const SAVED = process.env.BENCH_PATH === 'quotes';
const REFUSED = process.env.BENCH_PATH === 'refused';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

interface ThreadCpu {
  readonly tid: number;
  /** User and system CPU, ms. */
  readonly user: number;
  readonly system: number;
}

/** Every thread of a process with its CPU so far (clock ticks of 10 ms). */
function threads(pid: number): Map<number, ThreadCpu> {
  const all = new Map<number, ThreadCpu>();
  for (const name of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${name}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    all.set(Number(name), { tid: Number(name), user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 });
  }
  return all;
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-threads-'));
// BENCH_GRAPH_DIR: a generated graph's folders (bench/lib/generateScale.ts) served instead of the shipped devnet.
const graphDir = process.env.BENCH_GRAPH_DIR;
const env = {
  ...(graphDir ? { SNAPSHOT_DIR: join(graphDir, 'snapshots'), SHIPPED_SNAPSHOT_DIR: 'none', CATALOG_DIR: join(graphDir, 'catalog') } : {}),
  DATA_DIR: dataDir,
  QUOTE_TTL_SECONDS: '600',
  LOG_LEVEL: 'info',
  ...(process.env.WORKER_THREADS ? { WORKER_THREADS: process.env.WORKER_THREADS } : {}),
};
const redisPrefix = `bench:${process.pid}:${randomBytes(4).toString('hex')}`;
const redisEnv = SAVED ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {};
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
const service = await startService({ ...env, ...redisEnv }, [...(PERF ? ['--perf-basic-prof'] : []), ...nodeArgs]);
try {
  const limits = SINGLE ? { maxHops: 1, maxSplits: 1 } : {};
  // `refused`: bench:http's routes-refused bodies (a chain the catalogue does not have: 400 before any pricing).
  const bodies = variedQuoteBodies(200, { ...limits, maxPriceImpactBps: 10_000, ...(REFUSED ? { originChainId: 999 } : {}) });
  let requests = quoteRequests('/quotes/routes', bodies);
  if (SAVED) {
    const keys = createApiKeyStore({ redisUrl: REDIS_URL, dataDir, redisKeyPrefix: redisPrefix });
    requests = quoteRequests('/quotes', bodies, { 'x-api-key': (await keys.create('bench')).key });
    await keys.close();
  }
  const load = { url: service.url, requests, connections: 50, warmupSeconds: 0 };
  await runLoad({ ...load, seconds: WARM });
  // Its end is awaited after the load, which may end later than perf does: the promise is made at once.
  const perfDone = PERF
    ? new Promise((resolve) =>
        spawn('perf', ['record', '-F', '999', '-g', '-p', String(service.pid), '-o', PERF, '--', 'sleep', String(SECONDS)]).once(
          'exit',
          resolve,
        ),
      )
    : undefined;
  const before = threads(service.pid);
  const result = await runLoad({ ...load, seconds: SECONDS });
  const after = threads(service.pid);
  await perfDone;
  const n = Math.max(1, result.responses);
  process.stdout.write(
    `${SAVED ? 'POST /quotes (Redis)' : REFUSED ? 'POST /quotes/routes refused (400)' : 'POST /quotes/routes'}, ${SINGLE ? 'one-pool' : 'default'} routing, c=50, ${SECONDS} s after ${WARM} s of load: ${result.rps.toFixed(0)} req/s, ` +
      `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.failures} failed\n`,
  );
  const rows = [...after.values()]
    .map((t) => {
      const b = before.get(t.tid) ?? { user: 0, system: 0 };
      return { tid: t.tid, user: ((t.user - b.user) * 1000) / n, system: ((t.system - b.system) * 1000) / n };
    })
    .filter((r) => r.user + r.system > 0)
    .sort((a, b) => b.user + b.system - (a.user + a.system));
  let total = 0;
  for (const r of rows) {
    total += r.user + r.system;
    const role = r.tid === service.pid ? 'API thread' : 'thread';
    process.stdout.write(
      `  ${role.padEnd(10)} ${String(r.tid).padStart(7)}: user ${r.user.toFixed(0)} µs/req, system ${r.system.toFixed(0)} µs/req\n`,
    );
  }
  process.stdout.write(`  process: ${total.toFixed(0)} µs/req\n`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
