/**
 * What a pricing worker pays for the first quote of a pair after it is ready, by stage, in CPU time of one process
 * (workers/pricing.ts's order: load, index, warm-up, then the tasks). bench:scale runs it as a child process on its
 * generated graph, for this checkout and for BENCH_BEFORE's (the file is copied there: it reads only src/ modules
 * that both have):
 * `npm run ts -- bench/lib/firstQuoteStages.ts <catalogDir> <snapshotDir> <chainId> '<[[tokenIn, tokenOut, amount], ...]>'`
 * prints FirstQuoteStages as JSON. Then a followed block (every 1,000th v2 pool of the chain a little deeper, as a
 * swap-free liquidity change moves it) and the same pairs' quotes on the state after it: what a block costs the
 * quotes that follow it.
 */
import { deploymentId } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { derivePricingGraph, type PricingGraph, pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { loadServedSnapshots } from '../../src/graph/snapshot.ts';
import { findTrades, warmUp } from '../../src/quote/TradeTask.ts';
import { findRoutes } from '../../src/routing/findRoutes.ts';
import { defaultLimits, type RequestedLimits } from '../../src/routing/RoutingLimits.ts';

/** One pair's first quote after ready, by stage (ms of CPU). */
export interface PairStages {
  /** Its candidate paths over every deployment (findRoutes, default limits): the search over all of them reads these. */
  routes: number;
  /** Converting those paths' pools from snapshot state. */
  convert: number;
  /** The quote as a worker runs it (POST /quotes/routes: one search over all deployments, one per deployment), after the two stages above. */
  search: number;
  /** The same quote again: what the pair costs once everything it builds is kept. */
  again: number;
}

/** A pricing worker's stages up to ready (ms of CPU), then the first quote of each pair given. */
export interface FirstQuoteStages {
  /** Reading and parsing the snapshots, the pool graph. */
  load: number;
  /** The chain's pricing index (sorted pool lists). */
  index: number;
  /** The warm-up searches (TradeTask.warmUp). */
  warmUp: number;
  pairs: PairStages[];
  /** Pools the block changed. */
  blockPools: number;
  /** Applying the block to the pricing index (withChanges). */
  apply: number;
  /** The pairs' quotes after the block, each once (ms of CPU). */
  afterBlock: number[];
}

/** `pairs`: [tokenIn, tokenOut, amount in tokenIn's smallest unit], default routing, exact input. */
export function firstQuoteStages(
  folders: { catalogDir: string; snapshotDir: string },
  chainId: number,
  pairs: readonly (readonly [string, string, bigint])[],
): FirstQuoteStages {
  const time = <T>(f: () => T): [T, number] => {
    const t0 = process.cpuUsage();
    const value = f();
    const { user, system } = process.cpuUsage(t0);
    return [value, (user + system) / 1000];
  };
  const catalog = loadCatalog(folders.catalogDir);
  const [graph, load] = time(() =>
    pricingGraphOf(new PoolGraph(loadServedSnapshots({ ...folders, shippedSnapshotDir: undefined }).snapshots, catalog), catalog),
  );
  const [index, indexMs] = time(() => graph.chain(chainId)!);
  const [, warmUpMs] = time(() => warmUp(graph));
  const deployments = index.chain.dexes.map((d) => deploymentId(d.slug, d.version));
  const limits = defaultLimits(deployments);
  const allowed = new Set(deployments);
  const quote = (on: PricingGraph, pair: readonly [string, string, bigint]) => quotePair(on, chainId, limits, pair);
  const stages = pairs.map((pair): PairStages => {
    const [tokenIn, tokenOut] = [pair[0].toLowerCase(), pair[1].toLowerCase()];
    const search = () => quote(graph, pair);
    const [paths, routes] = time(() =>
      findRoutes(index, tokenIn, tokenOut, {
        maxHops: limits.maxHops,
        allow: (e) => allowed.has(e.deployment),
        maxRoutes: Number.MAX_SAFE_INTEGER,
      }),
    );
    const [, convert] = time(() => {
      for (const p of paths) for (const e of p.pools) index.pool(e);
    });
    const [, first] = time(search);
    const [, again] = time(search);
    return { routes, convert, search: first, again };
  });
  const changed = graph.graph
    .pools(chainId)
    .filter((p) => p.version === 'v2')
    .filter((_, i) => i % 1000 === 0)
    .map((p) =>
      p.version === 'v2'
        ? { ...p, reserve0: String((BigInt(p.reserve0) * 101n) / 100n), reserve1: String((BigInt(p.reserve1) * 101n) / 100n) }
        : p,
    );
  const snapshot = graph.graph.snapshot(chainId)!;
  const update = {
    chainId,
    blockNumber: snapshot.blockNumber + 1,
    blockHash: `0x${'11'.repeat(32)}`,
    parentHash: `0x${'22'.repeat(32)}`,
    blockTimestamp: snapshot.blockTimestamp + 12,
    gasPriceWei: '1000000000',
    pools: changed,
    removed: [],
  };
  const [next, apply] = time(() => {
    const poolGraph = graph.graph.withUpdate(update);
    derivePricingGraph(graph.graph, poolGraph, update);
    const pricing = pricingGraphOf(poolGraph, catalog);
    pricing.chain(chainId);
    return pricing;
  });
  const afterBlock = pairs.map((pair) => time(() => quote(next, pair))[1]);
  return { load, index: indexMs, warmUp: warmUpMs, pairs: stages, blockPools: changed.length, apply, afterBlock };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, '/bench/'))) {
  const [catalogDir, snapshotDir, chainId, pairs] = process.argv.slice(2);
  const parsed = (JSON.parse(pairs) as [string, string, string][]).map(([a, b, n]) => [a, b, BigInt(n)] as const);
  process.stdout.write(`${JSON.stringify(firstQuoteStages({ catalogDir, snapshotDir }, Number(chainId), parsed))}\n`);
}

/** One exactIn quote of a pair at default routing with the per-deployment bests, as POST /quotes/routes asks it. */
export function quotePair(
  on: PricingGraph,
  chainId: number,
  limits: RequestedLimits,
  [a, b, amount]: readonly [string, string, bigint],
): ReturnType<typeof findTrades> {
  return findTrades(on, {
    chainId,
    tokenIn: a.toLowerCase(),
    tokenOut: b.toLowerCase(),
    tradeType: 'exactIn',
    amount,
    limits,
    perDeployment: true,
  });
}
