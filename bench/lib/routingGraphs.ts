/**
 * The graphs and quote cases the in-process routing benchmarks (bench/routing/) share: the shipped devnet files and a
 * generated chain of 10,000 pools over 500 tokens (bench/lib/generateScale.ts, generateRoutingGraph), both loaded into
 * a ChainPoolIndex as the service loads them, and the search at the API's defaults.
 */
import { join } from 'node:path';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import type { ChainPoolIndex, PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots, snapshotGasPriceWei } from '../../src/graph/snapshot.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import { type BestTradeOptions, bestTrade, type TradeOutcome } from '../../src/routing/bestTrade.ts';
import { projectRoot as ROOT } from '../../test/helpers/serverProcess.ts';
import { type BenchRow, ms, num } from './benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH, type RoutingGraphFixture, rng } from './generateScale.ts';
import { timed } from './timing.ts';

/** Search rounds of the search and exactout parts (BENCH_ROUTING_ROUNDS, default 10). */
export const SEARCH_ROUNDS = Number(process.env.BENCH_ROUTING_ROUNDS ?? 10);
/** The API's default maxHops (quoteService). */
export const MAX_HOPS = 3;
/** The API's default maxSplits (quoteService). */
export const MAX_SPLITS = 5;
/** The chain both graphs are loaded as (the devnet's id). */
export const CHAIN_ID = 31337;

/** A loaded graph and the names of its tokens. */
export interface Graph {
  readonly name: string;
  readonly index: ChainPoolIndex;
  readonly decimals: (address: string) => number;
  readonly symbol: (address: string) => string;
  /** The gas price recorded with the snapshot (the service's default for ranking net of gas). */
  readonly gasPriceWei: bigint;
}

/** One quote to search. */
export interface Case {
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** exactIn (default): `amount` is tokenIn's; exactOut: tokenOut's. */
  readonly tradeType?: TradeType;
  readonly amount: bigint;
  /** 'small', 'medium', 'large' or a share of depth. */
  readonly size: string;
}

/** Both graphs, their search cases and the description row of the generated one. */
export interface RoutingGraphs {
  readonly devnet: Graph;
  /** Every ordered devnet pair with pools, at 0.01%, 1% and 20% of its depth. */
  readonly devnetCases: readonly Case[];
  /** The devnet graph's files (the shipped catalogue and snapshots). */
  readonly devnetDirs: { readonly catalogDir: string; readonly snapshotDir: string };
  readonly generated: Graph;
  readonly fixture: RoutingGraphFixture;
  /** 40 generated pairs (5 of each of 8 kinds) at 0.01%, 1% and 20% of their depth. */
  readonly generatedCases: readonly Case[];
  /** The table row describing the generated graph. */
  readonly row: BenchRow;
}

/** A catalogue and snapshot folder loaded as the service loads them; `keep` (default all) drops pools before indexing. */
export function loadGraph(name: string, catalogDir: string, snapshotDir: string, keep: (p: SnapshotPool) => boolean = ALL): Graph {
  const catalog = loadCatalog(catalogDir);
  const loaded = loadSnapshots(snapshotDir);
  if (loaded.errors.length > 0) throw new Error(`${name}: snapshot refused: ${loaded.errors.join('; ')}`);
  const snapshots = loaded.snapshots.map((x) => ({ ...x, pools: x.pools.filter(keep) }));
  const index = new PricingGraph(new PoolGraph(snapshots, catalog), catalog).chain(CHAIN_ID);
  if (!index) throw new Error(`${name}: no chain ${CHAIN_ID}`);
  const tokens = new Map(catalog.chain(CHAIN_ID)!.tokens.map((t) => [t.address.toLowerCase(), t]));
  const gasPriceWei = snapshotGasPriceWei(snapshots.find((s) => s.chainId === CHAIN_ID)!);
  return { name, index, decimals: (a) => tokens.get(a)?.decimals ?? 18, symbol: (a) => tokens.get(a)?.symbol ?? a, gasPriceWei };
}

/**
 * Loads the devnet graph and generates (into `dir`, which the caller removes) and loads the 10,000-pool graph, with
 * their search cases.
 */
export function loadRoutingGraphs(dir: string): RoutingGraphs {
  const devnetDirs = { catalogDir: join(ROOT, 'catalog'), snapshotDir: join(ROOT, 'seeds/snapshots') };
  const devnet = loadGraph('devnet', devnetDirs.catalogDir, devnetDirs.snapshotDir);
  const devnetCases = devnetPairs(devnet).flatMap(([a, b]) => pairCases(devnet.index, a, b));
  const [fixture, generateMs] = timed(() => generateRoutingGraph(dir));
  const [generated, loadMs] = timed(() =>
    loadGraph(`generated ${num(ROUTING_GRAPH.pools)} pools`, fixture.catalogDir, fixture.snapshotDir),
  );
  const [thin, mid, deep] = fixture.tickBuckets;
  const [shallow, middle, large] = fixture.tvlBuckets;
  const description = `${num(fixture.v2Pools)} v2 + ${num(fixture.v3Pools)} v3 over ${fixture.tokens.length} tokens (${fixture.baseTokens} base); v3 ticks: ${num(thin)} pools <= 20, ${num(mid)} 21-200, ${num(deep)} > 200 (max ${fixture.largestTickCount}); value: ${num(shallow)} < $100k, ${num(middle)} $100k-$10M, ${num(large)} >= $10M`;
  process.stdout.write(
    `generated: ${description}; ${(fixture.snapshotBytes / 2 ** 20).toFixed(1)} MB, ${ms(generateMs)} to generate, ${ms(loadMs)} to load\n`,
  );
  const generatedCases = generatedPairs(fixture).flatMap(([a, b]) => pairCases(generated.index, a, b));
  const row: BenchRow = {
    part: 'routing',
    case: `generated graph (seed ${ROUTING_GRAPH.seed})`,
    result: description,
    ratio: `${(fixture.snapshotBytes / 2 ** 20).toFixed(1)} MB snapshot`,
    target: '',
    met: null,
  };
  return { devnet, devnetCases, devnetDirs, generated, fixture, generatedCases, row };
}

/** The native asset trades as its wrapped token in pools. */
export function effective(index: ChainPoolIndex, token: string): string {
  return token === index.native ? index.wrappedNative : token;
}

/** `token`'s balance in a pool. */
export function balanceOf(entry: PoolEntry, token: string): bigint {
  return BigInt(entry.token0 === token ? entry.state.balance0 : entry.state.balance1);
}

/** tokenIn's balance in the deepest direct pool of the pair, or in tokenIn's deepest pool when there is none. */
function depth(index: ChainPoolIndex, tokenIn: string, tokenOut: string): bigint {
  const a = effective(index, tokenIn);
  const b = effective(index, tokenOut);
  const pools = index.poolsOf(a);
  const direct = pools.filter((e) => e.token0 === b || e.token1 === b);
  return (direct.length > 0 ? direct : pools).reduce((max, e) => (balanceOf(e, a) > max ? balanceOf(e, a) : max), 0n);
}

/** The search mix of one pair: 0.01% (small), 1% (medium) and 20% of its depth. */
export function pairCases(index: ChainPoolIndex, tokenIn: string, tokenOut: string): Case[] {
  const d = depth(index, tokenIn, tokenOut);
  return [
    { tokenIn, tokenOut, amount: d / 10_000n, size: 'small' },
    { tokenIn, tokenOut, amount: d / 100n, size: 'medium' },
    { tokenIn, tokenOut, amount: d / 5n, size: '20% of depth' },
  ].filter((c) => c.amount > 0n);
}

/** Devnet: every ordered pair of tokens with pools (the native asset included, its wrap alone excluded). */
export function devnetPairs(graph: Graph): [string, string][] {
  const { index } = graph;
  // The native asset has no pools of its own (it trades through its wrapped token's): it is in when that one has pools.
  const tokens = [...new Set([index.native, ...allTokens(index)])].filter((t) => index.poolsOf(effective(index, t)).length > 0);
  const pairs: [string, string][] = [];
  for (const a of tokens) for (const b of tokens) if (a !== b && !(effective(index, a) === effective(index, b))) pairs.push([a, b]);
  return pairs;
}

/** Every token of the index that appears in a pool. */
export function allTokens(index: ChainPoolIndex): string[] {
  const seen = new Set<string>();
  for (const base of index.baseTokens) for (const e of index.poolsOf(base)) seen.add(e.token0).add(e.token1);
  return [...seen].sort();
}

/**
 * Generated graph: 5 pairs from each of 8 kinds (base/top-50/tail tokens, tail = popularity rank 200 and below),
 * drawn with a fixed seed.
 */
export function generatedPairs(fixture: RoutingGraphFixture): [string, string][] {
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

/** A pool filter that admits every pool. */
export const ALL = (): boolean => true;

/**
 * The best trade (bestTrade) of one case at the API's defaults (maxHops 3, maxSplits 5) and the given gas price; paths
 * of stages searched only with `handoverSlippageBps`.
 */
export function bestTradeOfCase(
  graph: Graph,
  c: Case,
  gasPriceWei: bigint,
  allow: (e: PoolEntry) => boolean = ALL,
  options?: BestTradeOptions,
  maxSplits = MAX_SPLITS,
  handoverSlippageBps?: number,
  allowKey?: string,
): TradeOutcome {
  return bestTrade(
    graph.index,
    {
      tokenIn: c.tokenIn,
      tokenOut: c.tokenOut,
      tradeType: c.tradeType ?? 'exactIn',
      amount: c.amount,
      maxHops: MAX_HOPS,
      maxSplits,
      gasPriceWei,
      allow,
      ...(handoverSlippageBps === undefined ? {} : { handoverSlippageBps }),
      ...(allowKey === undefined ? {} : { allowKey }),
    },
    options,
  );
}

/**
 * A case searched as the service searches it: over every pool, with an allowKey, so the pair's candidate paths are
 * found once per index and kept (ChainPoolIndex.pairMemo; src/routing/bestTradesByDeployment.ts), not on every search.
 */
export function servedTradeOfCase(graph: Graph, c: Case, gasPriceWei: bigint): TradeOutcome {
  return bestTradeOfCase(graph, c, gasPriceWei, ALL, undefined, MAX_SPLITS, undefined, 'bench:all');
}

/** How many outcomes answered (with splits, with several hops) and which refusal codes the others got. */
export function outcomeSummary(outcomes: readonly TradeOutcome[]): string {
  const codes = new Map<string, number>();
  let splits = 0;
  let multiHop = 0;
  for (const o of outcomes) {
    if (!o.ok) codes.set(o.code, (codes.get(o.code) ?? 0) + 1);
    else {
      if (o.trade.splits.length > 1) splits++;
      if (o.trade.splits.some((s) => s.route.legs.length > 1)) multiHop++;
    }
  }
  const refused = [...codes].map(([c, n]) => `${n} ${c}`).join(', ');
  return `${outcomes.length - [...codes.values()].reduce((a, b) => a + b, 0)} answered (${splits} split, ${multiHop} multi-hop)${refused ? `, refused: ${refused}` : ''}`;
}
