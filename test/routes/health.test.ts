import t from 'tap';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { LiveState } from '../../src/graph/liveState.ts';
import { createPricer } from '../../src/quote/Pricer.ts';
import { checkReadiness, type Readiness } from '../../src/routes/health.ts';
import { createQuoteStore } from '../../src/store/quoteStore.ts';
import { freePort } from '../helpers/freePort.ts';
import { buildStubQuoteApp } from '../helpers/stubQuoteApp.ts';
import { type Answer, buildTestApp, fixtureCatalogDir, fixtureSnapshotDir, request } from '../helpers/testApp.ts';

t.test('GET /healthz answers 200 {status: ok}', async (t) => {
  const { request } = buildTestApp();
  const res = await request('GET', '/healthz');
  t.same([res.status, res.body], [200, { code: 200, message: 'ok', data: { status: 'ok' } }]);
});

t.test('GET /readyz: catalogue only (no quote endpoints) checks the catalogue and snapshots', async (t) => {
  const { request } = buildTestApp();
  const res = await request('GET', '/readyz');
  t.same(
    [res.status, res.body],
    [
      200,
      { code: 200, message: 'ready', data: { status: 'ready', checks: { catalog: { ok: true, detail: '3 chains, 1 pool snapshots' } } } },
    ],
  );
});

t.test('GET /readyz: with the quote endpoints, also the pricer and both stores', async (t) => {
  const s = await buildStubQuoteApp();
  t.teardown(() => s.close());
  const res = await s.request('GET', '/readyz');
  t.same(
    [res.status, res.body],
    [
      200,
      {
        code: 200,
        message: 'ready',
        data: {
          status: 'ready',
          checks: {
            catalog: { ok: true, detail: '3 chains, 1 pool snapshots' },
            workers: { ok: true, detail: 'the pricer answered' },
            quoteStore: { ok: true, detail: 'quote store (memory) answers' },
            apiKeyStore: { ok: true, detail: 'API key store (file) answers' },
          },
        },
      },
    ],
  );
});

t.test('GET /readyz: 503 envelope naming each failing check (store unreachable, pricer failing or silent)', async (t) => {
  const port = await freePort(); // nothing listens there
  const store = createQuoteStore({ redisUrl: `redis://127.0.0.1:${port}`, quoteTtlSeconds: 60 }, { opTimeoutMs: 300 });
  t.teardown(() => store.close());
  const failing = {
    findTrades: async () => {
      throw new Error('worker gone');
    },
    findRoutes: async () => [],
    findQuote: async () => [],
    close: async () => undefined,
    queueSize: () => 0,
  };
  const s = await buildStubQuoteApp({ pricer: failing });
  t.teardown(() => s.close());
  // Same app, the quote store swapped for the unreachable Redis one.
  const app = createApp({ ...s.deps, quotes: { ...s.deps.quotes!, store } });
  const res = await request(app, 'GET', '/readyz');
  t.same(
    [res.status, res.body],
    [503, { code: 503, message: 'not ready: workers: worker gone; quoteStore: quote store (redis) is unreachable' }],
  );

  const silent = {
    findTrades: () => new Promise<never>(() => undefined),
    findRoutes: async () => [],
    findQuote: async () => [],
    close: async () => undefined,
    queueSize: () => 0,
  };
  const slow = await buildStubQuoteApp({ pricer: silent });
  t.teardown(() => slow.close());
  const readiness = await checkReadiness({ catalog: slow.catalog, graph: () => slow.graph, pricer: silent, timeoutMs: 100 });
  t.same(readiness, {
    status: 'not ready',
    checks: {
      catalog: { ok: true, detail: '3 chains, 1 pool snapshots' },
      workers: { ok: false, detail: 'the pricing workers did not answer within 100 ms' },
    },
  });
});

t.test('GET /readyz: not ready until the warm-up requests have answered', async (t) => {
  const { catalog, graph } = buildTestApp();
  let warmedUp = false;
  const deps = { catalog, graph: () => graph, warmedUp: () => warmedUp };
  t.same(await checkReadiness(deps), {
    status: 'not ready',
    checks: {
      catalog: { ok: true, detail: '3 chains, 1 pool snapshots' },
      warmUp: { ok: false, detail: 'warming up: the first requests have not answered yet' },
    },
  });
  warmedUp = true;
  t.same(await checkReadiness(deps), {
    status: 'ready',
    checks: {
      catalog: { ok: true, detail: '3 chains, 1 pool snapshots' },
      warmUp: { ok: true, detail: 'the warm-up requests answered' },
    },
  });
});

t.test('GET /readyz: a real worker pool answers the probe', async (t) => {
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '1', LOG_LEVEL: 'silent' });
  const pricer = createPricer(config); // no graph: every task goes to a worker thread
  t.teardown(() => pricer.close());
  // The thread starts first (loading and parsing take seconds when the suite loads the machine; /readyz rightly
  // answers 503 until then, within its 2 s bound): the check under test is the probe of a running worker.
  await pricer.probeWorkers();
  const res = await buildTestApp({ deps: { pricer } }).request<Answer<Readiness>>('GET', '/readyz');
  t.equal(res.status, 200);
  t.same(res.body.data.checks.workers, { ok: true, detail: 'a pricing worker answered' });
});

t.test('GET /readyz: answers are reused for a second, so probes cannot load the pricer', async (t) => {
  let calls = 0;
  const counting = {
    findTrades: async () => {
      calls += 1;
      return [];
    },
    findRoutes: async () => [],
    findQuote: async () => [],
    close: async () => undefined,
    queueSize: () => 0,
  };
  const s = await buildStubQuoteApp({ pricer: counting });
  t.teardown(() => s.close());
  for (let i = 0; i < 20; i++) await s.request('GET', '/readyz');
  t.equal(calls, 1);
});

t.test("GET /readyz: a followed chain's age is read at every answer, while the probes' answers are reused", async (t) => {
  let probes = 0;
  const pricer = {
    findTrades: async () => [],
    findRoutes: async () => [],
    findQuote: async () => [],
    probeWorkers: async () => {
      probes += 1;
    },
    close: async () => undefined,
    queueSize: () => 0,
  };
  // A chain at its head, last known current 5 s ago (MAX_STATE_AGE_SECONDS=3), then caught up (a follower restarted).
  let lastHeadAt = Date.now() - 5000;
  const liveState: LiveState = {
    maxAgeSeconds: 3,
    chains: () => [
      {
        status: { chainId: 31337, headBlock: 9, appliedBlock: 9, lastBlockAt: lastHeadAt, lastHeadAt, errors: 0 },
        counters: { blocks: 9, events: 0, reorgs: 0, rereads: 0, rpcRequests: 0 },
      },
    ],
  };
  const { request } = buildTestApp({ deps: { pricer, liveState } });
  const stale = await request<{ message: string }>('GET', '/readyz');
  t.equal(stale.status, 503);
  t.match(
    stale.body.message,
    /^not ready: liveState: chain 31337: block 9 of 9 \(0 behind\), current as of 5\.\d s ago: older than MAX_STATE_AGE_SECONDS=3$/,
  );
  lastHeadAt = Date.now();
  const fresh = await request<Answer<Readiness>>('GET', '/readyz');
  t.equal(fresh.status, 200, 'ready at once after the catch-up, within the second the probes are reused for');
  t.match(fresh.body.data.checks.liveState.detail, /^chain 31337: block 9 of 9 \(0 behind\), current as of 0\.\d s ago$/);
  t.equal(probes, 1, 'the pricing worker was probed once for both answers');
});
