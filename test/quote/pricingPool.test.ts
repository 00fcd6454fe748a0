import { fileURLToPath } from 'node:url';
import t from 'tap';
import { loadConfig } from '../../src/config.ts';
import { ServiceUnavailableError } from '../../src/errors/BaseError.ts';
import { createPricingPool, probeTask } from '../../src/quote/pricingPool.ts';
import type { DeploymentTrade } from '../../src/quote/runTradeTask.ts';
import { getAmountOut } from '../../src/amm/v2.ts';
import { fixtureCatalogDir, fixtureSnapshotDir } from '../helpers/testApp.ts';

const crashingWorker = fileURLToPath(new URL('../fixtures/workers/crashingPricing.cjs', import.meta.url));
const WETH = '0x1111111111111111111111111111111111111111';
const USDC = '0x2222222222222222222222222222222222222222';
// Fixture v2 pool: 10 WETH / 30,000 USDC, 30 bps. The oracle is UniswapV2Library's formula, written out:
// 1 WETH in -> floor(1e18*9970*30000e6 / (10e18*10000 + 1e18*9970)).
const expectedOut = (1_000_000_000_000_000_000n * 9970n * 30_000_000_000n) / (10_000_000_000_000_000_000n * 10000n + 1_000_000_000_000_000_000n * 9970n);

/** The output of a task's one trade. */
const amountOut = (trades: DeploymentTrade[]): bigint | undefined => (trades[0]?.outcome.ok ? trades[0].outcome.trade.amountOut : undefined);

t.test('a worker that crashes fails only its own task; the pool replaces it', async (t) => {
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '2' });
  const pricer = createPricingPool(config, { workerFile: crashingWorker });
  t.teardown(() => pricer.close());
  const task = { ...probeTask, chainId: 1001, tokenIn: WETH, tokenOut: USDC, amount: 10n ** 18n, deployments: ['uniswap/v2', 'uniswap/v3'] };
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

t.test('a full queue is a 503, not an unbounded wait', async (t) => {
  const config = loadConfig({ CATALOG_DIR: fixtureCatalogDir, SNAPSHOT_DIR: fixtureSnapshotDir, WORKER_THREADS: '1', WORKER_MAX_QUEUE: '1' });
  const pricer = createPricingPool(config, { workerFile: crashingWorker });
  t.teardown(() => pricer.close());
  const task = { ...probeTask, chainId: 1001, tokenIn: WETH, tokenOut: USDC, amount: 10n ** 18n, deployments: ['uniswap/v2', 'uniswap/v3'] };
  const settled = await Promise.allSettled(Array.from({ length: 50 }, () => pricer.findTrades(task)));
  const rejected = settled.filter((s) => s.status === 'rejected');
  t.ok(rejected.length > 0, 'some requests are refused when the queue is full');
  for (const r of rejected) t.match((r as PromiseRejectedResult).reason, { name: 'ServiceUnavailableError', message: 'the pricing queue is full; retry shortly' });
  t.ok(settled.some((s) => s.status === 'fulfilled'), 'the queued ones are served');
});
