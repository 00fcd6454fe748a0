// What the API thread hands a pricing worker (src/graph/workerHandover.ts, the shared snapshot files' tick regions in
// src/graph/snapshot.ts) against what the worker would build itself: the oracle is built here from the file by
// JSON.parse and a fresh catalogue load (never through the shared bytes, the regions or the handed prices), and the
// real worker (workers/pricing.ts) is started on the handed data in a worker thread (test/fixtures/workers/handoverProbe.ts).
// A handover tied to a file version the worker no longer reads (the file changed since) must not be used.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { type Catalog, deploymentId } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { projectRoot } from '../../src/config.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { parseSnapshotBytes, tickRegionList } from '../../src/graph/parseSnapshotBytes.ts';
import { loadServedSnapshots, type Snapshot } from '../../src/graph/snapshot.ts';
import { usdPrices } from '../../src/graph/usdPrices.ts';
import type { WorkerHandover } from '../../src/graph/workerHandover.ts';
import { pricingWorkerData, workerExecArgv } from '../../src/quote/Pricer.ts';
import { findTrades, type TradeTask } from '../../src/quote/TradeTask.ts';
import { encodeTrades } from '../../src/quote/tradeCodec.ts';
import { defaultLimits } from '../../src/routing/RoutingLimits.ts';

const probe = fileURLToPath(new URL('../fixtures/workers/handoverProbe.ts', import.meta.url));
const shipped = join(projectRoot, 'seeds', 'snapshots', 'devnet.json');
const catalogDir = join(projectRoot, 'catalog');
const chainId = 31337;
const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

/** A folder holding a copy of the shipped devnet snapshot (v2 and v3 pools, v3 tick lists). */
function folder(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'sqs-handover-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(shipped, join(dir, 'devnet.json'));
  return dir;
}

/** The oracle: the file by JSON.parse, a catalogue of its own, prices and trades computed from them in this thread. */
function oracle(file: string, tasks: readonly TradeTask[]) {
  const catalog = loadCatalog(catalogDir);
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const graph = new PoolGraph([snapshot], catalog);
  const chain = catalog.chain(chainId)!;
  const prices = usdPrices(chain, graph.pools(chainId), (a) => catalog.token(chainId, a));
  const pricing = pricingGraphOf(graph, catalog);
  return {
    snapshot,
    prices: JSON.stringify([...prices], bigints),
    /** The pool scores of the chain's index, built here with its own prices. */
    scores: JSON.stringify([...pricing.chain(chainId)!.entryScores!]),
    // As the worker answers a task (workers/pricing.ts findTrades).
    answers: tasks.map((task) => JSON.stringify({ ok: true, trades: encodeTrades(findTrades(pricing, task)) }, bigints)),
    /** Whether every task finds a trade on some deployment. */
    traded: tasks.every((task) => findTrades(pricing, task).some((d) => d.outcome.ok)),
  };
}

/** The API thread's start-up (GraphHolder with the index built) and the workerData createPricer gives its workers. */
function apiThread(dir: string): { catalog: Catalog; graph: PoolGraph; workerData: Record<string, unknown> } {
  const catalog = loadCatalog(catalogDir);
  const graph = new PoolGraph(loadServedSnapshots({ snapshotDir: dir }).snapshots, catalog);
  pricingGraphOf(graph, catalog).chain(chainId);
  const config = { catalogDir, snapshotDir: dir, shippedSnapshotDir: undefined };
  return { catalog, graph, workerData: pricingWorkerData(config, { graph: () => graph, catalog }) };
}

interface ProbeReport {
  chains: { chainId: number; snapshot: string; prices: string; scores: string }[];
  answers: string[];
}

/** The real pricing worker started on `workerData` in a thread: what it built and its answers to `tasks`. */
async function startWorker(workerData: Record<string, unknown>, tasks: readonly TradeTask[]): Promise<ProbeReport> {
  const worker = new Worker(probe, { execArgv: workerExecArgv(), workerData: { ...workerData, probeTasks: tasks } });
  try {
    return await new Promise<ProbeReport>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

/** Default-routing searches between the devnet's tokens (multi-hop, split), as worker tasks on the start-up state. */
function tasks(catalog: Catalog): TradeTask[] {
  const chain = catalog.chain(chainId)!;
  const limits = defaultLimits(chain.dexes.map((d) => deploymentId(d.slug, d.version)));
  const bySymbol = (s: string) => chain.tokens.find((x) => x.symbol === s)!;
  // Lower-case addresses, as the API hands tasks to workers (the index is keyed by them).
  const pairs = [
    ['WETH', 'USDC'],
    ['WBTC', 'DAI'],
    ['USDT', 'WETH'],
  ];
  return pairs.map(([a, b]) => ({
    chainId,
    tokenIn: bySymbol(a).address.toLowerCase(),
    tokenOut: bySymbol(b).address.toLowerCase(),
    tradeType: 'exactIn' as const,
    amount: 10n ** BigInt(bySymbol(a).decimals),
    limits,
    perDeployment: true,
    generation: 0,
    updates: 0,
  }));
}

t.test('tick regions handed over parse to the same document as a scan, and each region is its pool tick list', async (t) => {
  const bytes = readFileSync(shipped);
  const expected = JSON.parse(bytes.toString('utf8')) as Snapshot;
  const scanned = parseSnapshotBytes(bytes, null) as Snapshot;
  const regions = tickRegionList(scanned)!;
  const withTicks = expected.pools.filter((p) => 'ticks' in p) as unknown as { ticks: unknown[] }[];
  t.equal(regions.length, 3 * withTicks.length, 'a triple per pool with a tick list');
  withTicks.forEach((pool, k) => {
    const [start, end, count] = regions.subarray(3 * k, 3 * k + 3);
    t.strictSame(JSON.parse(bytes.toString('utf8', start, end)), pool.ticks, `region ${k} holds pool ${k}'s ticks`);
    t.equal(count, pool.ticks.length);
  });
  const taken = parseSnapshotBytes(bytes, null, regions) as Snapshot;
  t.strictSame(JSON.parse(JSON.stringify(taken)), expected, 'parsed with the handed regions: JSON.parse of the file');
  t.strictSame(JSON.parse(JSON.stringify(scanned)), expected, 'scanned: JSON.parse of the file');
});

t.test('the handed prices are what the worker would compute, and the worker builds the same state and answers', async (t) => {
  const dir = folder(t);
  const api = apiThread(dir);
  const work = tasks(api.catalog);
  const want = oracle(join(dir, 'devnet.json'), work);
  const handover = api.workerData.handover as WorkerHandover;
  t.strictSame(
    handover.chains.map((h) => [h.chainId, JSON.stringify([...h.prices], bigints), JSON.stringify([...h.scores!])]),
    [[chainId, want.prices, want.scores]],
    'handed prices and scores: those of the file parsed here',
  );
  t.strictSame(handover.catalogChains, loadCatalog(catalogDir).chains, 'handed catalogue: a fresh load of the folder');
  t.ok(
    (api.workerData.sharedSnapshotFiles as { ticks?: Float64Array }[]).every((f) => f.ticks && f.ticks.length > 0),
    'the shared file carries its tick regions',
  );

  const report = await startWorker(api.workerData, work);
  t.strictSame(JSON.parse(report.chains[0].snapshot), want.snapshot, "the worker's snapshot: JSON.parse of the file");
  t.equal(report.chains[0].prices, want.prices, "the worker's prices");
  t.equal(report.chains[0].scores, want.scores, "the worker's pool scores");
  t.strictSame(report.answers, want.answers, "the worker's answers: the same searches on the oracle's graph");
  t.ok(want.traded, 'the searches find trades');

  // The handed prices and scores are what the worker uses (not recomputed): doctored ones for the same file show up.
  const doctored: WorkerHandover = {
    ...handover,
    chains: handover.chains.map((h) => ({
      ...h,
      prices: new Map([...h.prices].map(([a, p]) => [a, { num: p.num * 3n, den: p.den }])),
      scores: h.scores!.map((x) => x + 1),
    })),
  };
  const taken = await startWorker({ ...api.workerData, handover: doctored }, []);
  t.equal(taken.chains[0].prices, JSON.stringify([...doctored.chains[0].prices], bigints), 'handed prices are taken as given');
  t.equal(taken.chains[0].scores, JSON.stringify([...doctored.chains[0].scores!]), 'handed scores are taken as given');
});

t.test('a worker reading a file changed since the API read it uses none of the handed data', async (t) => {
  const dir = folder(t);
  const api = apiThread(dir);
  const work = tasks(api.catalog);
  const before = oracle(join(dir, 'devnet.json'), work);
  // Another state of the chain: every v2 pool holds twice its token0 (other mid prices, other USD prices).
  const changed = JSON.parse(readFileSync(shipped, 'utf8')) as { pools: Record<string, string>[] };
  for (const pool of changed.pools)
    if (pool.version === 'v2') {
      pool.reserve0 = String(BigInt(pool.reserve0) * 2n);
      pool.balance0 = String(BigInt(pool.balance0) * 2n);
    }
  writeFileSync(join(dir, 'devnet.json'), JSON.stringify(changed, null, 1));
  const after = oracle(join(dir, 'devnet.json'), work);
  t.not(after.prices, before.prices, 'the two files price the tokens differently');
  t.notSame(after.answers, before.answers, 'and answer differently');

  const report = await startWorker(api.workerData, work);
  t.strictSame(JSON.parse(report.chains[0].snapshot), after.snapshot, "the worker's snapshot: the file as it is now");
  t.equal(report.chains[0].prices, after.prices, 'its prices: computed from the file as it is now, not the handed ones');
  t.equal(report.chains[0].scores, after.scores, 'its pool scores too');
  t.not(after.scores, before.scores, '(which differ from the handed ones)');
  t.strictSame(report.answers, after.answers, 'its answers: on the file as it is now');
});

t.test('scores not as many as the entries are not taken: the index scores its pools itself', async (t) => {
  const catalog = loadCatalog(catalogDir);
  const graph = new PoolGraph([JSON.parse(readFileSync(shipped, 'utf8')) as Snapshot], catalog);
  const chain = catalog.chain(chainId)!;
  const prices = usdPrices(chain, graph.pools(chainId), (a) => catalog.token(chainId, a));
  const own = new ChainPoolIndex(chain, graph.pools(chainId), undefined, prices).entryScores!;
  const doctored = own.map((x) => x + 1);
  t.strictSame(
    [...new ChainPoolIndex(chain, graph.pools(chainId), undefined, prices, doctored).entryScores!],
    [...doctored],
    'as many: taken',
  );
  t.strictSame(
    [...new ChainPoolIndex(chain, graph.pools(chainId), undefined, prices, doctored.subarray(1)).entryScores!],
    [...own],
    'one short: its own',
  );
});
