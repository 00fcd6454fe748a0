/**
 * `npm run bench:scale`: a generated catalogue and snapshot of 100,000 pools (bench/lib/generateScale.ts: the
 * devnet chain plus generated tokens and v2/v3 pools, v3 pools with up to hundreds of initialized ticks) in a
 * temporary folder, served by the real service process. Measures start-up (spawn until it answers; the devnet
 * server's start-up alongside for the part that is not the graph), RSS of the whole process with 2 workers and
 * with 1 (the difference is one worker), and POST /quotes/routes latency on the devnet quote mix against the
 * small devnet graph and the 100,000-pool graph, interleaved rounds, medians; and the first quote after /readyz says
 * ready on each (a pair the start-up warm-up does not search), then the first quote of each other pair of the mix.
 * Then the same p50 on a graph of as many pools none of which holds a devnet token (generateScale's `hubs: false`):
 * there the mix's answers are the devnet graph's (the row counts the requests answered identically), so it shows
 * what the graph's size alone costs, where the 100k row also prices the richer answers its pools make possible.
 * Where a first quote's time goes in a pricing worker: bench/lib/firstQuoteStages.ts in a child process on the same
 * generated graph (CPU time by stage: load, index, warm-up before ready; per pair its candidate paths, pool
 * conversions, first search and the same search again).
 *
 * Environment: BENCH_SCALE_POOLS (default 100000), BENCH_SECONDS (default 3), BENCH_ROUNDS (default 3),
 * BENCH_BEFORE=<git ref>: that commit's service is started on the same 100k graph right after this one's for the first
 * quotes after ready, and its worker stages measured the same way (firstQuoteStages.ts copied into its checkout).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { projectRoot as ROOT, type ServerProcess, startServer, tsLoader } from '../test/helpers/serverProcess.ts';
import { beforeCheckout, removeCheckout } from './lib/beforeCheckout.ts';
import { type BenchRow, ms, num, reportRows } from './lib/benchRows.ts';
import type { FirstQuoteStages } from './lib/firstQuoteStages.ts';
import { DEFAULT_SCALE, generateScale } from './lib/generateScale.ts';
import { BENCH_RECIPIENT, DEVNET_TOKENS, devnetQuoteBodies, quoteRequests } from './lib/quoteMix.ts';
import { type LoadRequest, type LoadResult, runLoad } from './lib/runLoad.ts';

const POOLS = Number(process.env.BENCH_SCALE_POOLS ?? DEFAULT_SCALE.pools);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const MB = 2 ** 20;
const BEFORE = process.env.BENCH_BEFORE;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[(s.length >> 1) - 1] + s[s.length >> 1]) / 2;
}

/** One POST of a request: its status and the wall time to its whole answer. */
async function timedPost(url: string, request: LoadRequest): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url + request.path, { method: 'POST', body: request.body, headers: { 'content-type': 'application/json' } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

/**
 * Spawn until /readyz answers 200 (readyzMs), then `probe` once: the first quote after ready (firstAfterReadyMs, its
 * status); quoteMs: spawn until a quote answered 200.
 */
async function start(
  label: string,
  env: Record<string, string>,
  probe: LoadRequest,
  root = ROOT,
): Promise<{ server: ServerProcess; quoteMs: number; readyzMs: number; firstAfterReady: { status: number; ms: number } }> {
  const t0 = performance.now();
  const server = await startServer({
    entry: 'src/index.ts',
    root,
    env: { LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    timeoutMs: 120_000,
    readyPath: '/healthz',
    output: 'tail',
  });
  for (;;) {
    const res = await fetch(`${server.url}/readyz`);
    await res.arrayBuffer();
    if (res.ok) break;
    if (performance.now() - t0 > 120_000) throw new Error(`${label}: not ready after 120 s (${res.status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyzMs = performance.now() - t0;
  const firstAfterReady = await timedPost(server.url, probe);
  let quoteMs = readyzMs + firstAfterReady.ms;
  while (firstAfterReady.status !== 200 && (await timedPost(server.url, probe)).status !== 200) {
    if (performance.now() - t0 > 120_000) throw new Error(`${label}: no quote after 120 s`);
    await new Promise((r) => setTimeout(r, 20));
    quoteMs = performance.now() - t0;
  }
  return { server, quoteMs, readyzMs, firstAfterReady };
}

/** Each request once, in order (the first quote of each pair after start-up): wall ms of those that answered 200. */
async function firstQuotes(url: string, requests: readonly LoadRequest[]): Promise<number[]> {
  const times: number[] = [];
  for (const r of requests) {
    const { status, ms } = await timedPost(url, r);
    if (status === 200) times.push(ms);
  }
  return times;
}

/** firstQuoteStages.ts of a checkout (this one, or BENCH_BEFORE's with the file copied in) in a child process. */
function workerStages(root: string, folders: { catalogDir: string; snapshotDir: string }): FirstQuoteStages {
  const file = join(root, 'bench/lib/firstQuoteStages.ts');
  if (root !== ROOT) copyFileSync(join(ROOT, 'bench/lib/firstQuoteStages.ts'), file);
  const pairs = stagePairs.map(([a, b, amount]) => [DEVNET_TOKENS[a], DEVNET_TOKENS[b], String(amount)]);
  const out = execFileSync(
    process.execPath,
    ['--import', tsLoader(root), file, folders.catalogDir, folders.snapshotDir, '31337', JSON.stringify(pairs)],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(out) as FirstQuoteStages;
}

/** A devnet token's decimals (catalog/devnet.json). */
function devnetDecimals(address: string): number {
  return loadCatalog(join(ROOT, 'catalog')).token(31337, address)!.decimals;
}

/** Every ordered pair of the mix's ERC-20 tokens, one whole token in: the stages' pairs (the probe's pair second). */
const stageTokens = ['WBTC', 'USDC', 'WETH', 'DAI', 'USDT'] as const;
const stagePairs = stageTokens
  .flatMap((a) => stageTokens.filter((b) => b !== a).map((b) => [a, b] as const))
  .map(([a, b]) => [a, b, 10n ** BigInt(devnetDecimals(DEVNET_TOKENS[a]))] as const);

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** The pairs' first quotes, the same again, and after a block: total CPU ms of each pass. */
function stageSummary(stages: FirstQuoteStages): string {
  const first = sum(stages.pairs.map((p) => p.routes + p.convert + p.search));
  return `first ${ms(first)}, again ${ms(sum(stages.pairs.map((p) => p.again)))}, after a block of ${stages.blockPools} pools ${ms(sum(stages.afterBlock))} (applied in ${ms(stages.apply)})`;
}

/** Keeps the requests that answer 200 (generated amounts that a pool cannot fill are dropped). */
async function answered(url: string, requests: LoadRequest[]): Promise<LoadRequest[]> {
  const ok: LoadRequest[] = [];
  for (const r of requests) {
    const res = await fetch(url + r.path, { method: r.method, body: r.body, headers: { 'content-type': 'application/json' } });
    await res.arrayBuffer();
    if (res.ok) ok.push(r);
  }
  return ok;
}

/**
 * What a service's answers to the requests carry, each asked once: the paths (`paths` of every route element, summed)
 * and the body's bytes per 200 response. The same mix on a bigger graph may be answered with more paths: the p50 row
 * compares the cost of those answers, not only of the graph's size.
 */
async function answerSize(url: string, requests: readonly LoadRequest[]): Promise<{ paths: number; bytes: number; routes: string[] }> {
  let answers = 0;
  let paths = 0;
  let bytes = 0;
  // Each request's route elements without what differs by the moment or the snapshot (deadline, snapshot): '' when refused.
  const found: string[] = [];
  for (const r of requests) {
    const res = await fetch(url + r.path, { method: r.method, body: r.body, headers: { 'content-type': 'application/json' } });
    const text = await res.text();
    if (!res.ok) {
      found.push('');
      continue;
    }
    answers++;
    bytes += Buffer.byteLength(text);
    const routes = (JSON.parse(text) as { data: { paths?: unknown[]; deadline?: number; snapshot?: unknown }[] }).data;
    found.push(JSON.stringify(routes.map(({ deadline, snapshot, ...rest }) => rest)));
    for (const route of routes) paths += route.paths?.length ?? 0;
  }
  return { paths: answers ? paths / answers : 0, bytes: answers ? bytes / answers : 0, routes: found };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const servers: ServerProcess[] = [];
const rows: BenchRow[] = [];
try {
  const g0 = performance.now();
  const fixture = generateScale(dir, { ...DEFAULT_SCALE, pools: POOLS });
  const generateMs = performance.now() - g0;
  const [thin, mid, deep] = fixture.tickBuckets;
  process.stdout.write(
    `generated ${num(POOLS)} pools (${num(fixture.v2Pools)} v2, ${num(fixture.v3Pools)} v3: ${num(thin)} with <= 20 ticks, ${num(mid)} with 21-200, ${num(deep)} with > 200, largest ${fixture.largestTickCount}; ${num(fixture.ticks)} ticks), ${(fixture.snapshotBytes / MB).toFixed(0)} MB snapshot, in ${(generateMs / 1000).toFixed(1)} s\n`,
  );
  // Any price impact: the mix's large amounts exceed the default bound (15%, issue 23), which would answer them 400.
  const bodies = devnetQuoteBodies({ maxPriceImpactBps: 10_000 });
  const mix = quoteRequests('/quotes/routes', bodies);
  // The first quote after ready: WBTC -> USDC 1, default routing (a pair the start-up warm-up does not search).
  const firstProbe = mix[3];
  const small = await start(
    'devnet',
    { SNAPSHOT_DIR: join(ROOT, 'seeds/snapshots'), CATALOG_DIR: join(ROOT, 'catalog'), WORKER_THREADS: '2' },
    firstProbe,
  );
  servers.push(small.server);
  // Exactly the generated folder: no shipped snapshot beneath it.
  const bigEnv = { SNAPSHOT_DIR: fixture.snapshotDir, SHIPPED_SNAPSHOT_DIR: 'none', CATALOG_DIR: fixture.catalogDir };
  const big = await start('100k', { ...bigEnv, WORKER_THREADS: '2' }, firstProbe);
  servers.push(big.server);
  // The first quote of each other pair of the mix (each once, in the mix's order), on both graphs.
  const firstOfPairs = [
    ...new Map(mix.map((r) => [JSON.stringify([JSON.parse(r.body!).tokenIn, JSON.parse(r.body!).tokenOut]), r])).values(),
  ].filter((r) => r !== firstProbe);
  const bigFirsts = await firstQuotes(big.server.url, firstOfPairs);
  const smallFirsts = await firstQuotes(small.server.url, firstOfPairs);
  // BENCH_BEFORE's service on the same graph, right after: its first quotes under the same load.
  const beforeRoot = BEFORE ? beforeCheckout(BEFORE) : undefined;
  let before:
    | {
        first: Awaited<ReturnType<typeof start>>['firstAfterReady'];
        firsts: number[];
        stages: FirstQuoteStages;
        readyzMs: number;
        healthzMs: number;
      }
    | undefined;
  if (beforeRoot) {
    try {
      const old = await start('100k before', { ...bigEnv, WORKER_THREADS: '2' }, firstProbe, beforeRoot);
      const firsts = await firstQuotes(old.server.url, firstOfPairs);
      await old.server.stop();
      before = {
        first: old.firstAfterReady,
        firsts,
        stages: workerStages(beforeRoot, fixture),
        readyzMs: old.readyzMs,
        healthzMs: old.server.readyMs,
      };
    } finally {
      removeCheckout(beforeRoot);
    }
  }
  process.stdout.write(`start-up: devnet ready ${ms(small.server.readyMs)}, 100k ready ${ms(big.server.readyMs)}\n`);

  const heavyCandidates: LoadRequest[] = [];
  for (const [a, b] of fixture.heavyQuotes) {
    for (const [tokenIn, tokenOut] of [
      [a, b],
      [b, a],
    ]) {
      for (const amount of ['0.01', '1', '100', '10000']) {
        heavyCandidates.push({
          method: 'POST',
          path: '/quotes/routes',
          body: JSON.stringify({
            originChainId: 31337,
            destinationChainId: 31337,
            tokenIn,
            tokenOut,
            amount,
            recipientAddress: BENCH_RECIPIENT,
          }),
        });
      }
    }
  }
  const heavy = (await answered(big.server.url, heavyCandidates)).slice(0, 24);

  const [smallAnswers, bigAnswers] = [await answerSize(small.server.url, mix), await answerSize(big.server.url, mix)];
  const smallRuns: LoadResult[] = [];
  const bigRuns: LoadResult[] = [];
  let rssAfterOneRound = 0;
  for (let round = 0; round < ROUNDS; round++) {
    smallRuns.push(await runLoad({ url: small.server.url, requests: mix, connections: CONNECTIONS, seconds: SECONDS }));
    bigRuns.push(await runLoad({ url: big.server.url, requests: mix, connections: CONNECTIONS, seconds: SECONDS }));
    if (round === 0) rssAfterOneRound = big.server.rss();
  }
  const heavyRun =
    heavy.length > 0 ? await runLoad({ url: big.server.url, requests: heavy, connections: CONNECTIONS, seconds: SECONDS }) : undefined;
  const rss2 = big.server.rss();
  const peak2 = big.server.peakRss();
  await big.server.stop();
  const one = await start('100k, 1 worker', { ...bigEnv, WORKER_THREADS: '1' }, firstProbe);
  servers.push(one.server);
  // Same state as rssAfterOneRound: one warm-up and one measured round of the devnet mix.
  await runLoad({ url: one.server.url, requests: mix, connections: CONNECTIONS, seconds: SECONDS });
  const rss1 = one.server.rss();
  await one.server.stop();
  const perWorker = rssAfterOneRound - rss1;
  // As many pools, none of them at a devnet token (generateScale's `hubs: false`): the mix's answers are the devnet
  // graph's, so against the devnet graph in the same rounds this p50 is what the graph's size alone costs.
  const detachedFixture = generateScale(join(dir, 'detached'), { ...DEFAULT_SCALE, pools: POOLS, hubs: false });
  const detachedEnv = { SNAPSHOT_DIR: detachedFixture.snapshotDir, SHIPPED_SNAPSHOT_DIR: 'none', CATALOG_DIR: detachedFixture.catalogDir };
  const detached = await start('100k detached', { ...detachedEnv, WORKER_THREADS: '2' }, firstProbe);
  servers.push(detached.server);
  const detachedAnswers = await answerSize(detached.server.url, mix);
  const sameAnswers = detachedAnswers.routes.filter((r, i) => r !== '' && r === smallAnswers.routes[i]).length;
  const smallBesideDetached: LoadResult[] = [];
  const detachedRuns: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    smallBesideDetached.push(await runLoad({ url: small.server.url, requests: mix, connections: CONNECTIONS, seconds: SECONDS }));
    detachedRuns.push(await runLoad({ url: detached.server.url, requests: mix, connections: CONNECTIONS, seconds: SECONDS }));
  }
  await detached.server.stop();

  const stages = workerStages(ROOT, fixture);
  const p50Small = median(smallRuns.map((r) => r.p50));
  const p50Big = median(bigRuns.map((r) => r.p50));
  const failures = [...smallRuns, ...bigRuns].reduce((n, r) => n + r.failures, 0);
  const p50Detached = median(detachedRuns.map((r) => r.p50));
  const p50BesideDetached = median(smallBesideDetached.map((r) => r.p50));
  const detachedFailures = [...smallBesideDetached, ...detachedRuns].reduce((n, r) => n + r.failures, 0);
  const loadMs = big.server.readyMs; // node + the TypeScript loader + modules + catalogue + snapshots; the devnet server pays all but the big graph
  rows.push(
    {
      part: 'scale',
      case: `generate ${num(POOLS)} pools`,
      result: `${num(fixture.v2Pools)} v2 + ${num(fixture.v3Pools)} v3 (${num(deep)} with > 200 ticks, max ${fixture.largestTickCount}), ${num(fixture.ticks)} ticks, ${(fixture.snapshotBytes / MB).toFixed(0)} MB JSON`,
      ratio: `${(generateMs / 1000).toFixed(1)} s`,
      target: '',
      met: null,
    },
    {
      part: 'scale',
      case: 'graph load, 100k pools (start-up minus devnet start-up)',
      result: `${ms(loadMs - small.server.readyMs)}: spawn to ready ${ms(loadMs)} vs ${ms(small.server.readyMs)} for devnet; first quote ${ms(big.quoteMs)}`,
      ratio: '',
      target: '<= 3 s',
      met: loadMs - small.server.readyMs <= 3000,
    },
    {
      part: 'scale',
      case: 'first quote after /readyz says ready (WBTC -> USDC 1, default routing)',
      result: `100k graph ${ms(big.firstAfterReady.ms)} (${big.firstAfterReady.status}; ready ${ms(big.readyzMs)} after spawn) vs devnet graph ${ms(small.firstAfterReady.ms)} (${small.firstAfterReady.status}; ready ${ms(small.readyzMs)})`,
      // BENCH_BEFORE's service on the same 100k graph, started right after this one's: spawn to /healthz and to /readyz.
      ratio: before
        ? `before (${BEFORE}): ${ms(before.first.ms)} (${before.first.status}); /readyz ${ms(before.readyzMs)}, /healthz ${ms(before.healthzMs)} after spawn, against ${ms(big.readyzMs)}, ${ms(big.server.readyMs)}`
        : '',
      target: '200 within 200 ms on 100k',
      met: big.firstAfterReady.status === 200 && big.firstAfterReady.ms <= 200,
    },
    {
      part: 'scale',
      case: `first quote of each other pair of the mix after ready (${firstOfPairs.length} pairs, default routing)`,
      result: `100k graph median ${ms(median(bigFirsts))}, max ${ms(Math.max(...bigFirsts))} (${bigFirsts.length} answered) vs devnet graph median ${ms(median(smallFirsts))}, max ${ms(Math.max(...smallFirsts))}`,
      ratio: before
        ? `before (${BEFORE}): probe ${ms(before.first.ms)} (${before.first.status}), pairs median ${ms(median(before.firsts))}, max ${ms(Math.max(...before.firsts))}`
        : '',
      target: '',
      met: null,
    },
    {
      part: 'scale',
      case: 'pricing worker on 100k pools before ready (CPU, firstQuoteStages.ts): load, index, warm-up',
      result: `${ms(stages.load)}, ${ms(stages.index)}, ${ms(stages.warmUp)}`,
      ratio: before ? `before: ${ms(before.stages.load)}, ${ms(before.stages.index)}, ${ms(before.stages.warmUp)}` : '',
      target: '',
      met: null,
    },
    {
      part: 'scale',
      case: `pricing worker, ${stagePairs.length} pairs' default quotes: first after ready, again, after a block (total CPU)`,
      result: `${stageSummary(stages)}; ${stagePairs[0][0]}->${stagePairs[0][1]} first: paths ${ms(stages.pairs[0].routes)}, pools ${ms(stages.pairs[0].convert)}, search ${ms(stages.pairs[0].search)}, again ${ms(stages.pairs[0].again)}`,
      ratio: before ? `before: ${stageSummary(before.stages)}` : '',
      target: '',
      met: null,
    },
    {
      part: 'scale',
      case: 'RSS, 100k pools, API + 2 workers',
      result: `${(rss2 / MB).toFixed(0)} MB (peak ${(peak2 / MB).toFixed(0)} MB)`,
      ratio: `after one round: ${(rssAfterOneRound / MB).toFixed(0)} MB with 2 workers, ${(rss1 / MB).toFixed(0)} MB with 1: ~${(perWorker / MB).toFixed(0)} MB per worker`,
      target: '<= 1 GB total',
      met: Math.max(rss2, peak2) <= 1024 * MB,
    },
    {
      part: 'scale',
      case: `POST /quotes/routes p50, devnet mix c=${CONNECTIONS}`,
      result: `100k graph ${ms(p50Big)} (${num(median(bigRuns.map((r) => r.rps)))} req/s) vs devnet graph ${ms(p50Small)} (${num(median(smallRuns.map((r) => r.rps)))} req/s); answers carry ${smallAnswers.paths.toFixed(1)} paths, ${(smallAnswers.bytes / 1024).toFixed(1)} KB on the devnet graph, ${bigAnswers.paths.toFixed(1)} paths, ${(bigAnswers.bytes / 1024).toFixed(1)} KB on the 100k graph${failures ? `, ${failures} failed (${[...smallRuns, ...bigRuns].map((r) => r.failureCodes).join(' ')})` : ''}`,
      ratio: `${((p50Big / p50Small - 1) * 100).toFixed(0)}%`,
      target: 'within 10%',
      met: p50Big <= p50Small * 1.1 && failures === 0,
    },
    {
      part: 'scale',
      case: `the same, 100k pools none of which holds a devnet token (the graph's size alone: the mix's answers unchanged)`,
      result: `100k graph ${ms(p50Detached)} (${num(median(detachedRuns.map((r) => r.rps)))} req/s) vs devnet graph ${ms(p50BesideDetached)} (${num(median(smallBesideDetached.map((r) => r.rps)))} req/s) in the same rounds; ${sameAnswers} of ${mix.length} requests answered exactly as on the devnet graph${detachedFailures ? `, ${detachedFailures} failed` : ''}`,
      ratio: `${((p50Detached / p50BesideDetached - 1) * 100).toFixed(0)}%`,
      target: '',
      met: null,
    },
  );
  if (heavyRun) {
    rows.push({
      part: 'scale',
      case: `POST /quotes/routes, ${heavy.length} quotes on pools with > 200 ticks, c=${CONNECTIONS}`,
      result: `${num(heavyRun.rps)} req/s, p50 ${ms(heavyRun.p50)}, p99 ${ms(heavyRun.p99)}${heavyRun.failures ? `, ${heavyRun.failures} failed` : ''}`,
      ratio: '',
      target: '',
      met: null,
    });
  }
} finally {
  for (const s of servers) await s.stop();
  rmSync(dir, { recursive: true, force: true });
}
reportRows(rows);
