import t from 'tap';
import { createMetrics } from '../../src/http/metrics.ts';
import { createMemoryRateLimitStore } from '../../src/http/rateLimit.ts';
import { fixtureQuoteRequest as BODY, buildStubQuoteApp, InProcessPricer } from '../helpers/stubQuoteApp.ts';

/** Parses the Prometheus text format into `name{labels}` -> value (comments dropped). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

t.test('GET /metrics: request counts and latency per route template, quote outcomes by code, queue depth', async (t) => {
  const s = await buildStubQuoteApp({ env: { RATE_LIMIT_PER_KEY: '1' }, rateLimitStore: createMemoryRateLimitStore() });
  t.teardown(() => s.close());
  const quoteQueue = new InProcessPricer(s.graph, s.catalog);
  quoteQueue.queueSize = () => 7;
  const app = await buildStubQuoteApp({ pricer: quoteQueue });
  t.teardown(() => app.close());
  const r = app.request;
  await r('GET', '/blockchains');
  await r('GET', '/blockchains');
  await r('GET', '/blockchains?chainId=x');
  await r('GET', '/no/such/path');
  await r('GET', `/quotes/7a0c6b1e-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${app.apiKey}` } });
  await r('POST', '/quotes/routes', { body: BODY });
  await r('POST', '/quotes/routes', { body: { ...BODY, amount: '-1' } });
  await r('POST', '/quotes/routes', { body: { ...BODY, tokenOut: '0x3333333333333333333333333333333333333333' } });
  await r('POST', '/quotes/routes', { payload: '{', headers: { 'content-type': 'application/json' } });
  await r('POST', '/quotes', { body: BODY });
  await r('POST', '/quotes', { body: BODY, headers: { authorization: `Bearer ${app.apiKey}` } });
  const res = await r('GET', '/metrics');
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
  const m = samples(res.text);
  const expected: Record<string, number> = {
    'http_requests_total{method="GET",route="/blockchains",status="200"}': 2,
    'http_requests_total{method="GET",route="/blockchains",status="400"}': 1,
    'http_requests_total{method="GET",route="(unmatched)",status="404"}': 1,
    'http_requests_total{method="GET",route="/quotes/:quoteId",status="404"}': 1,
    'http_requests_total{method="POST",route="/quotes/routes",status="200"}': 1,
    'http_requests_total{method="POST",route="/quotes/routes",status="400"}': 3,
    'http_requests_total{method="POST",route="/quotes",status="401"}': 1,
    'http_requests_total{method="POST",route="/quotes",status="200"}': 1,
    'http_request_duration_seconds_count{method="GET",route="/blockchains"}': 3,
    'http_request_duration_seconds_count{method="POST",route="/quotes/routes"}': 4,
    'quote_outcomes_total{endpoint="/quotes/routes",outcome="success"}': 1,
    'quote_outcomes_total{endpoint="/quotes/routes",outcome="INVALID_REQUEST"}': 2,
    'quote_outcomes_total{endpoint="/quotes/routes",outcome="NO_ROUTE"}': 1,
    'quote_outcomes_total{endpoint="/quotes",outcome="UNAUTHORIZED"}': 1,
    'quote_outcomes_total{endpoint="/quotes",outcome="success"}': 1,
    pricing_queue_depth: 7,
    'snapshot_block_number{chain_id="1001"}': 1234,
  };
  for (const [name, value] of Object.entries(expected)) t.equal(m.get(name), value, name);
  const le = m.get('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/blockchains"}');
  t.equal(le, 3, 'the histogram has its +Inf bucket');
  const age = m.get('snapshot_age_seconds{chain_id="1001"}')!;
  t.ok(Math.abs(age - (Math.floor(Date.now() / 1000) - 1_700_000_000)) <= 5, `snapshot age ${age} s`);
  t.ok(m.has('process_cpu_user_seconds_total') && m.has('nodejs_eventloop_lag_seconds'), 'Node.js process metrics');

  // Requests refused before routing are still labelled with their route.
  const limited = s.request;
  await limited('POST', '/quotes', { body: BODY, headers: { authorization: `Bearer ${s.apiKey}` } });
  await limited('POST', '/quotes', { body: BODY, headers: { authorization: `Bearer ${s.apiKey}` } });
  const m2 = samples((await limited('GET', '/metrics')).text);
  t.equal(m2.get('http_requests_total{method="POST",route="/quotes",status="429"}'), 1);
  t.equal(m2.get('quote_outcomes_total{endpoint="/quotes",outcome="RATE_LIMITED"}'), 1);
});

t.test('createMetrics: snapshot age per chain from the injected clock', async (t) => {
  const s = await buildStubQuoteApp();
  t.teardown(() => s.close());
  const metrics = createMetrics({ graph: () => s.graph, now: () => 1_700_000_123_999, processMetrics: false });
  const m = samples((await metrics.render()).body);
  t.same(
    [...m.entries()].filter(([k]) => k.startsWith('snapshot_') || k === 'pricing_queue_depth'),
    [
      ['pricing_queue_depth', 0],
      ['snapshot_age_seconds{chain_id="1001"}', 123],
      ['snapshot_block_number{chain_id="1001"}', 1234],
    ],
  );
});
