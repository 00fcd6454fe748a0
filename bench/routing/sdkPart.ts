/**
 * bench:routing, part "sdk": ours against `Trade.bestTradeExactIn` of @uniswap/v3-sdk (v3 pools) and @uniswap/v2-sdk
 * (v2 pairs) built from the same snapshot state, on the same amounts, gasPriceWei 0 (both rank by gross output): time
 * per quote and whether our output is >= theirs; each SDK's best path is re-priced by our engine as an exactness check.
 */
import type { PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import type { TradeOutcome } from '../../src/routing/bestTrade.ts';
import { executorsFor } from '../../src/routing/executors.ts';
import { findRoutes, selectCandidates } from '../../src/routing/findRoutes.ts';
import { pricePath, toPricedPath } from '../../src/routing/priceRoutes.ts';
import { type SdkTrade, type SdkV3Pool, sdkAmount, sdkRaw, v2Sdk, v3Sdk } from '../../test/helpers/sdkPools.ts';
import { type BenchRow, ms } from '../lib/benchRows.ts';
import { ALL, allTokens, bestTradeOfCase, type Case, effective, type Graph, MAX_HOPS, type RoutingGraphs } from '../lib/routingGraphs.ts';
import { SdkEntries } from '../lib/SdkEntries.ts';
import { median, timed } from '../lib/timing.ts';

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
      pools.map((e) => ({ dex: e.dex, version: e.version })),
    ).length > 0;
  const path = pools
    .map((e, i) => `${graph.symbol(tokens[i])}>${graph.symbol(tokens[i + 1])} ${e.dex}/${e.version}/${e.state.fee}`)
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
    const searched = findRoutes(graph.index, effective(graph.index, c.tokenIn), effective(graph.index, c.tokenOut), {
      maxHops: MAX_HOPS,
      allow,
    });
    const among = searched.some((p) => p.pools.map((e) => e.address).join(',') === sdk!.pools);
    const bps = out === undefined ? 'we refuse' : `${((Number(sdkOut! - out) / Number(out)) * 10_000).toFixed(2)} bps lower`;
    // The same search allowed to price every path it finds (maxRoutes far above findRoutes' default).
    const wide = bestTradeOfCase(graph, c, 0n, allow, { maxRoutes: 100_000 });
    const wideOut = wide.ok ? wide.trade.amountOut : undefined;
    process.stdout.write(
      `  LOWER (${cmp.label}): ${graph.symbol(c.tokenIn)} -> ${graph.symbol(c.tokenOut)} ${c.size} ${c.amount}: ours ${ours.ok ? out : ours.code} vs SDK ${sdkOut} (${bps}); SDK path ${sdk!.path}, ${among ? 'among' : 'NOT among'} the ${searched.length} paths our search prices; with every path priced (maxRoutes unbounded) ours ${wideOut ?? (wide.ok ? '' : wide.code)}${wideOut !== undefined && wideOut >= sdkOut! ? ' >= SDK' : ' < SDK'}\n`,
    );
  }
}

/** Median time of `reps` runs of our search (after the first, which the search part or a warm-up paid). */
function oursTimed(graph: Graph, c: Case, allow: (e: PoolEntry) => boolean, reps: number): [TradeOutcome, number] {
  const [outcome] = timed(() => bestTradeOfCase(graph, c, 0n, allow));
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(timed(() => bestTradeOfCase(graph, c, 0n, allow))[1]);
  return [outcome, median(times)];
}

/**
 * Ours against the SDKs' bestTradeExactIn on the same pools: on the devnet every pool of the chain, on the
 * generated graph the candidate pools our search selects for the pair (selectCandidates: what a router hands its
 * path search; the SDK's exhaustive search over 10,000 pools would take seconds per quote).
 */
async function sdkGraph(graph: Graph, cases: readonly Case[], candidatesOnly: boolean): Promise<BenchRow[]> {
  const sdk = new SdkEntries(graph.index, graph.decimals);
  const everyPool = [...new Set(allTokens(graph.index).flatMap((t) => graph.index.poolsOf(t)))];
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
        ]
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

/** The sdk part: v3, v2 and all-pools rows on the devnet (every pool) and on the generated graph (our candidate pools). */
export async function sdkPart(graphs: RoutingGraphs): Promise<BenchRow[]> {
  return [
    ...(await sdkGraph(graphs.devnet, graphs.devnetCases, false)),
    ...(await sdkGraph(graphs.generated, graphs.generatedCases, true)),
  ];
}
