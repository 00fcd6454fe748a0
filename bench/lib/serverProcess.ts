import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');

/** A server running in its own process, as operators run it (`node --import tsx <entry>`). */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Milliseconds from spawn until the first successful readiness request. */
  readonly readyMs: number;
  /** Resident set size of the process, in bytes (from /proc; 0 where unavailable). */
  rss(): number;
  /** Peak resident set size (VmHWM), in bytes. */
  peakRss(): number;
  /** Lines the process wrote to stderr and stdout so far (the tail). */
  output(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process has exited. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Script path relative to the repository root, e.g. 'src/index.ts'. */
  readonly entry: string;
  /** Extra environment (PORT and HOST are set by this function). */
  readonly env?: Record<string, string | undefined>;
  /** Path answered with 2xx once the server is ready (default '/healthz'). */
  readonly readyPath?: string;
  /** Longest wait for readiness (default 60 s). */
  readonly timeoutMs?: number;
  /** Extra node flags placed before `--import tsx` (e.g. '--cpu-prof'). */
  readonly nodeArgs?: readonly string[];
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts a server process on a free loopback port and waits until it answers `readyPath`. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', join(ROOT, options.entry)], {
    cwd: ROOT,
    env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    resolve();
  }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = started + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`${options.entry} exited before it was ready:\n${tail}`);
    try {
      const res = await fetch(url + (options.readyPath ?? '/healthz'));
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.entry} not ready after ${options.timeoutMs ?? 60_000} ms:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - started;
  const pid = child.pid!;
  return {
    url,
    port,
    pid,
    readyMs,
    rss: () => procStatus(pid, 'VmRSS'),
    peakRss: () => procStatus(pid, 'VmHWM'),
    output: () => tail,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
