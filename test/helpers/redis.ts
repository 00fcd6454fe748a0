import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { createClient } from '@keyv/redis';
import type { Test } from 'tap';
import { freePort } from './freePort.ts';

/** The shared Redis the tests use: REDIS_URL, else the default local port. */
export const sharedRedisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** True under CI, where a missing Redis is a failure, never a skip. */
export const inCI = process.env.CI === 'true';

/** A key prefix no other run uses: `test:<label>:<pid>:<random>`. */
export function uniquePrefix(label: string): string {
  return `test:${label}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Whether a Redis server answers PING at the URL within the time (raw socket, no client library). */
export function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname || '127.0.0.1');
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(String(data).startsWith('+PONG')));
  });
}

/**
 * Undefined when the shared Redis answers; otherwise the reason to skip. Under CI=true an
 * unreachable Redis is a failure (recorded on `t`), never a silent skip.
 */
export async function sharedRedisMissing(t: { fail(message: string): unknown }): Promise<string | undefined> {
  if (await redisAnswers(sharedRedisUrl)) return undefined;
  const reason = `no Redis answers at ${sharedRedisUrl} (set REDIS_URL)`;
  if (inCI) t.fail(`${reason}; CI=true requires a real Redis`);
  return reason;
}

/**
 * A fresh key prefix on the shared Redis, deleted when `t` ends; undefined when no Redis answers
 * (then `t` records a skip, or under CI=true a failure, and the caller returns).
 */
export async function sharedRedisPrefix(t: Pick<Test, 'fail' | 'skip' | 'teardown'>, label: string): Promise<string | undefined> {
  const missing = await sharedRedisMissing(t);
  if (missing) {
    if (!inCI) t.skip(missing, () => undefined);
    return undefined;
  }
  const prefix = uniquePrefix(label);
  t.teardown(async () => {
    await deletePrefix(sharedRedisUrl, prefix);
  });
  return prefix;
}

/** Path of redis-server; undefined when it is not installed (then `t` records a skip, or under CI=true a failure). */
export function redisServerOrSkip(t: Pick<Test, 'fail' | 'skip'>): string | undefined {
  const binary = redisServerPath();
  if (!binary) {
    if (inCI) t.fail('redis-server is not installed; CI=true requires it');
    else t.skip('redis-server is not installed', () => undefined);
  }
  return binary;
}

function rawClient(url: string) {
  return createClient({ url });
}
export type RawRedisClient = ReturnType<typeof rawClient>;

/** Runs one function with a plain Redis client (the independent view of what the code under test wrote). */
export async function withRawClient<T>(url: string, use: (client: RawRedisClient) => Promise<T>): Promise<T> {
  const client = rawClient(url);
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

/** Deletes every key starting with the prefix (SCAN + UNLINK); returns how many were deleted. */
export function deletePrefix(url: string, prefix: string): Promise<number> {
  return withRawClient(url, async (client) => {
    let deleted = 0;
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) deleted += await client.unlink(keys);
    }
    return deleted;
  });
}

/** The keys starting with the prefix, sorted, each with its remaining TTL in ms and its string value. */
export function keysWithTtl(url: string, prefix: string): Promise<Array<[string, number, string | null]>> {
  return withRawClient(url, async (client) => {
    const out: Array<[string, number, string | null]> = [];
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      for (const key of keys) out.push([key, await client.pTTL(key), await client.get(key)]);
    }
    return out.sort(([a], [b]) => (a < b ? -1 : 1));
  });
}

/** Path of redis-server, or undefined when it is not installed. */
export function redisServerPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : undefined;
}

/** A redis-server a test starts itself, on its own port, without persistence; it can be killed, restarted and paused. */
export class OwnRedisServer {
  #child: ChildProcess | undefined;
  /** A server on the port, not started yet (see start()). */
  constructor(
    readonly binary: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts redis-server on the port (default: a free one) and waits until it answers PING. */
  static async start(binary: string, port?: number): Promise<OwnRedisServer> {
    const server = new OwnRedisServer(binary, port ?? (await freePort()));
    await server.start();
    return server;
  }

  /** (Re)starts the server on the same port and waits until it answers PING (10 s bound). */
  async start(): Promise<void> {
    if (this.#child) throw new Error('already running');
    const child = spawn(this.binary, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    this.#child = child;
    child.once('exit', () => {
      if (this.#child === child) this.#child = undefined;
    });
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(this.url, 200))) {
      if (Date.now() > deadline || !this.#child) throw new Error(`redis-server did not answer on port ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Kills the server (SIGKILL: no goodbye to clients) and waits for it to exit. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.#child = undefined;
  }

  /** Sends a signal (SIGSTOP / SIGCONT) to the running server. */
  signal(signal: NodeJS.Signals): void {
    this.#child?.kill(signal);
  }
}
