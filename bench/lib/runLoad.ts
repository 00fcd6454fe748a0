import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { LatencyRecorder } from './percentiles.ts';

/** One request autocannon cycles through (each connection walks the list in order). */
export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface LoadOptions {
  readonly url: string;
  readonly requests: readonly LoadRequest[];
  readonly connections: number;
  /** Measured seconds. */
  readonly seconds: number;
  /** Unmeasured warm-up seconds before (default 1). */
  readonly warmupSeconds?: number;
  /** The status every answer must have to count (default: any 2xx); any other is a failure. */
  readonly status?: number;
}

/** Whether an answer has the status a load run counts (see LoadOptions.status). */
export function expectedStatus(statusCode: number, status: number | undefined): boolean {
  return status === undefined ? statusCode >= 200 && statusCode < 300 : statusCode === status;
}

/** What one load run measured: per-response latencies recorded by us (sub-millisecond), not autocannon's histogram. */
export interface LoadResult {
  readonly connections: number;
  /** Answers with the expected status (LoadOptions.status, default 2xx) per second over the measured window. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly responses: number;
  /** Answers with another status, plus socket errors and timeouts. */
  readonly failures: number;
  /** Status codes of the failures, for messages. */
  readonly failureCodes: string;
  readonly seconds: number;
  /** CPU time of the server's main (API) thread per response, µs, when measured (runLoadCases, Linux). */
  readonly apiCpuUs?: number;
  /** CPU time of the whole server process (every thread: pricing workers too) per response, µs, when measured. */
  readonly processCpuUs?: number;
}

interface AutocannonResult {
  errors: number;
  timeouts: number;
}
interface AutocannonInstance extends EventEmitter {
  stop(): void;
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => AutocannonInstance;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

function once(options: LoadOptions, seconds: number, record: boolean): Promise<LoadResult> {
  const latencies = new LatencyRecorder();
  let ok = 0;
  let bad = 0;
  const codes = new Map<number, number>();
  return new Promise((resolve, reject) => {
    // autocannon builds every connection's request buffers before it starts its clock (seconds with thousands of
    // bodies): the window is from its 'start' event, so that set-up is not counted as time under load.
    let started = performance.now();
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: seconds,
        pipelining: 1,
        timeout: 10,
        requests: options.requests.map((r) => ({
          method: r.method,
          path: r.path,
          body: r.body,
          headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers },
        })),
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = (performance.now() - started) / 1000;
        const [p50, p99] = latencies.percentiles([50, 99]);
        resolve({
          connections: options.connections,
          rps: ok / elapsed,
          p50,
          p99,
          responses: ok + bad,
          failures: bad + result.errors + result.timeouts,
          failureCodes: [...codes].map(([c, n]) => `${c}x${n}`).join(' '),
          seconds: elapsed,
        });
      },
    );
    instance.on('start', () => {
      started = performance.now();
    });
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (expectedStatus(statusCode, options.status)) {
        ok++;
        if (record) latencies.add(responseTime);
      } else {
        bad++;
        codes.set(statusCode, (codes.get(statusCode) ?? 0) + 1);
      }
    });
  });
}

/** Drives load on loopback for a bounded time after a warm-up; records every response's latency itself. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const warm = options.warmupSeconds ?? 1;
  if (warm > 0) await once(options, warm, false);
  return once(options, options.seconds, true);
}
