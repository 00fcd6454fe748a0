// Our best single path against the Uniswap SDKs' own route search (Trade.bestTradeExactIn / bestTradeExactOut of
// @uniswap/v3-sdk and @uniswap/v2-sdk, exhaustive over every path of up to 3 pools) on the same pools, never worse to
// the wei: on the shipped devnet (every pool of the chain) and on bench:routing's generated 10,000-pool graph (the
// candidate pools our search selects for the pair, selectCandidates: what a router hands its path search), exact
// input and exact output, the bench's search cases (0.01%, 1% and 20% of the pair's depth). The SDKs run per pool
// group one router executes (Uniswap v3, Uniswap v2, SushiSwap v2): their best trade is the best of those. Ours: maxSplits 1
// (a split can only add) and gasPriceWei 0 (both rank by gross amounts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ALL, type Case, effective, type Graph, loadRoutingGraphs, MAX_HOPS } from '../../bench/lib/routingGraphs.ts';
import { SdkEntries } from '../../bench/lib/SdkEntries.ts';
import type { PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { DEFAULT_MAX_ROUTES, findRoutes, selectCandidates } from '../../src/routing/findRoutes.ts';
import { pricePath, toPricedPath } from '../../src/routing/priceRoutes.ts';
import { type SdkTrade, type SdkV3Pool, sdkAmount, sdkRaw, v2Sdk, v3Sdk } from '../helpers/sdkPools.ts';

const dir = mkdtempSync(join(tmpdir(), 'sdk-parity-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const graphs = loadRoutingGraphs(dir);
type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];

/** The pool groups one router executes, each searched by its SDK. */
const GROUPS = [
  { name: 'uniswap/v3', sdk: 'v3', use: (e: PoolEntry) => e.dex === 'uniswap' && e.version === 'v3' },
  { name: 'uniswap/v2', sdk: 'v2', use: (e: PoolEntry) => e.dex === 'uniswap' && e.version === 'v2' },
  { name: 'sushiswap/v2', sdk: 'v2', use: (e: PoolEntry) => e.dex === 'sushiswap' && e.version === 'v2' },
] as const;
/** SDK trades read per group: where the first is a partial fill (below), the next full one stands. */
const RESULTS = 3;

/** The SDK's best full trade over `pools`: the value ranked (output for exactIn, input for exactOut) and its path. */
interface SdkBest {
  readonly value: bigint;
  readonly path: string;
  readonly group: string;
}

/**
 * The best trade of the SDKs over `pools` for a case, or undefined when they find none. A trade whose path our engine
 * refuses for the amount is a partial fill (the v3-sdk's swap stops where the known ticks end and quotes what it got
 * that far) and is passed over; on every other, our engine's price of the SDK's path must be the SDK's to the wei.
 */
async function sdkBest(
  t: TestContext,
  graph: Graph,
  sdk: SdkEntries,
  pools: readonly PoolEntry[],
  c: Case,
  tradeType: TradeType,
): Promise<SdkBest | undefined> {
  const tokenIn = sdk.token(c.tokenIn);
  const tokenOut = sdk.token(c.tokenOut);
  let best: SdkBest | undefined;
  for (const group of GROUPS) {
    const members = pools.filter(group.use);
    if (members.length === 0) continue;
    const options = { maxNumResults: RESULTS, maxHops: MAX_HOPS };
    let trades: SdkTrade<unknown>[];
    if (group.sdk === 'v3') {
      const v3 = members.map((e) => sdk.v3Pool(e)).filter((p): p is SdkV3Pool => p !== null);
      trades =
        tradeType === 'exactIn'
          ? await v3Sdk.Trade.bestTradeExactIn(v3, sdkAmount(tokenIn, c.amount), tokenOut, options)
          : await v3Sdk.Trade.bestTradeExactOut(v3, tokenIn, sdkAmount(tokenOut, c.amount), options);
    } else {
      const v2 = members.map((e) => sdk.v2Pair(e));
      trades =
        tradeType === 'exactIn'
          ? v2Sdk.Trade.bestTradeExactIn(v2, sdkAmount(tokenIn, c.amount), tokenOut, options)
          : v2Sdk.Trade.bestTradeExactOut(v2, tokenIn, sdkAmount(tokenOut, c.amount), options);
    }
    for (const trade of trades) {
      const entries = (trade.route.pools ?? trade.route.pairs)!.map((p) => sdk.entryOf.get(p)!);
      const tokens = (trade.route.tokenPath ?? trade.route.path)!.map((x) => x.address.toLowerCase());
      const path = entries
        .map((e, i) => `${graph.symbol(tokens[i])}>${graph.symbol(tokens[i + 1])} ${e.dex}/${e.version}/${e.state.fee}`)
        .join(', ');
      const priced = toPricedPath(graph.index, { pools: entries, tokens });
      const [q] = priced ? pricePath(priced, tradeType, [c.amount]) : [];
      if (!q?.ok) continue;
      const value = tradeType === 'exactIn' ? sdkRaw(trade.outputAmount) : sdkRaw(trade.inputAmount);
      const engine = tradeType === 'exactIn' ? q.legs[q.legs.length - 1].amountOut : q.legs[0].amountIn;
      if (engine !== value) t.fail(`${group.name} ${path}: the SDK's ${value}, our engine's ${engine} for the same path`);
      if (!best || (tradeType === 'exactIn' ? value > best.value : value < best.value)) best = { value, path, group: group.name };
      break;
    }
  }
  return best;
}

/** Compares every case of a graph on both sides; returns how many were compared and how many exercise paths beyond the steered ones. */
async function compareGraph(t: TestContext, graph: Graph, cases: readonly Case[], candidatesOnly: boolean) {
  const sdk = new SdkEntries(graph.index, graph.decimals);
  const everyPool = [...new Set(graph.index.baseTokens.flatMap((b) => graph.index.poolsOf(b)))];
  const tally = { compared: 0, higher: 0, beyondSteered: 0, lower: [] as string[] };
  const seen = new Set<string>();
  for (const c of cases) {
    const a = effective(graph.index, c.tokenIn);
    const b = effective(graph.index, c.tokenOut);
    // The native asset trades as its wrapped token: the same SDK search as the wrapped token's case.
    if (seen.has(`${a}:${b}:${c.amount}`)) continue;
    seen.add(`${a}:${b}:${c.amount}`);
    const pools = candidatesOnly ? [...selectCandidates(graph.index, a, b, { maxHops: MAX_HOPS, allow: ALL })] : everyPool;
    if (findRoutes(graph.index, a, b, { maxHops: MAX_HOPS, allow: ALL, maxRoutes: Number.MAX_SAFE_INTEGER }).length > DEFAULT_MAX_ROUTES)
      tally.beyondSteered++;
    const exactIn = await sdkBest(t, graph, sdk, pools, c, 'exactIn');
    // Exact output: half the SDK's exact-input output, a reachable amount of tokenOut at the same scale.
    const out: Case | undefined =
      exactIn && exactIn.value / 2n > 0n ? { ...c, tradeType: 'exactOut', amount: exactIn.value / 2n } : undefined;
    for (const [side, theirs] of [
      [c, exactIn],
      [out, out && (await sdkBest(t, graph, sdk, pools, out, 'exactOut'))],
    ] as const) {
      if (!side || !theirs) continue;
      const tradeType = side.tradeType ?? 'exactIn';
      const ours = bestTrade(graph.index, {
        tokenIn: side.tokenIn,
        tokenOut: side.tokenOut,
        tradeType,
        amount: side.amount,
        maxHops: MAX_HOPS,
        maxSplits: 1,
        gasPriceWei: 0n,
        allow: ALL,
      });
      const value = ours.ok ? (tradeType === 'exactIn' ? ours.trade.amountOut : ours.trade.amountIn) : undefined;
      tally.compared++;
      const worse = value === undefined || (tradeType === 'exactIn' ? value < theirs.value : value > theirs.value);
      if (worse)
        tally.lower.push(
          `${tradeType} ${graph.symbol(side.tokenIn)} -> ${graph.symbol(side.tokenOut)} ${side.amount}: ours ${ours.ok ? value : ours.code}, SDK ${theirs.value} over ${theirs.group} ${theirs.path}`,
        );
      else if (value !== theirs.value) tally.higher++;
    }
  }
  return tally;
}

const cpu = (t: TestContext, since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  t.comment(`CPU ${((used.user + used.system) / 1e6).toFixed(1)} s`);
};

t.test('devnet, every pool: never below the SDKs, exact input and exact output', async (t) => {
  const since = process.cpuUsage();
  const tally = await compareGraph(t, graphs.devnet, graphs.devnetCases, false);
  t.strictSame(tally.lower, [], 'no case where the SDKs do better');
  t.ok(tally.compared >= 150, `${tally.compared} cases compared`);
  cpu(t, since);
});

t.test('generated 10,000-pool graph, our candidate pools: never below the SDKs, exact input and exact output', async (t) => {
  const since = process.cpuUsage();
  // The SDKs' exhaustive search walks v3 ticks in JSBI: 20% of depth through the deep base pools takes them
  // ~0.5 s a case, so the generated graph's cases are its 0.01% and 1% ones (the 20% ones run in bench:routing's sdk part).
  const cases = graphs.generatedCases.filter((c) => c.size !== '20% of depth');
  const tally = await compareGraph(t, graphs.generated, cases, true);
  t.strictSame(tally.lower, [], 'no case where the SDKs do better');
  t.ok(tally.compared >= 150, `${tally.compared} cases compared`);
  // Pairs with more paths than the split search steers over: the search must find the best beyond them.
  t.ok(tally.beyondSteered >= 20, `${tally.beyondSteered} cases with more than ${DEFAULT_MAX_ROUTES} paths`);
  cpu(t, since);
});
