// A follower restart (issue 25, item 3). One follower follows a devnet from a seed snapshot while a catalogued v3
// pool the snapshot does not have (WBTC/WETH 0.05%) is created and traded; it stops; the chain moves on (more trades,
// or a reorg of the blocks it had followed); a second follower starts from the same snapshot (FOLLOW_SNAPSHOT_EVERY=0)
// or from the snapshot the first one wrote, and catches up. Both the follower's state and a consumer's (a PoolGraph
// fed every update either follower delivered, as an embedded API or a FOLLOW_STREAM instance applies them) equal a
// fresh seed at the head. Catch-up ranges of 1, 3 and 2000 blocks put the pool's creation, its initialisation and its
// later events at every position in a range; a pool created before the snapshot and initialised after it is found.
// A seed snapshot whose own block a reorg replaced is not used (its blockHash is not the chain's): the follower seeds
// afresh; the same snapshot without the hash leaves the follower wrong, so the check is what is tested.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pino } from 'pino';
import t, { type Test } from 'tap';
import { type Address, getAddress } from 'viem';
import { v3PoolAddress } from '../../seeds/devnet/devnetAddresses.ts';
import { DevnetTrader } from '../../seeds/devnet/devnetTrader.ts';
import { discoveryCandidates } from '../../src/chain/discoveryPairs.ts';
import { ChainFollower, type FollowerOptions } from '../../src/follow/ChainFollower.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadServedSnapshots, type Snapshot } from '../../src/graph/snapshot.ts';
import { startSeededDevnet } from '../helpers/followDevnet.ts';

const { devnet, snapshotDir, catalog, chain, seedNow } = await startSeededDevnet(t.teardown.bind(t), 'sqs-restart-');
const logger = pino({ level: 'silent' });

const byAddress = (pools: Snapshot['pools']) => [...pools].sort((a, b) => (a.address < b.address ? -1 : 1));

/** The followed state and every consumer's state equal a fresh seed at the head, pool by pool. */
async function sameAsSeed(tt: Test, label: string, follower: ChainFollower, consumers: Record<string, PoolGraph>): Promise<void> {
  const seed = await seedNow();
  const expected = byAddress(seed.pools);
  const states: Record<string, { block: number; pools: Snapshot['pools'] }> = {
    follower: { block: follower.snapshot().blockNumber, pools: byAddress(follower.snapshot().pools) },
  };
  for (const [name, graph] of Object.entries(consumers))
    states[name] = { block: graph.snapshot(chain.chainId)!.blockNumber, pools: byAddress(graph.pools(chain.chainId)) };
  for (const [name, s] of Object.entries(states)) {
    tt.equal(s.block, seed.blockNumber, `${label}: ${name} at the head`);
    tt.same(
      s.pools.map((p) => p.address),
      expected.map((p) => p.address),
      `${label}: ${name} has the seed's pools`,
    );
    const seeded = new Map(expected.map((p) => [p.address, p]));
    const wrong = s.pools.filter((p) => !isDeepStrictEqual(p, seeded.get(p.address)));
    tt.same(
      wrong.map((p) => p.address),
      [],
      `${label}: ${name}'s pools equal the seed's field by field`,
    );
    for (const p of wrong.slice(0, 2)) tt.same(p, seeded.get(p.address), `${label}: ${name} pool ${p.address}`);
  }
}

/** A consumer: the start snapshot's graph, fed updates in order (PoolGraph.withUpdate, as GraphHolder and workers). */
class Consumer {
  graph: PoolGraph;
  constructor(start: Snapshot) {
    this.graph = new PoolGraph([start], catalog);
  }
  readonly sink = (u: BlockUpdate): void => {
    this.graph = this.graph.withUpdate(u);
  };
}

const start = await seedNow();
const trader = new DevnetTrader(devnet, 25);
await trader.setUp(start.pools);
const existing = new Set(start.pools.map((p) => `${p.token0}/${p.token1}/${p.fee}`.toLowerCase()));
const missing = discoveryCandidates(chain).filter(
  (c) => c.version === 'v3' && !existing.has(`${c.token0}/${c.token1}/${c.fee}`.toLowerCase()),
);
const symbol = (a: string) => chain.tokens.find((x) => x.address.toLowerCase() === a.toLowerCase())?.symbol;
const wbtcWeth = missing.find((c) => c.fee === 500 && [symbol(c.token0), symbol(c.token1)].sort().join('/') === 'WBTC/WETH');
const others = missing.filter((c) => c !== wbtcWeth);
const poolOf = (c: (typeof missing)[number]): Address =>
  v3PoolAddress(getAddress(c.factory), c.token0, c.token1, c.fee, devnet.addresses.poolInitCodeHash);

const follower = (o: Partial<FollowerOptions>, sink: (u: BlockUpdate) => void) =>
  new ChainFollower({ chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger, follow: false, startFrom: start, ...o }, sink);

/** Mines a block of `count` random actions on `pools` (addresses) of the chain's current state, or on any pool. */
async function tradeBlock(count: number, pools?: readonly string[]): Promise<void> {
  const state = await seedNow();
  const chosen = pools ? { ...state, pools: state.pools.filter((p) => pools.includes(p.address)) } : state;
  if (chosen.pools.length > 0) await trader.queue(chosen, count);
  await trader.mine();
}

t.test('a pool created after the snapshot, traded, follower stopped, traded again, restarted', async (tt) => {
  tt.ok(wbtcWeth, 'WBTC/WETH 0.05% is a catalogued v3 pool the snapshot does not have');
  const created = poolOf(wbtcWeth!);
  const late = others[0];
  const latePool = poolOf(late);
  const a = new Consumer(start);
  const b = new Consumer(start);
  const first = follower({}, (u) => {
    a.sink(u);
    b.sink(u);
  });
  await first.start();
  // Created and initialised in one block, then minted into and swapped over three blocks.
  await trader.queueNewPool(wbtcWeth!.token0, wbtcWeth!.token1, wbtcWeth!.fee, created);
  await trader.mine();
  for (let i = 0; i < 3; i++) {
    await tradeBlock(4, [created]);
    await first.step();
  }
  tt.ok(
    first.snapshot().pools.some((p) => p.address === created),
    'the first follower follows the new pool',
  );
  // Stopped: six blocks of traffic on it and elsewhere; another pool created in one block, initialised three later.
  await tradeBlock(4, [created]);
  await trader.queueNewPool(late.token0, late.token1, late.fee, latePool, false);
  await tradeBlock(3);
  await tradeBlock(4, [created]);
  await tradeBlock(3);
  await trader.queueInitialize(latePool);
  await tradeBlock(4, [created]);
  await tradeBlock(4, [created, latePool]);
  for (const range of [2000, 3, 1]) {
    const consumer = range === 2000 ? a : range === 3 ? b : new Consumer(start);
    const restarted = follower({ catchUpRange: range }, consumer.sink);
    await restarted.start();
    await sameAsSeed(tt, `restarted with catch-up ranges of ${range}`, restarted, { [`consumer (range ${range})`]: consumer.graph });
  }
});

t.test('a pool created before the snapshot and initialised after it', async (tt) => {
  const c = others[1];
  const pool = poolOf(c);
  await trader.queueNewPool(c.token0, c.token1, c.fee, pool, false);
  await tradeBlock(2);
  const snapshot = await seedNow();
  tt.notOk(
    snapshot.pools.some((p) => p.address === pool),
    'a seed leaves out the pool not yet initialised',
  );
  await tradeBlock(2);
  await trader.queueInitialize(pool);
  await tradeBlock(2);
  await tradeBlock(4, [pool]);
  for (const range of [2000, 1]) {
    const consumer = new Consumer(snapshot);
    const restarted = follower({ startFrom: snapshot, catchUpRange: range }, consumer.sink);
    await restarted.start();
    await sameAsSeed(tt, `initialised after the snapshot, ranges of ${range}`, restarted, { consumer: consumer.graph });
  }
});

t.test('a reorg during the outage', async (tt) => {
  const c = others[2];
  const pool = poolOf(c);
  const base = await seedNow();
  const consumer = new Consumer(base);
  const dir = mkdtempSync(join(tmpdir(), 'sqs-restart-reorg-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = follower({ startFrom: base, snapshotDir: dir, snapshotEveryBlocks: 2 }, consumer.sink);
  await first.start();
  const id = await trader.rpc<string>('evm_snapshot');
  // The abandoned branch: a pool created and traded, trades elsewhere; followed and written to a snapshot.
  await trader.queueNewPool(c.token0, c.token1, c.fee, pool);
  await trader.mine();
  await first.step();
  for (let i = 0; i < 3; i++) {
    await tradeBlock(4, [pool]);
    await tradeBlock(3);
    await first.step();
  }
  const written = loadServedSnapshots({ snapshotDir: dir }).snapshots[0];
  tt.ok(written && written.blockNumber > base.blockNumber, `the first follower wrote a snapshot (block ${written?.blockNumber})`);
  // Stopped; the chain reorganises below every block it followed and moves on with other trades.
  await trader.rpc('evm_revert', [id]);
  for (let i = 0; i < 3; i++) await tradeBlock(4);
  const restarted = follower({ startFrom: undefined, snapshotDir: dir }, consumer.sink);
  await restarted.start();
  await sameAsSeed(tt, 'restarted from its own snapshot after a reorg', restarted, { consumer: consumer.graph });
  const fromSeed = new Consumer(base);
  const again = follower({ startFrom: base }, (u) => {
    consumer.sink(u);
    fromSeed.sink(u);
  });
  await again.start();
  await sameAsSeed(tt, 'restarted from the seed after a reorg', again, { consumer: consumer.graph, 'a fresh consumer': fromSeed.graph });
});

t.test("a reorg that replaces the seed's own block: the seed snapshot names its block hash, so the follower seeds afresh", async (tt) => {
  const id = await trader.rpc<string>('evm_snapshot');
  await tradeBlock(6);
  const seed = await seedNow();
  const hash = await trader.rpc<{ hash: string }>('eth_getBlockByNumber', [`0x${seed.blockNumber.toString(16)}`, false]);
  tt.equal(seed.blockHash, hash.hash, "the seeding run recorded its block's hash");
  // The seed's block is reorganised away: the same height holds other trades now, and the chain moves on.
  await trader.rpc('evm_revert', [id]);
  while (Number(await trader.rpc<string>('eth_blockNumber')) <= seed.blockNumber) await tradeBlock(6);
  const now = await trader.rpc<{ hash: string }>('eth_getBlockByNumber', [`0x${seed.blockNumber.toString(16)}`, false]);
  tt.not(now.hash, seed.blockHash, `block ${seed.blockNumber} is another block now`);
  const warnings: string[] = [];
  const watched = pino({ level: 'warn' }, { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) });
  const dir = mkdtempSync(join(tmpdir(), 'sqs-restart-seed-reorg-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const consumer = new Consumer(seed);
  const restarted = follower({ startFrom: seed, snapshotDir: dir, logger: watched }, consumer.sink);
  await restarted.start();
  tt.same(warnings, ["the start snapshot's block is no longer on the chain (reorg): seeding afresh"], 'the follower says why');
  await sameAsSeed(tt, 'started from a seed whose block was reorganised away', restarted, { consumer: consumer.graph });
  // The same snapshot without its hash (as seeding wrote before it recorded one) is taken at its word: the pools the
  // abandoned block traded keep that block's state, so the check is what keeps the follower right.
  const { blockHash: _, ...unchecked } = seed;
  const blind = follower({ startFrom: unchecked, snapshotDir: dir }, () => {});
  await blind.start();
  const fresh = new Map((await seedNow()).pools.map((p) => [p.address, p]));
  const wrong = blind.snapshot().pools.filter((p) => !isDeepStrictEqual(p, fresh.get(p.address)));
  tt.ok(wrong.length > 0, `without the hash: ${wrong.length} pool(s) differ from the chain`);
});
