import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './freePort.ts';

/** Repository root. */
export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

type LogLine = Record<string, unknown>;

/** A server running in its own process, as operators run it (`npm start`: `node --import ./src/loader/register.js <entry>`). */
export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Milliseconds from spawn until the server was ready. */
  readonly readyMs: number;
  /** Every JSON log line printed on stdout so far (empty with `output: 'tail'`). */
  readonly logs: readonly LogLine[];
  /** Resolves with the first log line matching, waiting up to timeoutMs (not with `output: 'tail'`). */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** What the process wrote to stdout and stderr so far (all of it, or the tail with `output: 'tail'`). */
  output(): string;
  /** Resident set size of the process, in bytes (from /proc; 0 where unavailable). */
  rss(): number;
  /** Peak resident set size (VmHWM), in bytes. */
  peakRss(): number;
  /** SIGTERM, then SIGKILL after `stopGraceMs` (SIGKILL at once when 0); resolves when the process has exited. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** Script path relative to the repository root (default 'src/index.ts'). */
  readonly entry?: string;
  /** Environment over process.env (PORT and HOST are set by startServer; an undefined value removes a variable). */
  readonly env?: NodeJS.ProcessEnv;
  /** Ready once this path answers 2xx; without it, ready once the server logs `readyLog`. */
  readonly readyPath?: string;
  /** The log message that means ready when there is no readyPath (default `listening`). */
  readonly readyLog?: string;
  /** Longest wait for readiness (default 60 s). */
  readonly timeoutMs?: number;
  /** Extra node flags placed before the loader's `--import` (e.g. '--cpu-prof'). */
  readonly nodeArgs?: readonly string[];
  /** Wait between SIGTERM and SIGKILL in stop() (default 5 s; 0: SIGKILL at once). */
  readonly stopGraceMs?: number;
  /**
   * 'all' (default): keep everything written and parse stdout's JSON log lines. 'tail': keep only
   * the last 8,000 characters and parse nothing, so that a benchmark's parent process stays cheap.
   */
  readonly output?: 'all' | 'tail';
  /** Checkout to run the entry from (default this repository; benchmarks run an earlier commit's worktree beside it). */
  readonly root?: string;
}

const TAIL_CHARS = 8_000;

/**
 * NODE_OPTIONS without the module hooks of tap's process tracking (@tapjs/processinfo), which tap puts in every test
 * process's NODE_OPTIONS: in a server process they cost about half a CPU-second of start-up (every module load
 * passes through them) and record nothing a test reads.
 */
export function withoutTapProcessInfo(nodeOptions: string | undefined): string | undefined {
  if (nodeOptions === undefined) return undefined;
  const kept = nodeOptions.replace(/"?--(?:import|loader|require)[= ]"?[^"\s]*@tapjs[\\/]processinfo[^"\s]*"?/g, '').trim();
  return kept === '' ? undefined : kept;
}

/**
 * The command that runs `node args` without tap's process tracking. Under tap, @tapjs/processinfo adds its hooks
 * to the NODE_OPTIONS of every process spawned (whatever env is given), so the command goes through env(1), which
 * sets NODE_OPTIONS for node itself (exec: same pid). Outside tap: node, unchanged.
 */
export function untrackedNode(args: readonly string[]): [string, string[]] {
  const options = process.env.NODE_OPTIONS;
  const kept = withoutTapProcessInfo(options);
  if (kept === options) return [process.execPath, [...args]];
  const set = kept === undefined ? ['-u', 'NODE_OPTIONS'] : [`NODE_OPTIONS=${kept}`];
  return ['/usr/bin/env', [...set, process.execPath, ...args]];
}

/** How `npm start` in checkout `root` loads TypeScript: its src/loader/register.js (commits before it ran under tsx, no longer installed). */
export function tsLoader(root: string): string {
  const loader = join(root, 'src', 'loader', 'register.js');
  if (!existsSync(loader))
    throw new Error(`${root} has no src/loader/register.js: a commit older than the project's TypeScript loader cannot be run`);
  return loader;
}

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts a server process on a free loopback port and waits until it is ready (see StartServerOptions). */
export async function startServer(options: StartServerOptions = {}): Promise<ServerProcess> {
  const entry = options.entry ?? 'src/index.ts';
  const timeoutMs = options.timeoutMs ?? 60_000;
  const keepAll = (options.output ?? 'all') === 'all';
  if (!keepAll && options.readyPath === undefined)
    throw new Error("startServer: output 'tail' needs a readyPath (no log lines are parsed)");
  const port = await freePort();
  const started = performance.now();
  const root = options.root ?? projectRoot;
  const [command, args] = untrackedNode([...(options.nodeArgs ?? []), '--import', tsLoader(root), join(root, entry)]);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;

  let text = '';
  const keep = (chunk: string): void => {
    text = keepAll ? text + chunk : (text + chunk).slice(-TAIL_CHARS);
  };
  const logs: LogLine[] = [];
  const waiters: Array<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    keep(chunk);
    if (!keepAll) return;
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const lineText = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      let line: LogLine;
      try {
        line = JSON.parse(lineText) as LogLine;
      } catch {
        continue;
      }
      logs.push(line);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', keep);
  const tail = (): string => text.slice(-2_000);

  const waitForLog = (match: (line: LogLine) => boolean, waitMs = 20_000): Promise<LogLine> => {
    if (!keepAll) return Promise.reject(new Error("waitForLog needs output 'all'"));
    const found = logs.find(match);
    if (found) return Promise.resolve(found);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching log line in ${waitMs} ms; output: ${tail()}`)), waitMs);
      waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}) before the log line; output: ${tail()}`));
      });
    });
  };

  const url = `http://127.0.0.1:${port}`;
  if (options.readyPath === undefined) {
    try {
      await waitForLog((l) => l.msg === (options.readyLog ?? 'listening'), timeoutMs);
    } catch (error) {
      if (!hasExited()) child.kill('SIGKILL');
      throw new Error(`${entry} not ready: ${(error as Error).message}`);
    }
  } else {
    const deadline = started + timeoutMs;
    for (;;) {
      if (hasExited()) throw new Error(`${entry} exited before it was ready:\n${tail()}`);
      try {
        const res = await fetch(url + options.readyPath);
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${entry} not ready after ${timeoutMs} ms:\n${tail()}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const readyMs = performance.now() - started;
  const pid = child.pid!;
  const graceMs = options.stopGraceMs ?? 5_000;
  return {
    child,
    url,
    port,
    pid,
    readyMs,
    logs,
    waitForLog,
    exited,
    output: () => text,
    rss: () => procStatus(pid, 'VmRSS'),
    peakRss: () => procStatus(pid, 'VmHWM'),
    async stop() {
      if (hasExited()) return;
      child.kill(graceMs === 0 ? 'SIGKILL' : 'SIGTERM');
      const timer = graceMs === 0 ? undefined : setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
