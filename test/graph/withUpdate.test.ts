// A followed block applied copy-on-write (PoolGraph.withUpdate, ChainPoolIndex.withChanges): the changed pools are
// replaced, a removed pool disappears, everything else is shared (same objects), and the derived pricing index
// prices exactly as an index built from scratch over the same pools. A full update (a follower's first after a start)
// replaces the chain's pools, applied even when not newer.
import t from 'tap';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { derivePricingGraph, pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { usdPrices } from '../../src/graph/usdPrices.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { catalog, graph, chainId, pools } = shippedDevnetGraph();
const v2 = pools.find((p): p is SnapshotPoolV2 => p.version === 'v2')!;
const v3 = pools.find((p): p is SnapshotPoolV3 => p.version === 'v3' && p.ticks.length > 2)!;
const gone = pools.find((p) => p !== v2 && p !== v3 && p.version === 'v2')!;
const base = graph.snapshot(chainId)!;

// v2: reserves moved by a swap; v3: the price moved down one initialized tick's worth (liquidity unchanged).
const v2After: SnapshotPoolV2 = {
  ...v2,
  reserve0: String((BigInt(v2.reserve0) * 11n) / 10n),
  reserve1: String((BigInt(v2.reserve1) * 10n) / 11n),
};
const v3After: SnapshotPoolV3 = { ...v3, sqrtPriceX96: String((BigInt(v3.sqrtPriceX96) * 999n) / 1000n), tick: v3.tick - 20 };
const update: BlockUpdate = {
  chainId,
  blockNumber: base.blockNumber + 1,
  blockHash: `0x${'11'.repeat(32)}`,
  parentHash: `0x${'22'.repeat(32)}`,
  blockTimestamp: base.blockTimestamp + 12,
  gasPriceWei: '2000000000',
  pools: [v2After, v3After],
  removed: [gone.address],
};

t.test('PoolGraph.withUpdate replaces, removes and shares', async (t) => {
  const before = pricingGraphOf(graph, catalog);
  before.chain(chainId);
  const next = graph.withUpdate(update);
  derivePricingGraph(graph, next, update);
  t.not(next, graph, 'a new graph');
  t.equal(next.pool(chainId, v2.address), v2After, 'the changed v2 pool is the update’s state');
  t.equal(next.pool(chainId, v3.address), v3After, 'the changed v3 pool is the update’s state');
  t.equal(next.pool(chainId, gone.address), undefined, 'the removed pool is gone');
  t.equal(next.pools(chainId).length, pools.length - 1);
  const untouched = pools.filter((p) => p !== v2 && p !== v3 && p !== gone);
  t.ok(
    untouched.every((p) => next.pool(chainId, p.address) === p),
    `the other ${untouched.length} pools are the same objects`,
  );
  t.equal(next.snapshot(31338), graph.snapshot(31338), 'another chain is shared');
  t.same(
    [next.snapshot(chainId)!.blockNumber, next.snapshot(chainId)!.blockTimestamp, next.snapshot(chainId)!.gasPriceWei],
    [update.blockNumber, update.blockTimestamp, '2000000000'],
    'block metadata follows the update',
  );
  t.equal(graph.pool(chainId, v2.address), v2, 'the old graph still has its state (quotes in flight keep it)');
  t.equal(next.withUpdate({ ...update, pools: [] }), next, 'an update not newer than the state changes nothing');

  const derived = pricingGraphOf(next, catalog).chain(chainId)!;
  const fresh = new ChainPoolIndex(catalog.chain(chainId)!, next.pools(chainId));
  const oldIndex = before.chain(chainId)!;
  const weth = catalog.chain(chainId)!.wrappedNativeToken.toLowerCase();
  for (const side of [gone.token0.toLowerCase(), gone.token1.toLowerCase()]) {
    t.notOk(
      derived.poolsOf(side).some((e) => e.address === gone.address),
      `the removed pool left ${side}'s pools`,
    );
    t.ok(
      oldIndex.poolsOf(side).some((e) => e.address === gone.address),
      `the old index still lists it under ${side}`,
    );
  }
  const unchangedEntry = derived.poolsOf(weth).find((e) => e.address !== v2.address && e.address !== v3.address)!;
  t.equal(
    unchangedEntry,
    oldIndex.poolsOf(weth).find((e) => e.address === unchangedEntry.address),
    'unchanged entries are shared with the old index',
  );

  const tokens = catalog.chain(chainId)!.tokens.map((x) => x.address.toLowerCase());
  let compared = 0;
  for (const tokenIn of tokens) {
    for (const tokenOut of tokens) {
      if (tokenIn === tokenOut) continue;
      for (const amount of [10n ** 15n, 10n ** 21n]) {
        const request = {
          tokenIn,
          tokenOut,
          tradeType: 'exactIn' as const,
          amount,
          maxHops: 2,
          maxSplits: 2,
          gasPriceWei: 0n,
          allow: () => true,
        };
        const a = bestTrade(derived, request);
        const b = bestTrade(fresh, request);
        if (a.ok !== b.ok || (a.ok && b.ok && (a.trade.amountOut !== b.trade.amountOut || a.trade.amountIn !== b.trade.amountIn))) {
          t.fail(`${tokenIn} -> ${tokenOut} ${amount}: derived and fresh indexes disagree`);
        }
        compared++;
      }
    }
  }
  t.ok(compared > 50, `derived index prices as a fresh one in ${compared} searches`);
});

t.test('a full update replaces the chain’s pools, even when not newer', async (t) => {
  const before = pricingGraphOf(graph, catalog);
  before.chain(chainId);
  const kept = pools.filter((p) => p !== gone && p !== v2);
  const full: BlockUpdate = { ...update, blockNumber: base.blockNumber - 1, pools: [...kept, v2After], removed: [], full: true };
  const next = graph.withUpdate(full);
  derivePricingGraph(graph, next, full);
  t.same(
    next
      .pools(chainId)
      .map((p) => p.address)
      .sort(),
    [...kept, v2After].map((p) => p.address).sort(),
    'exactly the listed pools: one the update leaves out is gone',
  );
  t.equal(next.pool(chainId, v2.address), v2After, 'each the update’s state');
  t.equal(next.snapshot(chainId)!.blockNumber, base.blockNumber - 1, 'applied although older than the state');
  t.equal(next.snapshot(31338), graph.snapshot(31338), 'another chain is shared');
  const index = pricingGraphOf(next, catalog).chain(chainId)!;
  for (const side of [gone.token0.toLowerCase(), gone.token1.toLowerCase()])
    t.notOk(
      index.poolsOf(side).some((e) => e.address === gone.address),
      `the pricing index lists the left-out pool under ${side} no more`,
    );
});

t.test('a derived index keeps every pool list in the order a fresh index sorts it', async (t) => {
  // Every v2 pool's reserves scaled (its depth, hence its place in each list, moves), one pool removed.
  const scaled = pools
    .filter((p): p is SnapshotPoolV2 => p.version === 'v2' && p !== gone)
    .map((p, i) => ({
      ...p,
      reserve0: String((BigInt(p.reserve0) * BigInt(3 + (i % 5))) / 4n),
      reserve1: String((BigInt(p.reserve1) * BigInt(3 + (i % 5))) / 4n),
    }));
  const next = graph.withUpdate({ ...update, pools: scaled });
  const derived = new ChainPoolIndex(catalog.chain(chainId)!, pools).withChanges(scaled, [gone.address]);
  const fresh = new ChainPoolIndex(catalog.chain(chainId)!, next.pools(chainId));
  const tokens = [...new Set(pools.flatMap((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()]))];
  const names = (list: readonly { address: string }[]) => list.map((e) => e.address);
  let lists = 0;
  for (const a of tokens) {
    t.same(names(derived.poolsOf(a)), names(fresh.poolsOf(a)), `${a}: its pools`);
    t.same(names(derived.basePoolsOf(a)), names(fresh.basePoolsOf(a)), `${a}: its pools to base tokens`);
    lists += 2;
    for (const b of tokens) {
      if (a >= b) continue;
      t.same(names(derived.pairPools(a, b)), names(fresh.pairPools(b, a)), `${a}/${b}: the pair's pools`);
      lists++;
    }
  }
  t.ok(scaled.length > 5 && lists > 20, `${lists} lists compared after ${scaled.length} pools changed`);
});

t.test('a long chain of blocks gives the graph and index a fresh load of the same pools gives', async (t) => {
  // 200 blocks of 1-3 changed pools each, now and then one removed (and later created again) or one outside the
  // catalogue: enough for the layered maps to fold and merge their tiers many times over 20 pools. After each block
  // the graph reads exactly as one built from a snapshot of the same pools; every 20 blocks the derived pricing index
  // lists exactly what an index built afresh over them (with the same USD prices: a derived index keeps its first
  // state's) lists, each list in the same order with the same entries' scores.
  const chain = catalog.chain(chainId)!;
  const prices = usdPrices(chain, pools, (a) => chain.tokens.find((x) => x.address.toLowerCase() === a.toLowerCase()));
  const tokens = [...new Set(pools.flatMap((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()]))];
  const oracle = new Map(pools.map((p) => [p.address, p]));
  const removed = new Map<string, SnapshotPool>();
  let current = graph;
  let index = new ChainPoolIndex(chain, pools, undefined, prices);
  let seed = 5;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  let graphProblems = 0;
  let indexProblems = 0;
  let lists = 0;
  for (let block = 1; block <= 200; block++) {
    const changed: SnapshotPool[] = [];
    const gone: string[] = [];
    for (let i = 0, n = 1 + random(3); i < n; i++) {
      const p = [...oracle.values()][random(oracle.size)];
      if (changed.some((c) => c.address === p.address)) continue;
      // Deeper or shallower (balances move the pool's place in its lists), and a state change of its own.
      const balance0 = String((BigInt(p.balance0) * BigInt(900 + random(200))) / 1000n);
      changed.push(
        p.version === 'v2'
          ? { ...p, balance0, reserve0: balance0, reserve1: String((BigInt(p.reserve1) * 999n) / 1000n) }
          : p.version === 'v3'
            ? { ...p, balance0, liquidity: String(BigInt(p.liquidity) + BigInt(block)) }
            : { ...p, balance0 },
      );
    }
    if (block % 7 === 0) {
      const p = [...oracle.values()].find((x) => !changed.some((c) => c.address === x.address))!;
      gone.push(p.address);
      removed.set(p.address, p);
    } else if (block % 7 === 3 && removed.size > 0) {
      const [address, p] = [...removed][0];
      removed.delete(address);
      changed.push(p);
    }
    // A pool of a DEX the catalogue does not list: left out, as at load.
    const outside = block % 11 === 0 ? [{ ...v2, address: `0x${block.toString(16).padStart(40, 'f')}`, dex: 'not-listed' }] : [];
    const snapshot = current.snapshot(chainId)!;
    const next = current.withUpdate({
      ...update,
      blockNumber: snapshot.blockNumber + 1,
      blockTimestamp: snapshot.blockTimestamp + 12,
      pools: [...changed, ...outside],
      removed: gone,
    });
    for (const p of changed) oracle.set(p.address, p);
    for (const a of gone) oracle.delete(a);
    index = index.withChanges(changed, gone);
    current = next;
    const fresh = new PoolGraph([{ ...base, ...next.snapshot(chainId)!, pools: [...oracle.values()] }], catalog);
    const byAddress = new Map(next.pools(chainId).map((p) => [p.address, p]));
    const everyAddress = [...new Set([...pools.map((p) => p.address), ...oracle.keys(), ...outside.map((p) => p.address)])];
    if (
      byAddress.size !== next.pools(chainId).length ||
      byAddress.size !== fresh.pools(chainId).length ||
      !fresh.pools(chainId).every((p) => byAddress.get(p.address) === p) ||
      !everyAddress.every((a) => next.pool(chainId, a) === fresh.pool(chainId, a))
    ) {
      graphProblems++;
      t.fail(`block ${block}: the graph reads otherwise than a fresh load of its pools`);
    }
    if (block % 20 !== 0) continue;
    const freshIndex = new ChainPoolIndex(chain, fresh.pools(chainId), undefined, prices);
    const names = (list: readonly { address: string; score: number }[]) => list.map((e) => `${e.address}@${e.score}`).join(' ');
    for (const a of tokens) {
      const pairs = tokens.filter((b) => b !== a).map((b) => [index.pairPools(a, b), freshIndex.pairPools(a, b)] as const);
      for (const [x, y] of [
        [index.poolsOf(a), freshIndex.poolsOf(a)] as const,
        [index.basePoolsOf(a), freshIndex.basePoolsOf(a)] as const,
        ...pairs,
      ]) {
        lists++;
        if (names(x) !== names(y)) {
          indexProblems++;
          t.fail(`block ${block}, ${a}: a derived list differs from the fresh index's`);
        }
      }
    }
  }
  t.equal(graphProblems, 0, 'after each of 200 blocks the graph reads as a fresh load of the same pools');
  t.equal(indexProblems, 0, `the derived index's ${lists} lists (every 20 blocks) equal a fresh index's`);
  t.equal(current.pools(chainId).length, oracle.size, `${oracle.size} pools at the end (${removed.size} removed)`);
});
