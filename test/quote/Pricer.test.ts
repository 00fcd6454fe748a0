import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { getAmountOut } from '../../src/amm/v2.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { loadConfig } from '../../src/config.ts';
import { ServiceUnavailableError } from '../../src/errors/BaseError.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { createPricer, probeTask, TS_LOADER, workerExecArgv } from '../../src/quote/Pricer.ts';
import type { DeploymentTrade } from '../../src/routing/bestTradesByDeployment.ts';
import type { TradeSearch } from '../../src/routing/TradeFinder.ts';
import { fixtureCatalogDir, fixtureSnapshotDir } from '../helpers/testApp.ts';

const crashingWorker = fileURLToPath(new URL('../fixtures/workers/crashingPricing.ts', import.meta.url));
const refusingWorker = fileURLToPath(new URL('../fixtures/workers/refusingPricing.ts', import.meta.url));
const WETH = '0x1111111111111111111111111111111111111111';
const USDC = '0x2222222222222222222222222222222222222222';
// Fixture v2 pool: 10 WETH / 30,000 USDC, 30 bps. The oracle is UniswapV2Library's formula, written out:
// 1 WETH in -> floor(1e18*9970*30000e6 / (10e18*10000 + 1e18*9970)).
const expectedOut =
  (1_000_000_000_000_000_000n * 9970n * 30_000_000_000n) / (10_000_000_000_000_000_000n * 10000n + 1_000_000_000_000_000_000n * 9970n);

/** 1 WETH -> USDC on the fixture chain (1001), through its v2 and v3 deployments unless `limits` says otherwise. */
const wethToUsdc = (limits: Partial<TradeSearch['limits']> = {}): TradeSearch => ({
  ...probeTask,
  chainId: 1001,
  tokenIn: WETH,
  tokenOut: USDC,
  amount: 10n ** 18n,
  limits: { ...probeTask.limits, deployments: ['uniswap/v2', 'uniswap/v3'], ...limits },
});

/** The output of a task's one trade. */
const amountOut = (trades: DeploymentTrade[]): bigint | undefined =>
  trades[0]?.outcome.ok ? trades[0].outcome.trade.amountOut : undefined;

t.test('a worker that crashes fails only its own task; the pool replaces it', async (t) => {
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '2' });
  const pricer = createPricer(config, { workerFile: crashingWorker });
  t.teardown(() => pricer.close());
  const task = wethToUsdc();
  t.equal(expectedOut, getAmountOut(10n ** 18n, 10n ** 19n, 30_000_000_000n, 30), 'oracle formula agrees with v2.getAmountOut');

  const crash = pricer.findTrades({ ...task, chainId: 666 });
  const others = Array.from({ length: 20 }, () => pricer.findTrades(task));
  await t.rejects(crash, ServiceUnavailableError, 'the crashed task gets a 503 error');
  await t.rejects(crash, { message: 'a pricing worker failed; retry the request' });
  const results = await Promise.all(others);
  for (const trades of results) t.same(amountOut(trades), expectedOut);
  // After the crash the pool still prices (with a replacement worker).
  const after = await Promise.all(Array.from({ length: 4 }, () => pricer.findTrades(task)));
  t.equal(after.length, 4);
  for (const trades of after) t.equal(amountOut(trades), expectedOut);
});

t.test('tasks waiting for a worker are answered in the order they were sent, under sustained load', async (t) => {
  // Piscina puts a task it could not hand to a busy worker back at the end of its queue unless stricterFIFO is set:
  // under load, requests were then overtaken by a hundred later ones (bench/HISTORY.md, 2026-11-26 12:30).
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '1' });
  const pricer = createPricer(config, { workerFile: crashingWorker });
  t.teardown(() => pricer.close());
  const task = wethToUsdc();
  await pricer.findTrades(task);
  // 30 clients, each sending its next task when the last is answered: the queue never empties.
  let sent = 0;
  const answered: number[] = [];
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      for (let k = 0; k < 20; k++) {
        const id = sent++;
        const trades = await pricer.findTrades(task);
        if (amountOut(trades) === expectedOut) answered.push(id);
      }
    }),
  );
  t.equal(answered.length, 600, 'every task priced');
  t.same(
    answered,
    Array.from({ length: 600 }, (_v, i) => i),
    'answered in the order sent',
  );
});

t.test('a full queue is a 503, not an unbounded wait', async (t) => {
  const config = loadConfig({
    CATALOG_DIR: fixtureCatalogDir,
    SNAPSHOT_DIR: fixtureSnapshotDir,
    WORKER_THREADS: '1',
    WORKER_MAX_QUEUE: '1',
  });
  const pricer = createPricer(config, { workerFile: crashingWorker });
  t.teardown(() => pricer.close());
  const task = wethToUsdc();
  const settled = await Promise.allSettled(Array.from({ length: 50 }, () => pricer.findTrades(task)));
  const rejected = settled.filter((s) => s.status === 'rejected');
  t.ok(rejected.length > 0, 'some requests are refused when the queue is full');
  for (const r of rejected)
    t.match((r as PromiseRejectedResult).reason, { name: 'ServiceUnavailableError', message: 'the pricing queue is full; retry shortly' });
  t.ok(
    settled.some((s) => s.status === 'fulfilled'),
    'the queued ones are served',
  );
});

t.test('without a queue (WORKER_MAX_QUEUE=0) a task no worker can take at once is a full queue too, not a worker failure', async (t) => {
  // Piscina rejects it with 'No task queue available and all Workers are busy': the pricer counts its tasks and
  // refuses the one beyond the workers itself, whatever Piscina's message says.
  const config = loadConfig({
    CATALOG_DIR: fixtureCatalogDir,
    SNAPSHOT_DIR: fixtureSnapshotDir,
    WORKER_THREADS: '1',
    WORKER_MAX_QUEUE: '0',
  });
  const pricer = createPricer(config, { workerFile: crashingWorker });
  t.teardown(() => pricer.close());
  const task = wethToUsdc({ deployments: ['uniswap/v2'] });
  const settled = await Promise.allSettled(Array.from({ length: 5 }, () => pricer.findTrades(task)));
  t.strictSame(
    settled.map((s) => (s.status === 'fulfilled' ? amountOut(s.value) : `${(s.reason as Error).name}: ${(s.reason as Error).message}`)),
    [expectedOut, ...Array(4).fill('ServiceUnavailableError: the pricing queue is full; retry shortly')],
    'the first is priced by the one worker, the four sent while it is busy are refused as a full queue',
  );
  t.equal(amountOut(await pricer.findTrades(task)), expectedOut, 'once the worker is free, the next task is priced');
});

t.test('one-pool tasks are priced in the API thread unless a direct pool has more initialized ticks than inlineMaxTicks', async (t) => {
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '1' });
  const catalog = loadCatalog(fixtureCatalogDir);
  const poolGraph = new PoolGraph(loadSnapshots(fixtureSnapshotDir).snapshots, catalog);
  const task = wethToUsdc({ maxHops: 1, maxSplits: 1, deployments: ['uniswap/v2'] });
  const shallow = createPricer(config, { graph: () => poolGraph, catalog });
  // The fixture's pools have no initialized ticks (state size 0): a limit below that makes every direct pool too deep.
  const deep = createPricer(config, { graph: () => poolGraph, catalog, inlineMaxTicks: -1 });
  t.teardown(() => Promise.all([shallow.close(), deep.close()]));
  for (const pricer of [shallow, deep]) {
    t.equal(amountOut(await pricer.findTrades(task)), expectedOut);
    t.equal(
      amountOut(await pricer.findTrades({ ...task, amount: 2n * 10n ** 18n })),
      getAmountOut(2n * 10n ** 18n, 10n ** 19n, 30_000_000_000n, 30),
    );
  }
  t.same(shallow.stats(), { inline: 2, worker: 0 });
  t.same(deep.stats(), { inline: 0, worker: 2 });
  // Two hops or two splits always go to a worker.
  await shallow.findTrades({ ...task, limits: { ...task.limits, maxSplits: 2 } });
  t.same(shallow.stats(), { inline: 2, worker: 1 });
});

t.test(
  "workers run with the project's TypeScript loader and the process's CPU-profile flags, so a profiled service profiles its workers too",
  async (t) => {
    t.strictSame(workerExecArgv([]), ['--import', TS_LOADER]);
    t.ok(TS_LOADER.endsWith('/src/loader/register.js') && existsSync(fileURLToPath(TS_LOADER)), TS_LOADER);
    t.strictSame(workerExecArgv(['--import', './another-loader.js', '--cpu-prof', '--cpu-prof-dir=/p', '--max-old-space-size=512']), [
      '--cpu-prof',
      '--cpu-prof-dir=/p',
      '--import',
      TS_LOADER,
    ]);
    t.strictSame(workerExecArgv(['--cpu-prof', '--cpu-prof-dir', '/p', '--cpu-prof-interval', '100', '--inspect']), [
      '--cpu-prof',
      '--cpu-prof-dir',
      '/p',
      '--cpu-prof-interval',
      '100',
      '--import',
      TS_LOADER,
    ]);

    // End to end: a process started with --cpu-prof writes a profile of its pricing worker (its module among the frames).
    const dir = mkdtempSync(join(tmpdir(), 'pricer-prof-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const pricerModule = new URL('../../src/quote/Pricer.ts', import.meta.url).href;
    const configModule = new URL('../../src/config.ts', import.meta.url).href;
    const script = `const { createPricer } = await import(${JSON.stringify(pricerModule)});
const { loadConfig } = await import(${JSON.stringify(configModule)});
const pricer = createPricer(loadConfig({ CATALOG_DIR: ${JSON.stringify(fixtureCatalogDir)}, SNAPSHOT_DIR: ${JSON.stringify(fixtureSnapshotDir)}, WORKER_THREADS: '1' }));
await pricer.probeWorkers();
await pricer.close();`;
    const run = spawnSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', TS_LOADER, '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    t.equal(run.status, 0, run.stderr);
    const profiles = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
    t.ok(
      profiles.some((p) => p.includes('workers/pricing.ts')),
      `a profile shows the pricing worker's module (${profiles.length} profiles written)`,
    );
  },
);

t.test('probeWorkers asks the workers even where the API thread prices cheap tasks itself', async (t) => {
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '1' });
  const catalog = loadCatalog(fixtureCatalogDir);
  const graph = new PoolGraph(loadSnapshots(fixtureSnapshotDir).snapshots, catalog);
  const pricer = createPricer(config, { workerFile: refusingWorker, graph: () => graph, catalog });
  t.teardown(() => pricer.close());
  // The probe (one hop, one split) is a task the API thread would price itself; findTrades does.
  t.same(await pricer.findTrades(probeTask), []);
  t.same(pricer.stats(), { inline: 1, worker: 0 });
  await t.rejects(pricer.probeWorkers(), { message: 'pricing worker: WORKER_FAILURE: answered by the refusing worker' });
  // A default-routing search goes to the worker, through findTrades and findRoutes alike.
  const search = wethToUsdc({ maxHops: 2, maxSplits: 2 });
  await t.rejects(pricer.findTrades(search), { message: /refusing worker/ });
  await t.rejects(pricer.findRoutes({ ...search, slippageBps: 50 }), { message: /refusing worker/ });
  t.same(pricer.stats(), { inline: 1, worker: 2 });
});
