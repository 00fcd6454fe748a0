/**
 * `npm run bench:routing`: the route search (src/routing/bestTrade.ts) in one thread, in one run, on two graphs: the
 * shipped devnet files and a generated chain of 10,000 pools over 500 tokens (bench/lib/generateScale.ts,
 * generateRoutingGraph), both loaded into a ChainPoolIndex as the service loads them.
 *
 * - search: latency per quote at the API's defaults (maxHops 3, maxSplits 5, grid 20 + refinement on 100, the gas
 *   price recorded in the snapshot), p50/p99 of wall and CPU time over rounds in shuffled order, after a first pass
 *   that converts the pools the quotes touch.
 * - sdk: against `Trade.bestTradeExactIn` of @uniswap/v3-sdk (v3 pools) and @uniswap/v2-sdk (v2 pairs) built from
 *   the same snapshot state, on the same amounts, gasPriceWei 0 (both rank by gross output): time per quote and
 *   whether our output is >= theirs; each SDK's best path is re-priced by our engine as an exactness check.
 * - refine: output the 1% refinement adds over the plain 5% grid (refineGrid 0) on large trades, and its time.
 * - exactout: exact-output quotes (tradeType exactOut) beside exact-input ones, same search settings: each search
 *   case's twin asks for exactly the output the exact-input trade delivers; p50/p99 of both, timed alternately in
 *   the same rounds.
 * - http: POST /quotes/routes on the service as users run it, default routing against maxHops 1 / maxSplits 1, at
 *   10 and 50 connections (bench/lib/loadCases.ts, the method of bench:http).
 *
 * Environment: BENCH_ROUTING_PARTS (comma list, default "search,sdk,refine,exactout,http"), BENCH_ROUTING_ROUNDS (search
 * rounds, default 10), BENCH_SECONDS / BENCH_ROUNDS / BENCH_CONNECTIONS (http part, as bench:http; defaults 3, 3,
 * "10,50"). `npm run bench:routing -- --write-readme` writes the table into bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { type ChainPoolIndex, type PoolEntry, PricingGraph } from '../src/graph/PricingGraph.ts';
import { loadSnapshots, type SnapshotPoolV2, type SnapshotPoolV3, snapshotGasPriceWei } from '../src/graph/snapshot.ts';
import type { TradeType } from '../src/protocols/PoolProtocol.ts';
import { bestTrade, type TradeOutcome, type TradeSearchOptions } from '../src/routing/bestTrade.ts';
import { executorsFor } from '../src/routing/executors.ts';
import { findRoutes, selectCandidates } from '../src/routing/findRoutes.ts';
import { pricePath, toPricedPath } from '../src/routing/priceRoutes.ts';
import {
  type SdkToken,
  type SdkTrade,
  type SdkV2Pair,
  type SdkV3Pool,
  sdkAmount,
  sdkCore,
  sdkRaw,
  sdkV2Pair,
  sdkV3Pool,
  v2Sdk,
  v3Sdk,
} from '../test/helpers/sdkPools.ts';
import { projectRoot as ROOT, type ServerProcess } from '../test/helpers/serverProcess.ts';
import { type BenchRow, formatTable, ms, num, reportRows, writeReadmeBlock } from './lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH, type RoutingGraphFixture, rng } from './lib/generateScale.ts';
import { type LoadCase, lazyServer, runLoadCases, startService } from './lib/loadCases.ts';
import { describeMachine } from './lib/machine.ts';
import { LatencyRecorder } from './lib/percentiles.ts';
import { devnetQuoteBodies, quoteRequests } from './lib/quoteMix.ts';

const PARTS = new Set((process.env.BENCH_ROUTING_PARTS ?? 'search,sdk,refine,exactout,http').split(','));
const SEARCH_ROUNDS = Number(process.env.BENCH_ROUTING_ROUNDS ?? 10);
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const HTTP_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HTTP_CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
/** The API's defaults (ROUTING-API, quoteService). */
const MAX_HOPS = 3;
const MAX_SPLITS = 5;
const CHAIN_ID = 31337;

/** A loaded graph and the names of its tokens. */
interface Graph {
  readonly name: string;
  readonly index: ChainPoolIndex;
  readonly decimals: (address: string) => number;
  readonly symbol: (address: string) => string;
  /** The gas price recorded with the snapshot (the service's default for ranking net of gas). */
  readonly gasPriceWei: bigint;
}

/** One quote to search. */
interface Case {
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** exactIn (default): `amount` is tokenIn's; exactOut: tokenOut's. */
  readonly tradeType?: TradeType;
  readonly amount: bigint;
  /** 'small', 'medium', 'large' or a share of depth. */
  readonly size: string;
}

function loadGraph(name: string, catalogDir: string, snapshotDir: string): Graph {
  const catalog = loadCatalog(catalogDir);
  const { snapshots, errors } = loadSnapshots(snapshotDir);
  if (errors.length > 0) throw new Error(`${name}: snapshot refused: ${errors.join('; ')}`);
  const index = new PricingGraph(new PoolGraph(snapshots, catalog), catalog).chain(CHAIN_ID);
  if (!index) throw new Error(`${name}: no chain ${CHAIN_ID}`);
  const tokens = new Map(catalog.chain(CHAIN_ID)!.tokens.map((t) => [t.address.toLowerCase(), t]));
  const gasPriceWei = snapshotGasPriceWei(snapshots.find((s) => s.chainId === CHAIN_ID)!);
  return { name, index, decimals: (a) => tokens.get(a)?.decimals ?? 18, symbol: (a) => tokens.get(a)?.symbol ?? a, gasPriceWei };
}

/** The native asset trades as its wrapped token in pools. */
function effective(index: ChainPoolIndex, token: string): string {
  return token === index.native ? index.wrappedNative : token;
}

function balanceOf(entry: PoolEntry, token: string): bigint {
  return BigInt(entry.token0 === token ? entry.state!.balance0 : entry.state!.balance1);
}

/** tokenIn's balance in the deepest direct pool of the pair, or in tokenIn's deepest pool when there is none. */
function depth(index: ChainPoolIndex, tokenIn: string, tokenOut: string): bigint {
  const a = effective(index, tokenIn);
  const b = effective(index, tokenOut);
  const pools = index.poolsOf(a).filter((e) => e.state !== undefined);
  const direct = pools.filter((e) => e.token0 === b || e.token1 === b);
  return (direct.length > 0 ? direct : pools).reduce((max, e) => (balanceOf(e, a) > max ? balanceOf(e, a) : max), 0n);
}

/** The search mix of one pair: 0.01% (small), 1% (medium) and 20% of its depth. */
function pairCases(index: ChainPoolIndex, tokenIn: string, tokenOut: string): Case[] {
  const d = depth(index, tokenIn, tokenOut);
  return [
    { tokenIn, tokenOut, amount: d / 10_000n, size: 'small' },
    { tokenIn, tokenOut, amount: d / 100n, size: 'medium' },
    { tokenIn, tokenOut, amount: d / 5n, size: '20% of depth' },
  ].filter((c) => c.amount > 0n);
}

/** Devnet: every ordered pair of tokens with pools (the native asset included, its wrap alone excluded). */
function devnetPairs(graph: Graph): [string, string][] {
  const { index } = graph;
  const tokens = [...new Set([index.native, ...allTokens(index)])].filter((t) => index.poolsOf(t).length > 0);
  const pairs: [string, string][] = [];
  for (const a of tokens) for (const b of tokens) if (a !== b && !(effective(index, a) === effective(index, b))) pairs.push([a, b]);
  return pairs;
}

/** Every token of the index that appears in a pool. */
function allTokens(index: ChainPoolIndex): string[] {
  const seen = new Set<string>();
  for (const base of index.baseTokens) for (const e of index.poolsOf(base)) seen.add(e.token0).add(e.token1);
  return [...seen].sort();
}

/**
 * Generated graph: 5 pairs from each of 8 kinds (base/top-50/tail tokens, tail = popularity rank 200 and below),
 * drawn with a fixed seed.
 */
function generatedPairs(fixture: RoutingGraphFixture): [string, string][] {
  const random = rng(5);
  const bases = fixture.tokens.slice(0, fixture.baseTokens);
  const top = fixture.tokens.slice(fixture.baseTokens, fixture.baseTokens + 50);
  const tail = fixture.tokens.slice(fixture.baseTokens + 200);
  const pick = (list: readonly string[]): string => list[Math.floor(random() * list.length)];
  const kinds: [readonly string[], readonly string[]][] = [
    [bases, bases],
    [bases, top],
    [top, bases],
    [top, top],
    [tail, bases],
    [bases, tail],
    [tail, tail],
    [top, tail],
  ];
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  for (const [from, to] of kinds) {
    for (let n = 0; n < 5; ) {
      const a = pick(from);
      const b = pick(to);
      if (a === b || seen.has(`${a}:${b}`)) continue;
      seen.add(`${a}:${b}`);
      pairs.push([a, b]);
      n++;
    }
  }
  return pairs;
}

const ALL = (): boolean => true;

function search(
  graph: Graph,
  c: Case,
  gasPriceWei: bigint,
  allow: (e: PoolEntry) => boolean = ALL,
  options?: TradeSearchOptions,
): TradeOutcome {
  return bestTrade(
    graph.index,
    {
      tokenIn: c.tokenIn,
      tokenOut: c.tokenOut,
      tradeType: c.tradeType ?? 'exactIn',
      amount: c.amount,
      maxHops: MAX_HOPS,
      maxSplits: MAX_SPLITS,
      gasPriceWei,
      allow,
    },
    options,
  );
}

/** Milliseconds one call takes. */
function timed<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const result = fn();
  return [result, performance.now() - t0];
}

/**
 * Wall and CPU milliseconds of one call. CPU time (process.cpuUsage: user + system of the process, precise to the
 * microsecond on Linux) leaves out the time the shared VM gives other jobs; it includes V8's helper threads (GC).
 */
function timedCpu<T>(fn: () => T): [T, number, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return [result, wall, (cpu.user + cpu.system) / 1000];
}

/** Median of a list of numbers. */
function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[s.length >> 1] : (s[(s.length >> 1) - 1] + s[s.length >> 1]) / 2;
}

/** A deterministic shuffle (Fisher-Yates) so that rounds do not always meet the cases in the same order. */
function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function outcomeSummary(outcomes: readonly TradeOutcome[]): string {
  const codes = new Map<string, number>();
  let splits = 0;
  let multiHop = 0;
  for (const o of outcomes) {
    if (!o.ok) codes.set(o.code, (codes.get(o.code) ?? 0) + 1);
    else {
      if (o.trade.splits.length > 1) splits++;
      if (o.trade.splits.some((s) => s.route.legs.filter((l) => l.kind !== 'wrap').length > 1)) multiHop++;
    }
  }
  const refused = [...codes].map(([c, n]) => `${n} ${c}`).join(', ');
  return `${outcomes.length - [...codes.values()].reduce((a, b) => a + b, 0)} answered (${splits} split, ${multiHop} multi-hop)${refused ? `, refused: ${refused}` : ''}`;
}

/** Part 1: p50/p99 of the search per quote at the defaults. */
function searchPart(graph: Graph, cases: readonly Case[], target: number): BenchRow[] {
  const first = cases.map((c) => timed(() => search(graph, c, graph.gasPriceWei)));
  const recorder = new LatencyRecorder();
  const cpuRecorder = new LatencyRecorder();
  const perCase = new Map<Case, number[]>(cases.map((c) => [c, []]));
  const random = rng(17);
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const c of shuffled(cases, random)) {
      const [, wall, cpu] = timedCpu(() => search(graph, c, graph.gasPriceWei));
      recorder.add(wall);
      cpuRecorder.add(cpu);
      perCase.get(c)!.push(cpu);
    }
  }
  const [p50, p99, max] = recorder.percentiles([50, 99, 100]);
  const [cpu50, cpu99] = cpuRecorder.percentiles([50, 99]);
  const slowest = [...perCase]
    .map(([c, t]) => [c, median(t)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  for (const [c, t] of slowest)
    process.stdout.write(
      `  slow: ${graph.symbol(c.tokenIn)} -> ${graph.symbol(c.tokenOut)} ${c.size} (${c.amount}): median CPU ${ms(t)}\n`,
    );
  const coldMax = Math.max(...first.map(([, t]) => t));
  const pairs = new Set(cases.map((c) => `${c.tokenIn}:${c.tokenOut}`)).size;
  process.stdout.write(
    `search ${graph.name}: ${recorder.count} quotes, p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)}; first pass max ${ms(coldMax)}; ${outcomeSummary(first.map(([o]) => o))}\n`,
  );
  return [
    {
      part: 'routing',
      case: `search per quote, ${graph.name}, defaults, snapshot gas price ${(Number(graph.gasPriceWei) / 1e9).toFixed(2)} gwei`,
      result: `p50 ${ms(p50)}, p99 ${ms(p99)} (max ${ms(max)}); CPU time p50 ${ms(cpu50)}, p99 ${ms(cpu99)}; ${num(recorder.count)} quotes: ${pairs} pairs x 3 sizes x ${SEARCH_ROUNDS} rounds`,
      ratio: `${outcomeSummary(first.map(([o]) => o))}; first pass (pool conversion) max ${ms(coldMax)}`,
      target: `p99 <= ${target} ms`,
      met: p99 <= target,
    },
  ];
}

/** The SDK objects of a graph's pools, built on first use from the same snapshot state. */
class SdkEntries {
  private readonly tokens = new Map<string, SdkToken>();
  private readonly v3 = new Map<PoolEntry, SdkV3Pool | null>();
  private readonly v2 = new Map<PoolEntry, SdkV2Pair>();
  /** The pool entry each SDK object stands for (identity), to re-price the SDK's paths with our engine. */
  readonly entryOf = new Map<unknown, PoolEntry>();

  constructor(
    private readonly index: ChainPoolIndex,
    private readonly decimals: (address: string) => number,
  ) {}

  token(address: string): SdkToken {
    const a = effective(this.index, address);
    let t = this.tokens.get(a);
    if (!t) {
      t = new sdkCore.Token(CHAIN_ID, a, this.decimals(a));
      this.tokens.set(a, t);
    }
    return t;
  }

  /** The v3-sdk Pool of a v3 entry (null when it has no initialized tick, which the SDK cannot walk). */
  v3Pool(entry: PoolEntry): SdkV3Pool | null {
    let pool = this.v3.get(entry);
    if (pool === undefined) {
      pool = sdkV3Pool(entry.state as SnapshotPoolV3, this.token(entry.token0), this.token(entry.token1)) ?? null;
      this.v3.set(entry, pool);
      if (pool) this.entryOf.set(pool, entry);
    }
    return pool;
  }

  v2Pair(entry: PoolEntry): SdkV2Pair {
    let pair = this.v2.get(entry);
    if (!pair) {
      pair = sdkV2Pair(entry.state as SnapshotPoolV2, this.token(entry.token0), this.token(entry.token1));
      this.v2.set(entry, pair);
      this.entryOf.set(pair, entry);
    }
    return pair;
  }
}

const isV3 = (e: PoolEntry): boolean => e.version === 'v3';
const isV2 = (e: PoolEntry): boolean => e.version === 'v2';

/** One side's figures over the SDK cases. */
interface Comparison {
  readonly label: string;
  readonly oursMs: number[];
  readonly sdkMs: number[];
  higher: number;
  equal: number;
  lower: number;
  /** Cases where the SDK found a path and we refused (INSUFFICIENT_LIQUIDITY on the SDK's path too: a partial fill). */
  sdkPartial: number;
  /** Cases where the SDK's better path mixes pools that no single router swaps (e.g. SushiSwap and Uniswap v2 pairs). */
  sdkUnexecutable: number;
  /** Both refused / found nothing. */
  neither: number;
  /** SDK best paths our engine priced to the same wei. */
  repriced: number;
  repricedDiffer: number;
  sdkErrors: number;
}

function comparison(label: string): Comparison {
  return {
    label,
    oursMs: [],
    sdkMs: [],
    higher: 0,
    equal: 0,
    lower: 0,
    sdkPartial: 0,
    sdkUnexecutable: 0,
    neither: 0,
    repriced: 0,
    repricedDiffer: 0,
    sdkErrors: 0,
  };
}

/** What an SDK answer was, checked with our engine. */
interface SdkAnswer {
  /** The SDK's best output; undefined when it found no trade. */
  readonly out: bigint | undefined;
  /** Our engine refuses the SDK's path for the amount (the SDK quoted a partial fill). */
  readonly partial: boolean;
  /** Some router executes the SDK's path in one call (executorsFor). */
  readonly executable: boolean;
  /** The SDK's path, `tokenIn>tokenOut dex/version/fee` per hop, for messages. */
  readonly path: string;
  /** The SDK's path's pool addresses, joined. */
  readonly pools: string;
  readonly ms: number;
}

/** The SDK's best path re-priced by our engine (undefined when it refuses it) and whether one router can execute it. */
function checkSdkPath(
  graph: Graph,
  sdk: SdkEntries,
  trade: SdkTrade<unknown>,
  amount: bigint,
): { ours: bigint | undefined; executable: boolean; path: string; pools: string } {
  const pools = (trade.route.pools ?? trade.route.pairs)!.map((p) => sdk.entryOf.get(p)!);
  const tokens = (trade.route.tokenPath ?? trade.route.path)!.map((t) => t.address.toLowerCase());
  const executable =
    executorsFor(
      graph.index.chain,
      pools.map((e) => ({ dex: e.dex, version: e.version, wrap: false })),
    ).length > 0;
  const path = pools
    .map((e, i) => `${graph.symbol(tokens[i])}>${graph.symbol(tokens[i + 1])} ${e.dex}/${e.version}/${e.state?.fee}`)
    .join(', ');
  const priced = toPricedPath(graph.index, { pools, tokens });
  const [q] = priced ? pricePath(priced, 'exactIn', [amount]) : [];
  return {
    ours: q?.ok ? q.legs[q.legs.length - 1].amountOut : undefined,
    executable,
    path,
    pools: pools.map((e) => e.address).join(','),
  };
}

/** Counts one case; prints the cases where the SDK did better, with what explains it. */
function record(
  graph: Graph,
  cmp: Comparison,
  c: Case,
  ours: TradeOutcome,
  sdk: SdkAnswer | undefined,
  allow: (e: PoolEntry) => boolean,
): void {
  const out = ours.ok ? ours.trade.amountOut : undefined;
  const sdkOut = sdk?.out;
  if (out === undefined && sdkOut === undefined) cmp.neither++;
  else if (out === undefined && sdk!.partial) cmp.sdkPartial++;
  else if (out !== undefined && (sdkOut === undefined || out > sdkOut)) cmp.higher++;
  else if (out === sdkOut) cmp.equal++;
  else if (!sdk!.executable) cmp.sdkUnexecutable++;
  else {
    cmp.lower++;
    // Is the SDK's path among those our search prices (findRoutes keeps at most maxRoutes, by depth)?
    const searched = findRoutes(graph.index, c.tokenIn, c.tokenOut, { maxHops: MAX_HOPS, allow });
    const among = searched.some(
      (p) =>
        p.pools
          .filter((e) => e.state !== undefined)
          .map((e) => e.address)
          .join(',') === sdk!.pools,
    );
    const bps = out === undefined ? 'we refuse' : `${((Number(sdkOut! - out) / Number(out)) * 10_000).toFixed(2)} bps lower`;
    // The same search allowed to price every path it finds (maxRoutes far above findRoutes' default).
    const wide = search(graph, c, 0n, allow, { maxRoutes: 100_000 });
    const wideOut = wide.ok ? wide.trade.amountOut : undefined;
    process.stdout.write(
      `  LOWER (${cmp.label}): ${graph.symbol(c.tokenIn)} -> ${graph.symbol(c.tokenOut)} ${c.size} ${c.amount}: ours ${ours.ok ? out : ours.code} vs SDK ${sdkOut} (${bps}); SDK path ${sdk!.path}, ${among ? 'among' : 'NOT among'} the ${searched.length} paths our search prices; with every path priced (maxRoutes unbounded) ours ${wideOut ?? (wide.ok ? '' : wide.code)}${wideOut !== undefined && wideOut >= sdkOut! ? ' >= SDK' : ' < SDK'}\n`,
    );
  }
}

/** Median time of `reps` runs of our search (after the first, which the search part or a warm-up paid). */
function oursTimed(graph: Graph, c: Case, allow: (e: PoolEntry) => boolean, reps: number): [TradeOutcome, number] {
  const [outcome] = timed(() => search(graph, c, 0n, allow));
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(timed(() => search(graph, c, 0n, allow))[1]);
  return [outcome, median(times)];
}

/**
 * Part 2: ours against the SDKs' bestTradeExactIn on the same pools: on the devnet every pool of the chain, on the
 * generated graph the candidate pools our search selects for the pair (selectCandidates: what a router hands its
 * path search; the SDK's exhaustive search over 10,000 pools would take seconds per quote).
 */
async function sdkPart(graph: Graph, cases: readonly Case[], candidatesOnly: boolean): Promise<BenchRow[]> {
  const sdk = new SdkEntries(graph.index, graph.decimals);
  const everyPool = [...new Set(allTokens(graph.index).flatMap((t) => graph.index.poolsOf(t)))].filter((e) => e.state !== undefined);
  const v3 = comparison('v3 pools: v3-sdk');
  const v2 = comparison('v2 pairs: v2-sdk');
  const all = comparison('all pools: best of v3-sdk and v2-sdk');
  for (const c of cases) {
    const pools = candidatesOnly
      ? [
          ...selectCandidates(graph.index, effective(graph.index, c.tokenIn), effective(graph.index, c.tokenOut), {
            maxHops: MAX_HOPS,
            allow: ALL,
          }),
        ].filter((e) => e.state !== undefined)
      : everyPool;
    const v3Pools = pools
      .filter(isV3)
      .map((e) => sdk.v3Pool(e))
      .filter((p): p is SdkV3Pool => p !== null);
    const v2Pairs = pools.filter(isV2).map((e) => sdk.v2Pair(e));
    const amountIn = sdkAmount(sdk.token(c.tokenIn), c.amount);
    const tokenOut = sdk.token(c.tokenOut);
    const reps = candidatesOnly ? 3 : 5;

    const runSdk = async <P>(
      cmp: Comparison,
      list: readonly P[],
      best: () => Promise<SdkTrade<P>[]> | SdkTrade<P>[],
    ): Promise<SdkAnswer | undefined> => {
      if (list.length === 0) return undefined;
      const t0 = performance.now();
      let trades: SdkTrade<P>[];
      try {
        trades = await best();
      } catch {
        cmp.sdkErrors++;
        return undefined;
      }
      const elapsed = performance.now() - t0;
      const top = trades[0];
      if (!top) return { out: undefined, partial: false, executable: true, path: '', pools: '', ms: elapsed };
      const out = sdkRaw(top.outputAmount);
      const check = checkSdkPath(graph, sdk, top as SdkTrade<unknown>, c.amount);
      if (check.ours === out) cmp.repriced++;
      else {
        cmp.repricedDiffer++;
        process.stdout.write(
          `  SDK path re-priced differently (${cmp.label}): ${graph.symbol(c.tokenIn)} -> ${graph.symbol(c.tokenOut)} ${c.amount}: SDK ${out}, our engine ${check.ours ?? 'refuses (partial fill)'}; path ${check.path}\n`,
        );
      }
      return { out, partial: check.ours === undefined, executable: check.executable, path: check.path, pools: check.pools, ms: elapsed };
    };

    const [ours3, ours3Ms] = oursTimed(graph, c, isV3, reps);
    const s3 = await runSdk(v3, v3Pools, () =>
      v3Sdk.Trade.bestTradeExactIn(v3Pools, amountIn, tokenOut, { maxNumResults: 1, maxHops: MAX_HOPS }),
    );
    const [ours2, ours2Ms] = oursTimed(graph, c, isV2, reps);
    const s2 = await runSdk(v2, v2Pairs, () =>
      v2Sdk.Trade.bestTradeExactIn(v2Pairs, amountIn, tokenOut, { maxNumResults: 1, maxHops: MAX_HOPS }),
    );
    const [oursAll, oursAllMs] = oursTimed(graph, c, ALL, reps);
    if (s3) {
      v3.oursMs.push(ours3Ms);
      v3.sdkMs.push(s3.ms);
    }
    record(graph, v3, c, ours3, s3, isV3);
    if (s2) {
      v2.oursMs.push(ours2Ms);
      v2.sdkMs.push(s2.ms);
    }
    record(graph, v2, c, ours2, s2, isV2);
    // The SDKs' best over all pools: the better of their two answers (a partial fill only when neither is full).
    const answers = [s3, s2].filter((s): s is SdkAnswer => s !== undefined && s.out !== undefined);
    const full = answers.filter((s) => !s.partial);
    const bestSdk = (full.length > 0 ? full : answers).reduce<SdkAnswer | undefined>(
      (a, b) => (a === undefined || b.out! > a.out! ? b : a),
      undefined,
    );
    all.oursMs.push(oursAllMs);
    all.sdkMs.push((s3?.ms ?? 0) + (s2?.ms ?? 0));
    record(graph, all, c, oursAll, bestSdk, ALL);
  }
  return [v3, v2, all].map((cmp) => {
    const ours = median(cmp.oursMs);
    const theirs = median(cmp.sdkMs);
    const ratios = cmp.sdkMs.map((t, i) => t / cmp.oursMs[i]).filter((r) => Number.isFinite(r) && r > 0);
    const atLeast = cmp.higher + cmp.equal;
    const compared = atLeast + cmp.lower;
    const extra = [
      cmp.sdkPartial ? `${cmp.sdkPartial} SDK partial fills we refuse` : '',
      cmp.sdkUnexecutable ? `${cmp.sdkUnexecutable} where the SDK's better path mixes DEXes no single router swaps` : '',
      cmp.neither ? `${cmp.neither} with no trade on either side` : '',
      cmp.sdkErrors ? `${cmp.sdkErrors} SDK errors` : '',
    ].filter(Boolean);
    const repriced = cmp.repriced + cmp.repricedDiffer;
    const repricing = repriced > 0 ? `; SDK best paths re-priced by our engine to the wei: ${cmp.repriced}/${repriced}` : '';
    const ratio = theirs / ours;
    const judged = cmp === v2 ? null : ratio >= 100 && cmp.lower === 0;
    process.stdout.write(
      `sdk ${graph.name} ${cmp.label}: ours p50 ${ms(ours)}, SDK p50 ${ms(theirs)}, ratio ${ratio.toFixed(0)}x (per case ${Math.min(...ratios).toFixed(0)}-${Math.max(...ratios).toFixed(0)}x); >= in ${atLeast}/${compared}\n`,
    );
    return {
      part: 'routing',
      case: `vs SDK bestTradeExactIn, ${graph.name}, ${cmp.label}${candidatesOnly ? ' (our candidate pools)' : ''}, gas 0`,
      result: `ours p50 ${ms(ours)} vs SDK p50 ${ms(theirs)} per quote; output >= SDK in ${atLeast}/${compared} (higher ${cmp.higher}, equal ${cmp.equal}${cmp.lower ? `, LOWER ${cmp.lower}` : ''})${extra.length ? `; ${extra.join(', ')}` : ''}${repricing}`,
      ratio: `${ratio.toFixed(0)}x (per case ${Math.min(...ratios).toFixed(0)}x-${Math.max(...ratios).toFixed(0)}x)`,
      target: judged === null ? '' : '>= 100x, output >= SDK',
      met: judged,
    };
  });
}

/**
 * Part 3: large trades (10-50% of the deepest direct pool's tokenIn balance) searched with the plain 5% grid
 * (refineGrid 0) and with the default 1% refinement, gasPriceWei 0 (gross output).
 */
function refinePart(graph: Graph, pairs: readonly [string, string][]): BenchRow[] {
  const trades: Case[] = [];
  for (const [a, b] of pairs) {
    const direct = graph.index.poolsOf(a).filter((e) => e.state !== undefined && (e.token0 === b || e.token1 === b));
    if (direct.length === 0) continue;
    const deepest = direct.reduce((max, e) => (balanceOf(e, a) > max ? balanceOf(e, a) : max), 0n);
    for (const pct of [10n, 20n, 30n, 40n, 50n]) trades.push({ tokenIn: a, tokenOut: b, amount: (deepest * pct) / 100n, size: `${pct}%` });
  }
  const gains: number[] = [];
  const plainMs: number[] = [];
  const refinedMs: number[] = [];
  let splitTrades = 0;
  let improved = 0;
  let refused = 0;
  for (const c of trades) {
    search(graph, c, 0n, ALL, { refineGrid: 0 });
    search(graph, c, 0n);
    const p: number[] = [];
    const r: number[] = [];
    let plain: TradeOutcome | undefined;
    let refined: TradeOutcome | undefined;
    for (let i = 0; i < 3; i++) {
      const [po, pt] = timed(() => search(graph, c, 0n, ALL, { refineGrid: 0 }));
      const [ro, rt] = timed(() => search(graph, c, 0n));
      plain = po;
      refined = ro;
      p.push(pt);
      r.push(rt);
    }
    plainMs.push(median(p));
    refinedMs.push(median(r));
    if (!plain!.ok || !refined!.ok) {
      refused++;
      continue;
    }
    if (plain!.trade.splits.length > 1) splitTrades++;
    const gain = refined!.trade.amountOut - plain!.trade.amountOut;
    if (gain > 0n) improved++;
    gains.push(Number((gain * 10_000_000_000n) / plain!.trade.amountOut) / 1e6);
  }
  const avg = gains.reduce((a, b) => a + b, 0) / gains.length;
  const max = Math.max(...gains);
  const min = Math.min(...gains);
  const pPlain = median(plainMs);
  const pRefined = median(refinedMs);
  const extra = median(refinedMs.map((t, i) => t - plainMs[i]));
  process.stdout.write(
    `refine ${graph.name}: ${trades.length} trades, gains avg ${avg.toFixed(3)} bps, max ${max.toFixed(3)} bps, min ${min.toFixed(3)}; time p50 ${ms(pPlain)} -> ${ms(pRefined)}\n`,
  );
  return [
    {
      part: 'routing',
      case: `1% refinement vs plain 5% grid, ${graph.name}, ${trades.length} trades of 10-50% of the deepest pool, gas 0`,
      result: `output +${avg.toFixed(2)} bps on average, max +${max.toFixed(2)} bps${min < 0 ? `, min ${min.toFixed(2)} bps` : ''}; higher on ${improved} of ${gains.length} (grid chose a split on ${splitTrades})${refused ? `, ${refused} refused` : ''}`,
      ratio: `time p50 ${ms(pPlain)} -> ${ms(pRefined)} (${pRefined >= pPlain ? '+' : ''}${(((pRefined - pPlain) / pPlain) * 100).toFixed(0)}%); median extra per trade ${ms(extra)}`,
      target: '',
      met: null,
    },
  ];
}

/**
 * Part 4: exact output beside exact input. Each exact-input case that finds a trade gets an exact-output twin asking
 * for exactly that trade's output; both are timed in the same rounds (shuffled, the two sides alternating which goes
 * first), after a first pass of each.
 */
function exactOutputPart(graph: Graph, cases: readonly Case[]): BenchRow[] {
  const pairs: { exactIn: Case; exactOut: Case }[] = [];
  for (const c of cases) {
    const o = search(graph, c, graph.gasPriceWei);
    if (o.ok) pairs.push({ exactIn: c, exactOut: { ...c, tradeType: 'exactOut', amount: o.trade.amountOut } });
  }
  const firstOut = pairs.map((p) => search(graph, p.exactOut, graph.gasPriceWei));
  const recorders = {
    exactIn: [new LatencyRecorder(), new LatencyRecorder()],
    exactOut: [new LatencyRecorder(), new LatencyRecorder()],
  } as const;
  const random = rng(23);
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const p of shuffled(pairs, random)) {
      const sides = round % 2 === 0 ? (['exactIn', 'exactOut'] as const) : (['exactOut', 'exactIn'] as const);
      for (const side of sides) {
        const [, wall, cpu] = timedCpu(() => search(graph, p[side], graph.gasPriceWei));
        recorders[side][0].add(wall);
        recorders[side][1].add(cpu);
      }
    }
  }
  const figures = (side: 'exactIn' | 'exactOut') => {
    const [p50, p99] = recorders[side][0].percentiles([50, 99]);
    const [cpu50, cpu99] = recorders[side][1].percentiles([50, 99]);
    return { p50, p99, cpu50, cpu99, count: recorders[side][0].count };
  };
  const inF = figures('exactIn');
  const outF = figures('exactOut');
  const summary = outcomeSummary(firstOut);
  process.stdout.write(
    `exact output ${graph.name}: ${outF.count} quotes, p50 ${ms(outF.p50)}, p99 ${ms(outF.p99)}; exact input p50 ${ms(inF.p50)}, p99 ${ms(inF.p99)}; ${summary}\n`,
  );
  const row = (side: 'exactIn' | 'exactOut', f: ReturnType<typeof figures>): BenchRow => ({
    part: 'routing',
    case: `search per quote, ${graph.name}, defaults, ${side === 'exactIn' ? 'exact input' : 'exact output of the same trades'}`,
    result: `p50 ${ms(f.p50)}, p99 ${ms(f.p99)}; CPU time p50 ${ms(f.cpu50)}, p99 ${ms(f.cpu99)}; ${num(f.count)} quotes (${pairs.length} cases x ${SEARCH_ROUNDS} rounds)`,
    ratio:
      side === 'exactIn' ? '100%' : `p50 x${(f.p50 / inF.p50).toFixed(2)}, p99 x${(f.p99 / inF.p99).toFixed(2)} of exact input; ${summary}`,
    target: '',
    met: null,
  });
  return [row('exactIn', inF), row('exactOut', outF)];
}

/** Part 5: POST /quotes/routes on the service, default routing against one hop and one split. */
async function httpPart(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-routing-'));
  const servers: Promise<ServerProcess>[] = [];
  const service = lazyServer(() => {
    const s = startService({ DATA_DIR: dataDir });
    servers.push(s);
    return s;
  });
  const routing = devnetQuoteBodies();
  const single = devnetQuoteBodies({ maxHops: 1, maxSplits: 1 });
  const cases: LoadCase[] = [
    {
      id: 'default',
      label: 'POST /quotes/routes, default routing (maxHops 3, maxSplits 5)',
      server: service,
      requests: () => quoteRequests('/quotes/routes', routing),
    },
    {
      id: 'single',
      label: 'POST /quotes/routes, maxHops 1, maxSplits 1',
      server: service,
      requests: () => quoteRequests('/quotes/routes', single),
    },
  ];
  const rows: BenchRow[] = [];
  try {
    for (const connections of HTTP_CONNECTIONS) {
      const runs = await runLoadCases(cases, { connections, rounds: HTTP_ROUNDS, seconds: HTTP_SECONDS });
      const base = runs.get('single')!.median;
      for (const c of cases) {
        const r = runs.get(c.id)!.median;
        const failed = r.failures > 0 ? `, ${r.failures} failed (${r.failureCodes})` : '';
        rows.push({
          part: 'routing',
          case: `${c.label} c=${connections}`,
          result: `${num(r.rps)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}${failed}`,
          ratio:
            c.id === 'single'
              ? '100%'
              : `${((r.rps / base.rps) * 100).toFixed(0)}% of single-pool req/s, p99 x${(r.p99 / base.p99).toFixed(1)}`,
          target: '',
          met: null,
        });
        process.stdout.write(
          `http ${rows[rows.length - 1].case}: ${rows[rows.length - 1].result} [rounds: ${runs
            .get(c.id)!
            .rounds.map((x) => num(x.rps))
            .join(', ')}]\n`,
        );
      }
    }
  } finally {
    for (const s of servers) await (await s.catch(() => undefined))?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

const rows: BenchRow[] = [];
const started = new Date();
const dir = mkdtempSync(join(tmpdir(), 'bench-routing-graph-'));
try {
  process.stdout.write(`machine: ${describeMachine()}\n`);
  const devnet = loadGraph('devnet', join(ROOT, 'catalog'), join(ROOT, 'seeds/snapshots'));
  const devnetCases = devnetPairs(devnet).flatMap(([a, b]) => pairCases(devnet.index, a, b));
  const inProcess = ['search', 'sdk', 'refine', 'exactout'].some((p) => PARTS.has(p));
  let generated: Graph | undefined;
  let fixture: RoutingGraphFixture | undefined;
  if (inProcess) {
    const [f, generateMs] = timed(() => generateRoutingGraph(dir));
    fixture = f;
    const [g, loadMs] = timed(() => loadGraph(`generated ${num(ROUTING_GRAPH.pools)} pools`, f.catalogDir, f.snapshotDir));
    generated = g;
    const [thin, mid, deep] = f.tickBuckets;
    const [shallow, middle, large] = f.tvlBuckets;
    const description = `${num(f.v2Pools)} v2 + ${num(f.v3Pools)} v3 over ${f.tokens.length} tokens (${f.baseTokens} base); v3 ticks: ${num(thin)} pools <= 20, ${num(mid)} 21-200, ${num(deep)} > 200 (max ${f.largestTickCount}); value: ${num(shallow)} < $100k, ${num(middle)} $100k-$10M, ${num(large)} >= $10M`;
    process.stdout.write(
      `generated: ${description}; ${(f.snapshotBytes / 2 ** 20).toFixed(1)} MB, ${ms(generateMs)} to generate, ${ms(loadMs)} to load\n`,
    );
    rows.push({
      part: 'routing',
      case: `generated graph (seed ${ROUTING_GRAPH.seed})`,
      result: description,
      ratio: `${(f.snapshotBytes / 2 ** 20).toFixed(1)} MB snapshot`,
      target: '',
      met: null,
    });
  }
  const generatedCases = fixture ? generatedPairs(fixture).flatMap(([a, b]) => pairCases(generated!.index, a, b)) : [];
  if (PARTS.has('search')) {
    rows.push(...searchPart(devnet, devnetCases, 2));
    rows.push(...searchPart(generated!, generatedCases, 10));
  }
  if (PARTS.has('sdk')) {
    rows.push(...(await sdkPart(devnet, devnetCases, false)));
    rows.push(...(await sdkPart(generated!, generatedCases, true)));
  }
  if (PARTS.has('refine')) {
    rows.push(
      ...refinePart(
        devnet,
        devnetPairs(devnet).filter(([a, b]) => a !== devnet.index.native && b !== devnet.index.native),
      ),
    );
    const f = fixture!;
    const bases = f.tokens.slice(0, f.baseTokens);
    const top = f.tokens.slice(f.baseTokens, f.baseTokens + 4);
    const pairs: [string, string][] = [];
    for (const a of bases) for (const b of bases) if (a !== b) pairs.push([a, b]);
    for (const t of top) for (const b of bases) pairs.push([t, b], [b, t]);
    rows.push(...refinePart(generated!, pairs));
  }
  if (PARTS.has('exactout')) {
    rows.push(...exactOutputPart(devnet, devnetCases));
    rows.push(...exactOutputPart(generated!, generatedCases));
  }
  if (PARTS.has('http')) rows.push(...(await httpPart()));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
reportRows(rows);
if (process.argv.includes('--write-readme')) {
  const header = `Machine: ${describeMachine()}\nCommand: npm run bench:routing, ${started.toISOString()}\n`;
  if (!writeReadmeBlock('routing', `${header}\n${formatTable(rows)}`)) process.exitCode = 1;
}
