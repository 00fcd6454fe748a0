import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** Every JSON log line printed so far. */
  readonly logs: Array<Record<string, unknown>>;
  /** Resolves with the first log line matching, waiting up to timeoutMs. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts the real service (`node --import tsx src/index.ts`) on a free port and waits until it listens. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const port = await freePort();
  const baseEnv = { ...process.env };
  delete baseEnv.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: projectRoot,
    env: { ...baseEnv, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', WORKER_THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }> = [];
  let buffer = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      logs.push(line);
      for (const w of [...waiters]) if (w.match(line)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(line); }
    }
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog = (match: (line: Record<string, unknown>) => boolean, timeoutMs = 20_000) => {
    const found = logs.find(match);
    if (found) return Promise.resolve(found);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching log line in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
      waiters.push({ match, resolve: (l) => { clearTimeout(timer); resolve(l); } });
      void exited.then((code) => { clearTimeout(timer); reject(new Error(`server exited (${code}) before the log line; stderr: ${stderr.slice(-2000)}`)); });
    });
  };
  await waitForLog((l) => l.msg === 'listening');
  return {
    child,
    port,
    logs,
    waitForLog,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
