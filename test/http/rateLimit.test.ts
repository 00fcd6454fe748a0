import { pino } from 'pino';
import t from 'tap';
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from '../../src/http/rateLimit.ts';
import { createWarmUpToken, WARM_UP_HEADER } from '../../src/http/warmUpRequests.ts';
import { freePort } from '../helpers/freePort.ts';
import { keysWithTtl, OwnRedisServer, redisServerOrSkip, sharedRedisPrefix, sharedRedisUrl, uniquePrefix } from '../helpers/redis.ts';
import { buildStubQuoteApp, fixtureQuoteRequest as ROUTE_BODY } from '../helpers/stubQuoteApp.ts';

// A fixed instant 15.5 s into a 60 s window aligned to the epoch: 16666667 x 60000 ms + 15500 ms.
const WINDOW_START = 16_666_667 * 60_000;
const NOW = WINDOW_START + 15_500;

t.test('memory store: counts per bucket in fixed epoch-aligned windows', async (t) => {
  let now = NOW;
  const store = createMemoryRateLimitStore(() => now);
  t.same(await store.hit('ip:a', 60_000), { count: 1, resetMs: 44_500 });
  t.same(await store.hit('ip:a', 60_000), { count: 2, resetMs: 44_500 });
  t.same(await store.hit('ip:b', 60_000), { count: 1, resetMs: 44_500 });
  now = WINDOW_START + 59_999;
  t.same(await store.hit('ip:a', 60_000), { count: 3, resetMs: 1 });
  now = WINDOW_START + 60_000;
  t.same(await store.hit('ip:a', 60_000), { count: 1, resetMs: 60_000 }, 'a new window starts from zero');
});

const LIMITS = { RATE_LIMIT_WINDOW_SECONDS: '60', TRUST_PROXY: 'true' };

t.test(
  'per-IP limit: the fourth request in the window is a 429 envelope with Retry-After; other IPs and probes are not limited',
  async (t) => {
    const s = await buildStubQuoteApp({
      env: { ...LIMITS, RATE_LIMIT_PER_IP: '3' },
      rateLimitStore: createMemoryRateLimitStore(() => NOW),
    });
    t.teardown(() => s.close());
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    for (const remaining of ['2', '1', '0']) {
      const res = await s.request('GET', '/blockchains', from('203.0.113.7'));
      t.equal(res.status, 200);
      t.same([res.headers['ratelimit-limit'], res.headers['ratelimit-remaining'], res.headers['ratelimit-reset']], ['3', remaining, '45']);
    }
    const refused = await s.request('POST', '/quotes/routes', { ...from('203.0.113.7'), body: ROUTE_BODY });
    t.equal(refused.status, 429);
    t.equal(refused.headers['retry-after'], '45');
    t.same(refused.body, { code: 429, message: 'rate limit exceeded: 3 requests per 60 s for this client address; retry in 45 s' });
    t.equal(s.pricer.tasks, 0, 'a refused request is not priced');
    t.equal((await s.request('GET', '/blockchains', from('203.0.113.8'))).status, 200, 'another address has its own count');
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const res = await s.request('GET', path, from('203.0.113.7'));
      t.equal(res.status, 200, `${path} is never limited`);
      t.equal(res.headers['ratelimit-limit'], undefined);
    }
  },
);

t.test("the process's own warm-up requests (its token in x-warm-up) are neither limited nor counted; a wrong token is", async (t) => {
  const token = createWarmUpToken();
  t.match(token, /^[0-9a-f]{32}$/);
  const store = createMemoryRateLimitStore(() => NOW);
  const s = await buildStubQuoteApp({ env: { ...LIMITS, RATE_LIMIT_PER_IP: '1' }, rateLimitStore: store, warmUpToken: token });
  t.teardown(() => s.close());
  const from = { 'x-forwarded-for': '203.0.113.9' };
  for (let i = 0; i < 3; i++) {
    const res = await s.request('GET', '/blockchains', { headers: { ...from, [WARM_UP_HEADER]: token } });
    t.equal(res.status, 200, `warm-up request ${i + 1}: 200`);
    t.equal(res.headers['ratelimit-limit'], undefined, 'not counted (no RateLimit headers)');
  }
  t.equal((await s.request('GET', '/blockchains', { headers: from })).status, 200, "the address's one request is still free");
  const wrong = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
  t.equal((await s.request('GET', '/blockchains', { headers: { ...from, [WARM_UP_HEADER]: wrong } })).status, 429, 'a wrong token counts');
  t.same(await store.hit('ip:203.0.113.9', 60_000), { count: 3, resetMs: 44_500 }, 'two counted requests before this hit');
});

t.test('without TRUST_PROXY, X-Forwarded-For is ignored: every request counts against the socket address', async (t) => {
  const s = await buildStubQuoteApp({ env: { RATE_LIMIT_PER_IP: '2' }, rateLimitStore: createMemoryRateLimitStore(() => NOW) });
  t.teardown(() => s.close());
  const statuses: number[] = [];
  for (const ip of ['1.1.1.1', '2.2.2.2', '3.3.3.3'])
    statuses.push((await s.request('GET', '/blockchains', { headers: { 'x-forwarded-for': ip } })).status);
  t.same(statuses, [200, 200, 429]);
});

t.test('per-key limit: a valid key has its own count whatever its address; requests without a valid key count per IP', async (t) => {
  const s = await buildStubQuoteApp({
    env: { ...LIMITS, RATE_LIMIT_PER_KEY: '2', RATE_LIMIT_PER_IP: '3' },
    rateLimitStore: createMemoryRateLimitStore(() => NOW),
  });
  t.teardown(() => s.close());
  const keyed = (ip: string) => ({ headers: { authorization: `Bearer ${s.apiKey}`, 'x-forwarded-for': ip } });
  const first = await s.request('POST', '/quotes', { ...keyed('198.51.100.1'), body: ROUTE_BODY });
  t.equal(first.status, 200);
  t.equal(first.headers['ratelimit-limit'], '2');
  t.equal(
    (await s.request('GET', '/blockchains', { headers: { 'x-api-key': s.apiKey, 'x-forwarded-for': '198.51.100.2' } })).status,
    200,
    'X-API-Key counts against the same key',
  );
  const refused = await s.request('POST', '/quotes', { ...keyed('198.51.100.3'), body: ROUTE_BODY });
  t.equal(refused.status, 429);
  t.equal(refused.headers['retry-after'], '45');
  t.same(refused.body, { code: 429, message: 'rate limit exceeded: 2 requests per 60 s for this API key; retry in 45 s' });
  // The key's exhaustion does not touch the address's own count.
  t.equal((await s.request('GET', '/blockchains', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status, 200);
  // An invalid key counts against its address (it cannot open a fresh bucket per made-up key).
  const junk = (n: number) => ({ headers: { authorization: `Bearer sqk_${String(n).padStart(43, 'x')}`, 'x-forwarded-for': '192.0.2.9' } });
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await s.request('POST', '/quotes', { ...junk(i), body: ROUTE_BODY })).status);
  t.same(statuses, [401, 401, 401, 429]);
});

t.test('limits are off by default: no counting, no headers', async (t) => {
  const s = await buildStubQuoteApp();
  t.teardown(() => s.close());
  const answers = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const res = await s.request('GET', '/blockchains/tokens');
    answers.add(`${res.status} ${res.headers['ratelimit-limit'] ?? 'no RateLimit-Limit'}`);
  }
  t.same([...answers], ['200 no RateLimit-Limit'], '50 requests, none limited or counted');
});

t.test('Redis store: instances sharing a Redis and a prefix share one count; the counter expires with its window', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'ratelimit');
  if (!prefix) return;
  const a = createRedisRateLimitStore(sharedRedisUrl, { keyPrefix: prefix, now: () => NOW });
  const b = createRedisRateLimitStore(sharedRedisUrl, { keyPrefix: prefix, now: () => NOW });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  await waitReady(a);
  await waitReady(b);
  t.same(await a.hit('ip:x', 60_000), { count: 1, resetMs: 44_500 });
  t.same(await b.hit('ip:x', 60_000), { count: 2, resetMs: 44_500 });
  t.same(await a.hit('ip:x', 60_000), { count: 3, resetMs: 44_500 });
  t.same(await b.hit('key:key_0123456789ab', 60_000), { count: 1, resetMs: 44_500 });
  const keys = (await keysWithTtl(sharedRedisUrl, prefix)).filter(([k]) => !k.includes(':probe:'));
  t.same(
    keys.map(([k, , v]) => [k, v]),
    [
      [`${prefix}:ratelimit:ip:x:16666667`, '3'],
      [`${prefix}:ratelimit:key:key_0123456789ab:16666667`, '1'],
    ],
  );
  for (const [key, ttl] of keys) t.ok(ttl > 44_000 && ttl <= 45_500, `${key} expires with its window (+1 s): ${ttl} ms`);
});

t.test(
  'Redis store fails open: with no Redis, or Redis killed mid-run, requests pass uncounted; counting resumes when it returns',
  async (t) => {
    const binary = redisServerOrSkip(t);
    if (!binary) return;
    const redis = new OwnRedisServer(binary, await freePort());
    const prefix = uniquePrefix('failopen');
    const store = createRedisRateLimitStore(redis.url, { keyPrefix: prefix, logger: pino({ level: 'silent' }) });
    t.teardown(async () => {
      await store.close();
      await redis.kill();
    });
    const s = await buildStubQuoteApp({ env: { RATE_LIMIT_PER_IP: '2' }, rateLimitStore: store });
    t.teardown(() => s.close());

    // Nothing listens yet: every request passes, uncounted (no RateLimit headers), the store answering "no count".
    // (How fast that is belongs in bench/, not here.)
    const before = [];
    for (let i = 0; i < 5; i++) {
      const res = await s.request('GET', '/blockchains');
      before.push([res.status, res.headers['ratelimit-limit'] ?? 'uncounted']);
    }
    t.same(before, Array(5).fill([200, 'uncounted']), 'no Redis: requests are let through uncounted');
    t.equal(await store.hit('probe:down', 60_000), undefined, 'no Redis: the store fails open (no count)');

    await redis.start();
    await waitReady(store);
    const up = [];
    for (let i = 0; i < 3; i++) up.push((await s.request('GET', '/blockchains')).status);
    t.same(up, [200, 200, 429], 'Redis up: the limit applies');

    await redis.kill();
    const down = [];
    for (let i = 0; i < 3; i++) down.push((await s.request('GET', '/blockchains')).status);
    t.same(down, [200, 200, 200], 'Redis killed: requests pass again (fail open), never a 5xx');

    await redis.start();
    await waitReady(store);
    const back = [];
    for (let i = 0; i < 3; i++) back.push((await s.request('GET', '/blockchains')).status);
    t.same(back, [200, 200, 429], 'Redis back (empty, it kept no data): counting resumed without a restart');
  },
);

/** Waits until a Redis store counts (its connection is up), at most 10 s. */
async function waitReady(store: RateLimitStore): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await store.hit('probe:ready', 1000)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the rate-limit store did not connect to Redis within 10 s');
}
