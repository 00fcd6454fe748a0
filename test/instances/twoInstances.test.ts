/**
 * Two real server processes (`node --import ./src/loader/register.js src/index.ts`) over one real Redis: a quote created
 * through one is read back through the other, and rate limits configured on both are enforced across
 * both (the counters live in Redis). Each run uses its own REDIS_KEY_PREFIX and DATA_DIR. Under
 * CI=true an unreachable Redis fails the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { keysWithTtl, sharedRedisPrefix, sharedRedisUrl } from '../helpers/redis.ts';
import { type ServerProcess, startServer } from '../helpers/serverProcess.ts';

const WINDOW_SECONDS = 3600;
const PER_KEY = 4;
const PER_IP = 6;

async function call(instance: ServerProcess, method: string, path: string, options: { key?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(instance.url + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: JSON.parse(text) as { code: number; message: string; data?: Record<string, unknown> },
  };
}

t.test('two server processes over one Redis share saved quotes and rate limits', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'instances');
  if (!prefix) return;
  // Fixed windows align to the epoch on every instance; do not start in a window's last 30 s.
  const leftMs = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
  if (leftMs < 30_000) await new Promise((resolve) => setTimeout(resolve, leftMs + 100));

  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-instances-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const keys = createApiKeyStore({ redisUrl: sharedRedisUrl, redisKeyPrefix: prefix, dataDir });
  const { key, record } = await keys.create('acme');
  await keys.close();

  const env = {
    REDIS_URL: sharedRedisUrl,
    REDIS_KEY_PREFIX: prefix,
    DATA_DIR: dataDir,
    WORKER_THREADS: '1',
    SNAPSHOT_WATCH: 'false',
    LOG_LEVEL: 'info',
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    RATE_LIMIT_PER_KEY: String(PER_KEY),
    RATE_LIMIT_PER_IP: String(PER_IP),
    TRUST_PROXY: 'false',
  };
  // Each is ready once it logs `listening`; stop() is SIGTERM, then SIGKILL after 15 s.
  const [a, b] = await Promise.all([startServer({ env, stopGraceMs: 15_000 }), startServer({ env, stopGraceMs: 15_000 })]);
  t.teardown(() => Promise.all([a.stop(), b.stop()]));

  // Devnet (chain 31337, shipped snapshot): 1 WETH for USDC.
  const request = {
    originChainId: 31337,
    destinationChainId: 31337,
    tokenIn: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    tokenOut: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    amount: '1',
    recipientAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  };
  const created = await call(a, 'POST', '/quotes', { key, body: request });
  t.equal(created.status, 200, `created through A: ${created.body.message}`);
  const quoteId = created.body.data!.quoteId as string;
  const readB = await call(b, 'GET', `/quotes/${quoteId}`, { key });
  t.equal(readB.status, 200, 'read back through B');
  t.same(readB.body, { code: 200, message: 'quote fetched successfully', data: created.body.data }, 'B returns exactly the quote A saved');

  // Per key: PER_KEY requests in the window, whichever instance serves them.
  const keyStatuses = [created.status, readB.status];
  keyStatuses.push((await call(a, 'GET', `/quotes/${quoteId}`, { key })).status);
  keyStatuses.push((await call(b, 'GET', `/quotes/${quoteId}`, { key })).status);
  const overA = await call(a, 'GET', `/quotes/${quoteId}`, { key });
  const overB = await call(b, 'POST', '/quotes', { key, body: request });
  keyStatuses.push(overA.status, overB.status);
  t.same(keyStatuses, [200, 200, 200, 200, 429, 429], `the key's ${PER_KEY} requests are shared by A and B`);
  for (const over of [overA, overB]) {
    const retryAfter = Number(over.headers.get('retry-after'));
    t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_SECONDS, `Retry-After ${retryAfter}`);
    t.equal(
      over.body.message,
      `rate limit exceeded: ${PER_KEY} requests per ${WINDOW_SECONDS} s for this API key; retry in ${retryAfter} s`,
    );
  }

  // Per IP (no key): PER_IP requests from this address across both instances, then 429 on either.
  const ipStatuses: number[] = [];
  for (let i = 0; i < PER_IP; i++) ipStatuses.push((await call(i % 2 === 0 ? a : b, 'GET', '/blockchains/tokens?chainId=31337')).status);
  ipStatuses.push((await call(a, 'GET', '/blockchains')).status, (await call(b, 'GET', '/blockchains/dex')).status);
  t.same(ipStatuses, [200, 200, 200, 200, 200, 200, 429, 429], `the address's ${PER_IP} requests are shared by A and B`);
  t.equal((await call(b, 'GET', '/healthz')).status, 200, 'probes are never limited');

  // The shared counters, as Redis holds them.
  const window = Math.floor(Date.now() / (WINDOW_SECONDS * 1000));
  const counters = (await keysWithTtl(sharedRedisUrl, `${prefix}:ratelimit:`)).map(([k, , v]) => [k, v]);
  t.same(counters, [
    [`${prefix}:ratelimit:ip:127.0.0.1:${window}`, String(PER_IP + 2)],
    [`${prefix}:ratelimit:key:${record.id}:${window}`, String(PER_KEY + 2)],
  ]);
  t.notMatch(a.output() + b.output(), key, 'the API key never appears in either log');
});
