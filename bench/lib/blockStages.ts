/**
 * What a followed block costs a process holding a large graph (the API process and each pricing worker apply every
 * block: GraphHolder.apply, workers/pricing.ts), in one process: load the graph, build the chain's index, warm up and
 * quote the given pairs once (what a served instance has kept when a block arrives), then a chain of blocks, each
 * changing a different set of v2 pools (every 1,000th, shifted per block: a swap-free liquidity change, deeper) and
 * two of the deepest v2 pools between the pairs' tokens (as swaps through hub pools do in most blocks: the pairs
 * whose kept paths read them select their paths again), and per block: PoolGraph.withUpdate, the pricing index derived for it (derivePricingGraph), and the pairs' first
 * quotes on the new state (default routing, POST /quotes/routes' searches). bench/blocks.ts runs it as a child
 * process for this checkout and for BENCH_BEFORE's (the file is copied there: it reads only src/ modules both have):
 * `npm run ts -- bench/lib/blockStages.ts <catalogDir> <snapshotDir> <chainId> <blocks> '<[[tokenIn, tokenOut, amount], ...]>'`
 * prints BlockStages as JSON.
 */
import { deploymentId } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { derivePricingGraph, type PricingGraph, pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { loadServedSnapshots } from '../../src/graph/snapshot.ts';
import { warmUp } from '../../src/quote/TradeTask.ts';
import { defaultLimits } from '../../src/routing/RoutingLimits.ts';
import { quotePair } from './firstQuoteStages.ts';

/** One block's costs, wall ms. */
export interface BlockCost {
  /** Pools the block changed. */
  pools: number;
  /** PoolGraph.withUpdate. */
  graph: number;
  /** The pricing index derived for the block (derivePricingGraph, then the chain's index). */
  index: number;
  /** The pairs' first quotes on the block's state, each once (sum). */
  quotes: number;
}

export interface BlockStages {
  /** The pairs' quotes on the loaded state, first and again (sum, wall ms): the reference for a block's quotes. */
  first: number;
  again: number;
  blocks: BlockCost[];
}

export function blockStages(
  folders: { catalogDir: string; snapshotDir: string },
  chainId: number,
  blocks: number,
  pairs: readonly (readonly [string, string, bigint])[],
): BlockStages {
  const time = <T>(f: () => T): [T, number] => {
    const t0 = performance.now();
    const value = f();
    return [value, performance.now() - t0];
  };
  const catalog = loadCatalog(folders.catalogDir);
  let poolGraph = new PoolGraph(loadServedSnapshots({ ...folders, shippedSnapshotDir: undefined }).snapshots, catalog);
  let graph = pricingGraphOf(poolGraph, catalog);
  const index = graph.chain(chainId)!;
  warmUp(graph);
  const limits = defaultLimits(index.chain.dexes.map((d) => deploymentId(d.slug, d.version)));
  const quotes = (on: PricingGraph): number =>
    pairs.map((pair) => time(() => quotePair(on, chainId, limits, pair))[1]).reduce((x, y) => x + y, 0);
  const first = quotes(graph);
  const again = quotes(graph);
  // The v2 pools by their place in the loaded graph: block k changes every 1,000th from position 13k on.
  const v2 = poolGraph.pools(chainId).filter((p) => p.version === 'v2');
  // The deepest v2 pool of each pair of the pairs' tokens.
  const ends = [...new Set(pairs.flatMap(([a, b]) => [a.toLowerCase(), b.toLowerCase()]))];
  const hubs = ends
    .flatMap((a) => ends.filter((b) => a < b).map((b) => index.pairPools(a, b).find((e) => e.version === 'v2')?.address))
    .filter((a): a is string => a !== undefined);
  const costs: BlockCost[] = [];
  for (let k = 1; k <= blocks; k++) {
    const hot = new Set([hubs[(2 * k) % hubs.length], hubs[(2 * k + 1) % hubs.length]]);
    const changed = v2
      .filter((p, i) => (i + 13 * k) % 1000 === 0 || hot.has(p.address))
      .map((p) => poolGraph.pool(chainId, p.address) ?? p)
      .map((p) =>
        p.version === 'v2'
          ? { ...p, reserve0: String((BigInt(p.reserve0) * 101n) / 100n), reserve1: String((BigInt(p.reserve1) * 101n) / 100n) }
          : p,
      );
    const snapshot = poolGraph.snapshot(chainId)!;
    const update: BlockUpdate = {
      chainId,
      blockNumber: snapshot.blockNumber + 1,
      blockHash: `0x${k.toString(16).padStart(64, '0')}`,
      parentHash: snapshot.blockHash ?? `0x${'00'.repeat(32)}`,
      blockTimestamp: snapshot.blockTimestamp + 12,
      gasPriceWei: '1000000000',
      pools: changed,
      removed: [],
    };
    const previous = poolGraph;
    const [next, graphMs] = time(() => previous.withUpdate(update));
    const [pricing, indexMs] = time(() => {
      derivePricingGraph(previous, next, update);
      const p = pricingGraphOf(next, catalog);
      p.chain(chainId);
      return p;
    });
    poolGraph = next;
    graph = pricing;
    costs.push({ pools: changed.length, graph: graphMs, index: indexMs, quotes: quotes(graph) });
  }
  return { first, again, blocks: costs };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, '/bench/'))) {
  const [catalogDir, snapshotDir, chainId, blocks, pairs] = process.argv.slice(2);
  const parsed = (JSON.parse(pairs) as [string, string, string][]).map(([a, b, n]) => [a, b, BigInt(n)] as const);
  process.stdout.write(`${JSON.stringify(blockStages({ catalogDir, snapshotDir }, Number(chainId), Number(blocks), parsed))}\n`);
}
