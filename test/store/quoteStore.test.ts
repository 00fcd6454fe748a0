import KeyvRedis, { Keyv } from '@keyv/redis';
import t, { type Test } from 'tap';
import { ServiceUnavailableError } from '../../src/errors/BaseError.ts';
import { createQuoteStore, type QuoteStore } from '../../src/store/quoteStore.ts';
import { freePort } from '../helpers/freePort.ts';
import {
  deletePrefix,
  OwnRedisServer,
  redisServerOrSkip,
  sharedRedisPrefix,
  sharedRedisUrl,
  uniquePrefix,
  withRawClient,
} from '../helpers/redis.ts';

/**
 * A failing save/get must reject rather than hang. The store's own deadline is 1.5 s; the bound is
 * generous so that a loaded CI machine does not make it flaky: it checks "fails fast, never hangs",
 * not speed (speed is measured in bench/).
 */
const FAILURE_BOUND_MS = 10_000;

const quoteBody = (quoteId: string) => ({
  quoteId,
  status: 'pending',
  amountIn: '1000000000000000000',
  amountOut: '2995000000',
  steps: [{ type: 'approve', to: '0x1111111111111111111111111111111111111111', data: '0x095ea7b3' }],
  route: { dex: 'uniswap', fees: '3000000000000000' },
});

/** Runs `operation`, expecting a 503 ServiceUnavailableError with `message`; returns the elapsed ms. */
async function expect503(t: Test, operation: () => Promise<unknown>, message: string): Promise<number> {
  const started = performance.now();
  try {
    await operation();
    t.fail('expected a ServiceUnavailableError, the operation succeeded');
  } catch (error) {
    t.ok(error instanceof ServiceUnavailableError, `ServiceUnavailableError (got ${(error as Error).name})`);
    t.match(error, { status: 503, code: 'SERVICE_UNAVAILABLE', message, expose: true });
  }
  return performance.now() - started;
}

/** Retries `save` until it succeeds (the store reconnects on its own); returns the attempts made. */
async function saveUntilAccepted(store: QuoteStore, quoteId: string, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await store.save({ orgId: 'acme', quote: quoteBody(quoteId), json: JSON.stringify(quoteBody(quoteId)) });
      return attempt;
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

// The same behaviour is required of both back ends.
function behaviour(t: Test, make: (ttlSeconds: number) => QuoteStore) {
  t.test('save then get returns the same organization and quote', async (t) => {
    const store = make(86_400);
    t.teardown(() => store.close());
    await store.save({ orgId: 'acme', quote: quoteBody('q-1'), json: JSON.stringify(quoteBody('q-1')) });
    t.same(await store.get('q-1'), { orgId: 'acme', quote: quoteBody('q-1') });
    t.equal(await store.get('q-unknown'), undefined);
    t.equal(await store.ping(), true);
  });

  t.test('the request saved beside a quote reads back with it (POST /quotes/{id}/refresh prices it again)', async (t) => {
    const store = make(86_400);
    t.teardown(() => store.close());
    const request = { amount: '1.5', slippageBps: 'auto', note: 'ünïcode "quoted"' };
    const json = await store.save({ orgId: 'acme', quote: quoteBody('q-req'), json: JSON.stringify(quoteBody('q-req')), request });
    t.equal(json, JSON.stringify(quoteBody('q-req')), 'save returns the quote alone');
    t.strictSame(await store.get('q-req'), { orgId: 'acme', quote: quoteBody('q-req'), request });
  });

  t.test("a permit2 quote's held swap is saved beside it, never in its JSON, and reads back with it", async (t) => {
    const store = make(86_400);
    t.teardown(() => store.close());
    const request = { amount: '1.5', approvalMode: 'permit2' };
    const permit2Swap = { message: 'Swap 1.5 DAI for USDC on Uniswap V4', data: '0x3593564c', gasLimit: '250000' };
    const json = await store.save({
      orgId: 'acme',
      quote: quoteBody('q-held'),
      json: JSON.stringify(quoteBody('q-held')),
      request,
      permit2Swap,
    });
    t.equal(json, JSON.stringify(quoteBody('q-held')), 'save returns the quote alone');
    t.strictSame(await store.get('q-held'), { orgId: 'acme', quote: quoteBody('q-held'), request, permit2Swap });
  });

  t.test('ids that cannot have been saved read as undefined without touching the store', async (t) => {
    const store = make(86_400);
    t.teardown(() => store.close());
    for (const id of ['', '../etc/passwd', 'a b', 'x'.repeat(129), '*', 'q-1\r\nFLUSHALL'])
      t.equal(await store.get(id), undefined, JSON.stringify(id));
  });

  t.test('save refuses a quote without a usable quoteId or orgId (programming error, not a 503)', async (t) => {
    const store = make(86_400);
    t.teardown(() => store.close());
    await t.rejects(store.save({ orgId: 'acme', quote: { amountIn: '1' }, json: JSON.stringify({ amountIn: '1' }) }), TypeError);
    await t.rejects(store.save({ orgId: 'acme', quote: { quoteId: 42 }, json: JSON.stringify({ quoteId: 42 }) }), TypeError);
    await t.rejects(store.save({ orgId: '', quote: quoteBody('q-2'), json: JSON.stringify(quoteBody('q-2')) }), TypeError);
  });

  t.test('a quote is gone once its TTL has passed', async (t) => {
    const store = make(1);
    t.teardown(() => store.close());
    await store.save({ orgId: 'acme', quote: quoteBody('q-ttl'), json: JSON.stringify(quoteBody('q-ttl')) });
    t.same(await store.get('q-ttl'), { orgId: 'acme', quote: quoteBody('q-ttl') });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    t.equal(await store.get('q-ttl'), undefined);
  });

  t.test('after close, save and get reject with 503 and ping is false', async (t) => {
    const store = make(86_400);
    await store.close();
    await expect503(
      t,
      () => store.save({ orgId: 'acme', quote: quoteBody('q-closed'), json: JSON.stringify(quoteBody('q-closed')) }),
      'quote store unavailable: the quote was not saved',
    );
    await expect503(t, () => store.get('q-closed'), 'quote store unavailable: the quote could not be read');
    t.equal(await store.ping(), false);
  });
}

t.test('memory store', async (t) => {
  const make = (ttl: number) => createQuoteStore({ redisUrl: undefined, quoteTtlSeconds: ttl });
  const probe = make(1);
  t.equal(probe.kind, 'memory');
  await probe.close();
  behaviour(t, make);
});

t.test('Redis store (shared server)', async (t) => {
  const namespace = await sharedRedisPrefix(t, 'quote');
  if (!namespace) return;
  const make = (ttl: number) => createQuoteStore({ redisUrl: sharedRedisUrl, quoteTtlSeconds: ttl }, { namespace });
  const probe = make(1);
  t.equal(probe.kind, 'redis');
  await probe.close();
  behaviour(t, make);

  t.test('the quote is stored under <namespace>::<quoteId> with the configured TTL (read with a plain client)', async (t) => {
    const store = make(86_400);
    t.teardown(() => store.close());
    await store.save({ orgId: 'acme', quote: quoteBody('q-layout'), json: JSON.stringify(quoteBody('q-layout')) });
    const { exists, pttl } = await withRawClient(sharedRedisUrl, async (client) => ({
      exists: await client.exists(`${namespace}::q-layout`),
      pttl: await client.pTTL(`${namespace}::q-layout`),
    }));
    t.equal(exists, 1);
    t.ok(pttl > 86_400_000 - 60_000 && pttl <= 86_400_000, `PTTL ${pttl} ms is the 24 h TTL`);
  });

  t.test('the entry is byte for byte what Keyv itself writes for { orgId, quote }, and each reads the other’s', async (t) => {
    const store = make(86_400);
    const keyv = new Keyv(new KeyvRedis(sharedRedisUrl, { namespace }), { namespace, useKeyPrefix: false, ttl: 86_400_000 });
    t.teardown(async () => {
      await store.close();
      await keyv.disconnect();
    });
    const quote = { ...quoteBody('q-bytes'), note: 'ünïcode "quoted" \\ </script>', nested: { list: [1, null, true] } };
    const json = await store.save({ orgId: 'acme "inc"', quote, json: JSON.stringify(quote) });
    t.equal(json, JSON.stringify(quote), 'save returns the quote as JSON text');
    await keyv.set('q-keyv', { orgId: 'acme "inc"', quote: { ...quote, quoteId: 'q-keyv' } });
    const [ours, theirs] = await withRawClient(sharedRedisUrl, (client) =>
      Promise.all([client.get(`${namespace}::q-bytes`), client.get(`${namespace}::q-keyv`)]),
    );
    const expiresOf = (raw: string | null) => Number(/,"expires":(\d+)\}$/.exec(raw ?? '')?.[1]);
    t.ok(Math.abs(expiresOf(ours) - expiresOf(theirs)) < 60_000, 'both expire in 24 h');
    t.equal(ours, theirs!.replace('"q-keyv"', '"q-bytes"').replace(/,"expires":\d+\}$/, `,"expires":${expiresOf(ours)}}`));
    t.same(await store.get('q-keyv'), { orgId: 'acme "inc"', quote: { ...quote, quoteId: 'q-keyv' } }, 'a quote Keyv wrote reads back');
    t.same(await keyv.get('q-bytes'), { orgId: 'acme "inc"', quote }, 'Keyv reads the entry the store wrote');
    const request = { amount: '1', slippageBps: 'auto' };
    await store.save({ orgId: 'acme', quote: quoteBody('q-bytes-req'), json: JSON.stringify(quoteBody('q-bytes-req')), request });
    await keyv.set('q-keyv-req', { orgId: 'acme', quote: quoteBody('q-bytes-req'), request });
    const [withRequest, keyvWithRequest] = await withRawClient(sharedRedisUrl, (client) =>
      Promise.all([client.get(`${namespace}::q-bytes-req`), client.get(`${namespace}::q-keyv-req`)]),
    );
    t.equal(
      withRequest?.replace(/,"expires":\d+\}$/, ''),
      keyvWithRequest?.replace(/,"expires":\d+\}$/, ''),
      'with a request: the same bytes as Keyv writes for { orgId, quote, request }',
    );
  });

  t.test('two stores over one Redis (two instances) read each other’s quotes', async (t) => {
    const a = make(86_400);
    const b = make(86_400);
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    await a.save({ orgId: 'acme', quote: quoteBody('q-shared'), json: JSON.stringify(quoteBody('q-shared')) });
    t.same(await b.get('q-shared'), { orgId: 'acme', quote: quoteBody('q-shared') });
  });

  t.test('the default namespace follows config.redisKeyPrefix', async (t) => {
    const prefix = uniquePrefix('prefix');
    const store = createQuoteStore({ redisUrl: sharedRedisUrl, quoteTtlSeconds: 60, redisKeyPrefix: prefix });
    t.teardown(async () => {
      await store.close();
      await deletePrefix(sharedRedisUrl, prefix);
    });
    await store.save({ orgId: 'acme', quote: quoteBody('q-prefix'), json: JSON.stringify(quoteBody('q-prefix')) });
    t.equal(await withRawClient(sharedRedisUrl, (client) => client.exists(`${prefix}:quote::q-prefix`)), 1);
  });
});

t.test('Redis failure: a redis-server this test starts, kills and restarts', async (t) => {
  const binary = redisServerOrSkip(t);
  if (!binary) return;

  t.test('killed while the store runs: save and get reject with 503 within the bound; saving resumes after restart', async (t) => {
    const server = await OwnRedisServer.start(binary);
    t.teardown(() => server.kill());
    const store = createQuoteStore({ redisUrl: server.url, quoteTtlSeconds: 3600 }, { namespace: 'failover' });
    t.teardown(() => store.close());

    await store.save({ orgId: 'acme', quote: quoteBody('q-before'), json: JSON.stringify(quoteBody('q-before')) });
    t.same(await store.get('q-before'), { orgId: 'acme', quote: quoteBody('q-before') });

    await server.kill();
    const saveMs = await expect503(
      t,
      () => store.save({ orgId: 'acme', quote: quoteBody('q-during'), json: JSON.stringify(quoteBody('q-during')) }),
      'quote store unavailable: the quote was not saved',
    );
    t.ok(saveMs < FAILURE_BOUND_MS, `save rejected in ${saveMs.toFixed(0)} ms (< ${FAILURE_BOUND_MS})`);
    const getMs = await expect503(t, () => store.get('q-before'), 'quote store unavailable: the quote could not be read');
    t.ok(getMs < FAILURE_BOUND_MS, `get rejected in ${getMs.toFixed(0)} ms (< ${FAILURE_BOUND_MS})`);
    t.equal(await store.ping(), false, 'ping is false while Redis is down');
    // Still down a while later (the client is retrying in the background): still a bounded 503.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const laterMs = await expect503(
      t,
      () => store.save({ orgId: 'acme', quote: quoteBody('q-during'), json: JSON.stringify(quoteBody('q-during')) }),
      'quote store unavailable: the quote was not saved',
    );
    t.ok(laterMs < FAILURE_BOUND_MS, `save rejected in ${laterMs.toFixed(0)} ms after 1 s of outage`);

    await server.start();
    const attempts = await saveUntilAccepted(store, 'q-after', 5000);
    t.comment(`saving resumed on the same store after ${attempts} attempt(s)`);
    t.same(await store.get('q-after'), { orgId: 'acme', quote: quoteBody('q-after') });
    t.equal(await store.ping(), true);
    // The failed save really did not happen (checked on the server itself).
    t.equal(await withRawClient(server.url, (client) => client.exists('failover::q-during')), 0);
  });

  t.test('Redis down when the store is created: 503 within the bound, then works once Redis starts', async (t) => {
    const port = await freePort();
    const store = createQuoteStore({ redisUrl: `redis://127.0.0.1:${port}`, quoteTtlSeconds: 3600 }, { namespace: 'late' });
    t.teardown(() => store.close());
    const ms = await expect503(
      t,
      () => store.save({ orgId: 'acme', quote: quoteBody('q-early'), json: JSON.stringify(quoteBody('q-early')) }),
      'quote store unavailable: the quote was not saved',
    );
    t.ok(ms < FAILURE_BOUND_MS, `save rejected in ${ms.toFixed(0)} ms`);
    const server = await OwnRedisServer.start(binary, port);
    t.teardown(() => server.kill());
    await saveUntilAccepted(store, 'q-late', 5000);
    t.same(await store.get('q-late'), { orgId: 'acme', quote: quoteBody('q-late') });
  });

  t.test('Redis hung (SIGSTOP): save rejects with 503 within the bound instead of waiting forever', async (t) => {
    const server = await OwnRedisServer.start(binary);
    t.teardown(async () => {
      server.signal('SIGCONT');
      await server.kill();
    });
    const store = createQuoteStore({ redisUrl: server.url, quoteTtlSeconds: 3600 }, { namespace: 'hung' });
    t.teardown(() => store.close());
    await store.save({ orgId: 'acme', quote: quoteBody('q-up'), json: JSON.stringify(quoteBody('q-up')) });
    server.signal('SIGSTOP');
    const ms = await expect503(
      t,
      () => store.save({ orgId: 'acme', quote: quoteBody('q-hung'), json: JSON.stringify(quoteBody('q-hung')) }),
      'quote store unavailable: the quote was not saved',
    );
    t.ok(ms < FAILURE_BOUND_MS, `save rejected in ${ms.toFixed(0)} ms`);
    server.signal('SIGCONT');
    await saveUntilAccepted(store, 'q-resumed', 5000);
    t.same(await store.get('q-resumed'), { orgId: 'acme', quote: quoteBody('q-resumed') });
  });
});
