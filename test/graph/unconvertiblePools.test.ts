// A pool whose snapshot state does not convert (registry.poolFromSnapshot throws) is left out of every route, and
// now also logged once with its address and reason and counted in pool_conversion_failures_total (issue 22).
// The broken pool: test/fixtures/quote-snapshots' v3 WETH/USDC pool with sqrtPriceX96 0, which UniswapV3Pool could
// never hold (createV3Pool refuses it; the snapshot schema does not look at the value).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import t from 'tap';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { onUnconvertiblePool, reportUnconvertiblePool, type UnconvertiblePool } from '../../src/graph/unconvertiblePools.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import { buildTestApp, fixtureCatalogDir } from '../helpers/testApp.ts';

const BROKEN = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa';
const REASON = 'sqrtPriceX96 outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)';
const WETH = '0x1111111111111111111111111111111111111111';
const USDC = '0x2222222222222222222222222222222222222222';

const snapshotDir = mkdtempSync(join(tmpdir(), 'sqs-unconvertible-'));
t.teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/quote-snapshots/testchain.json', import.meta.url)), 'utf8'));
for (const pool of fixture.pools) if (pool.address === BROKEN) pool.sqrtPriceX96 = '0';
writeFileSync(join(snapshotDir, 'testchain.json'), JSON.stringify(fixture));
const catalog = loadCatalog(fixtureCatalogDir);
const loadGraph = () => new PoolGraph(loadSnapshots(snapshotDir).snapshots, catalog);

/** Reports until `sentinel` arrives: what a listener got before it (reports from one thread arrive in order). */
async function reportsUntil(sentinel: UnconvertiblePool, act: () => void): Promise<UnconvertiblePool[]> {
  const got: UnconvertiblePool[] = [];
  let stop = () => {};
  const done = new Promise<void>((resolve) => {
    stop = onUnconvertiblePool((pool) => (pool.address === sentinel.address ? resolve() : got.push(pool)));
  });
  // The channels do not keep the process alive (a server does): this timer does while the reports travel.
  const alive = setInterval(() => {}, 1_000);
  act();
  reportUnconvertiblePool(sentinel);
  await done;
  clearInterval(alive);
  stop();
  return got;
}

t.test('the pool is refused, and reported once per pool and reason however often it is converted', async (t) => {
  const sentinel = { chainId: 0, address: 'sentinel', reason: 'end of the test' };
  const reports = await reportsUntil(sentinel, () => {
    for (const graph of [loadGraph(), loadGraph()]) {
      // Each graph converts its entries again: two reports, one listener call.
      const index = pricingGraphOf(graph, catalog).chain(1001)!;
      const entry = index.poolsOf(WETH).find((e) => e.address === BROKEN)!;
      t.equal(index.pool(entry), undefined, 'left out of every route');
      t.equal(index.pool(entry), undefined, 'still refused');
      const healthy = index.poolsOf(WETH).find((e) => e.address !== BROKEN && e.token1 === USDC)!;
      t.ok(index.pool(healthy), 'the other WETH/USDC pool converts');
    }
  });
  t.strictSame(reports, [{ chainId: 1001, address: BROKEN, reason: REASON }]);
});

t.test('the app logs it once with the pool address and reason and counts it in pool_conversion_failures_total', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write: (chunk, _enc, done) => {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const graph = loadGraph();
  const { request } = buildTestApp({ snapshotDir, deps: { logger, graph: () => graph } });
  const sentinel = { chainId: 0, address: 'app sentinel', reason: 'end of the test' };
  await reportsUntil(sentinel, () => {
    const index = pricingGraphOf(graph, catalog).chain(1001)!;
    for (const entry of index.poolsOf(WETH)) index.pool(entry);
    for (const entry of index.poolsOf(WETH)) index.pool(entry);
  });
  const warned = lines.filter((l) => l.msg === 'pool left out of every route: its state does not convert');
  t.strictSame(
    warned.map((l) => [l.level, l.chainId, l.pool, l.reason]),
    [
      [40, 1001, BROKEN, REASON],
      [40, 0, 'app sentinel', 'end of the test'],
    ],
    'one warning per pool (the sentinel is counted too)',
  );
  const metrics = await request('GET', '/metrics');
  t.match(metrics.text, /^pool_conversion_failures_total\{chain_id="1001"\} 1$/m);
});

t.test('a pricing worker that meets the pool reports it to the API process', async (t) => {
  const q = buildQuoteTestApp({ snapshotDir });
  t.teardown(() => q.close());
  // Two hops: the search goes to a worker, which converts the WETH/USDC pools (and USDC/DAI's, through WETH).
  const body = {
    originChainId: 1001,
    destinationChainId: 1001,
    tokenIn: WETH,
    tokenOut: USDC,
    amount: '1',
    recipientAddress: WETH,
    maxHops: 2,
  };
  const res = await q.request('POST', '/quotes/routes', { body });
  t.equal(res.status, 200, 'the v2 pool still prices the pair');
  t.notOk(JSON.stringify(res.body).includes(BROKEN.toLowerCase()), 'the broken pool is on no route');
  // The report crosses threads on a BroadcastChannel: read the metrics until it is counted.
  let text = '';
  for (let i = 0; i < 200 && !/pool_conversion_failures_total\{chain_id="1001"\} 1$/m.test(text); i++) {
    text = (await q.request('GET', '/metrics')).text;
    await new Promise((r) => setTimeout(r, 25));
  }
  t.match(text, /^pool_conversion_failures_total\{chain_id="1001"\} 1$/m);
});
