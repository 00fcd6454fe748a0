/**
 * The HTTP benchmarks' method (bench/http.ts, bench/routing.ts): servers in their own processes, every request of
 * a case checked to answer 2xx, then interleaved rounds (each round runs every case once, so load from other jobs
 * on the shared VM hits them alike) and the median of each figure over the rounds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot as ROOT, type ServerProcess, startServer } from '../../test/helpers/serverProcess.ts';
import { expectedStatus, type LoadRequest, type LoadResult, runLoad } from './runLoad.ts';

/** One load case: where it goes and what it sends. */
export interface LoadCase {
  readonly id: string;
  readonly label: string;
  readonly server: () => Promise<ServerProcess>;
  readonly requests: () => LoadRequest[];
  /** The status every answer must have (default: any 2xx). */
  readonly status?: number;
}

/** What the rounds of one case measured at one connection level. */
export interface CaseResult {
  /** Median of each figure over the rounds; failures summed. */
  readonly median: LoadResult;
  readonly rounds: readonly LoadResult[];
}

/** Bench servers: ready when /healthz answers (spawn-to-ready is measured that way); only the output's tail is kept, nothing parsed. */
export const BENCH_SERVER = { readyPath: '/healthz', output: 'tail' } as const;

/**
 * The service as operators run it (`node --import ./src/loader/register.js src/index.ts`) on the shipped devnet files, LOG_LEVEL=warn, no
 * Redis; env overrides. `root`: another checkout of the project to run (an earlier commit, for same-run comparisons).
 */
export function startService(env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = [], root = ROOT): Promise<ServerProcess> {
  return startServer({
    entry: 'src/index.ts',
    root,
    env: { SNAPSHOT_DIR: join(root, 'seeds/snapshots'), CATALOG_DIR: join(root, 'catalog'), LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    nodeArgs,
    ...BENCH_SERVER,
  });
}

/** Memoises a server start: started on first use, reused by every case and connection level. */
export function lazyServer(start: () => Promise<ServerProcess>): () => Promise<ServerProcess> {
  let server: Promise<ServerProcess> | undefined;
  return () => (server ??= start());
}

/**
 * Sends requests of a case once and insists on the expected status (default 2xx), so the load run measures real
 * answers: all of them up to 100, else the first 100 and every 20th after (the load run counts any other answer as a
 * failure too).
 */
export async function checkRequests(url: string, requests: readonly LoadRequest[], status?: number): Promise<void> {
  for (const [i, r] of requests.entries()) {
    if (i >= 100 && i % 20 !== 0) continue;
    const res = await fetch(url + r.path, {
      method: r.method,
      body: r.body,
      headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers },
    });
    const text = await res.text();
    if (!expectedStatus(res.status, status))
      throw new Error(`${r.method} ${r.path} ${r.body ?? ''} -> ${res.status} ${text.slice(0, 300)}`);
  }
}

/** User + system CPU time (ms) in a /proc stat file (clock ticks of 10 ms); NaN where /proc is not available. */
function statCpuMs(file: string): number {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (user + system, ms) the main thread of a process has used: the API thread of a service, without its
 * pricing workers (/proc/<pid>/task/<pid>/stat, clock ticks of 10 ms). NaN where /proc is not available.
 * Per response it is the request's cost in the API thread, which contention from other jobs on the VM moves far
 * less than throughput.
 */
export function threadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/** CPU time (ms) of the whole process, every thread (API thread, pricing workers, GC and I/O threads): /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of each figure over the rounds; failures are summed. */
export function medianResult(list: readonly LoadResult[]): LoadResult {
  return {
    connections: list[0].connections,
    rps: median(list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    ...(list.every((r) => r.apiCpuUs !== undefined) ? { apiCpuUs: median(list.map((r) => r.apiCpuUs!)) } : {}),
    ...(list.every((r) => r.processCpuUs !== undefined) ? { processCpuUs: median(list.map((r) => r.processCpuUs!)) } : {}),
    responses: list.reduce((n, r) => n + r.responses, 0),
    failures: list.reduce((n, r) => n + r.failures, 0),
    failureCodes: list
      .map((r) => r.failureCodes)
      .filter(Boolean)
      .join(' '),
    seconds: list.reduce((n, r) => n + r.seconds, 0),
  };
}

/**
 * Runs the cases at one connection level: checks each case's requests, then `rounds` interleaved rounds of
 * `seconds` each (after runLoad's warm-up). Results by case id.
 */
export async function runLoadCases(
  cases: readonly LoadCase[],
  options: { connections: number; rounds: number; seconds: number },
): Promise<Map<string, CaseResult>> {
  for (const c of cases) await checkRequests((await c.server()).url, c.requests(), c.status);
  const runs = new Map<string, LoadResult[]>(cases.map((c) => [c.id, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const c of cases) {
      const s = await c.server();
      const load = { url: s.url, requests: c.requests(), connections: options.connections, status: c.status };
      await runLoad({ ...load, seconds: 1, warmupSeconds: 0 });
      const cpuBefore = threadCpuMs(s.pid);
      const processBefore = processCpuMs(s.pid);
      const result = await runLoad({ ...load, seconds: options.seconds, warmupSeconds: 0 });
      const cpuMs = threadCpuMs(s.pid) - cpuBefore;
      const processMs = processCpuMs(s.pid) - processBefore;
      const perResponse = (ms: number): number => (ms * 1000) / Math.max(1, result.responses + result.failures);
      runs.get(c.id)!.push({
        ...result,
        ...(Number.isNaN(cpuMs) ? {} : { apiCpuUs: perResponse(cpuMs) }),
        ...(Number.isNaN(processMs) ? {} : { processCpuUs: perResponse(processMs) }),
      });
    }
  }
  return new Map(cases.map((c) => [c.id, { median: medianResult(runs.get(c.id)!), rounds: runs.get(c.id)! }]));
}
