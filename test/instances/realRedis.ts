import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { createClient } from '@keyv/redis';

/** The Redis the tests share: REDIS_URL, else the default local port. */
export const sharedRedisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A key prefix no other run uses. */
export function uniquePrefix(label: string): string {
  return `test-${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Whether a Redis server answers PING at the URL (raw socket, no client library). */
export function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname || '127.0.0.1');
    const done = (ok: boolean) => {
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
 * Undefined when the shared Redis answers; otherwise the reason to skip. Under CI=true a missing
 * Redis is a failure (recorded on `t`), never a silent skip.
 */
export async function sharedRedisMissing(t: { fail(message: string): unknown }): Promise<string | undefined> {
  if (await redisAnswers(sharedRedisUrl)) return undefined;
  const reason = `no Redis answers at ${sharedRedisUrl} (set REDIS_URL)`;
  if (process.env.CI === 'true') t.fail(`${reason}; CI=true requires a real Redis`);
  return reason;
}

/** Deletes every key starting with the prefix. */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length > 0) await client.unlink(keys);
  } finally {
    client.destroy();
  }
}

/** The keys starting with the prefix, sorted, each with its remaining TTL in ms. */
export async function keysWithTtl(url: string, prefix: string): Promise<Array<[string, number, string | null]>> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const out: Array<[string, number, string | null]> = [];
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      for (const key of keys) out.push([key, await client.pTTL(key), await client.get(key)]);
    }
    return out.sort(([a], [b]) => (a < b ? -1 : 1));
  } finally {
    client.destroy();
  }
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Path of redis-server, or undefined. */
export function redisServerBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : undefined;
}

/** A redis-server this test starts on its own port (no persistence), and can kill and restart. */
export class OwnRedis {
  #child: ChildProcess | undefined;
  constructor(
    readonly binary: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server and waits until it answers PING (10 s bound). */
  async start(): Promise<void> {
    const child = spawn(this.binary, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
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

  /** SIGKILL (no goodbye to clients), then waits for the exit. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
