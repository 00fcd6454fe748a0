// The follower against a devnet of its own, mined on demand: after every block of random trading (v3 swaps both
// ways crossing ticks, mints and burns around and away from the price, v2 adds, removes and swaps, a new v3 pool
// for a catalogued pair), every followed pool equals a fresh seeding run at that block, field by field. A reorg
// (evm_snapshot / evm_revert, another branch) rolls back to a state equal to a fresh seed at the new head; one deeper
// than the undo history re-seeds. A catch-up through an endpoint that refuses wide eth_getLogs ranges halves them.

import { createServer } from 'node:http';
import { pino } from 'pino';
import t, { type Test } from 'tap';
import { getAddress } from 'viem';
import { v3PoolAddress } from '../../seeds/devnet/devnetAddresses.ts';
import { DevnetTrader } from '../../seeds/devnet/devnetTrader.ts';
import { discoveryCandidates } from '../../src/chain/discoveryPairs.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import { startSeededDevnet } from '../helpers/followDevnet.ts';

const SEED = Number(process.env.FOLLOW_TEST_SEED ?? 13);
const BLOCKS = 24;
const { devnet, snapshotDir, catalog, chain, seedNow } = await startSeededDevnet(t.teardown.bind(t), 'sqs-follow-');
const logger = pino({ level: 'silent' });

/** Field-by-field equality of the followed state and a fresh seed (pool list, then each pool). */
function sameState(tt: Test, followed: Snapshot, seeded: Snapshot, label: string): boolean {
  let ok = tt.equal(followed.blockNumber, seeded.blockNumber, `${label}: block`);
  ok =
    tt.same(
      followed.pools.map((p) => p.address),
      seeded.pools.map((p) => p.address),
      `${label}: the same pools`,
    ) && ok;
  const byAddress = new Map(seeded.pools.map((p) => [p.address.toLowerCase(), p]));
  for (const p of followed.pools) {
    const s = byAddress.get(p.address.toLowerCase());
    if (s && JSON.stringify(p) !== JSON.stringify(s)) ok = tt.same(p, s, `${label}: pool ${p.address} equals the seed`) && ok;
  }
  return ok;
}

const start = await seedNow();
const trader = new DevnetTrader(devnet, SEED);
await trader.setUp(start.pools);
const updates: BlockUpdate[] = [];
const follower = new ChainFollower({ chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger, follow: false, undoDepth: 8 }, (u) => {
  updates.push(u);
});
await follower.start();

t.test('every block of random trading: followed state equals a fresh seed at that block', async (tt) => {
  const existing = new Set(start.pools.map((p) => `${p.token0}/${p.token1}/${p.fee}`.toLowerCase()));
  // Two catalogued v3 pools the seed did not find: one created and initialized in one block, one initialized three
  // blocks after its creation (until then a seed drops it as not initialized, and the follower holds it pending).
  const [fresh, late] = discoveryCandidates(chain).filter(
    (c) => c.version === 'v3' && !existing.has(`${c.token0}/${c.token1}/${c.fee}`.toLowerCase()),
  );
  const address = (c: typeof fresh) =>
    v3PoolAddress(getAddress(c!.factory), c!.token0, c!.token1, c!.fee, devnet.addresses.poolInitCodeHash);
  const newPool = address(fresh);
  const latePool = address(late);
  let failures = 0;
  for (let b = 0; b < BLOCKS; b++) {
    await trader.queue(follower.snapshot(), 6);
    if (b === 5) await trader.queueNewPool(fresh!.token0, fresh!.token1, fresh!.fee, newPool);
    if (b === 8) await trader.queueNewPool(late!.token0, late!.token1, late!.fee, latePool, false);
    if (b === 11) await trader.queueInitialize(latePool);
    await trader.mine();
    await follower.step();
    if (!sameState(tt, follower.snapshot(), await seedNow(), `block ${b}`)) failures++;
    if (failures > 2) break;
    if (b === 8)
      tt.notOk(
        follower.snapshot().pools.some((p) => p.address === latePool),
        'a created pool is not followed before it is initialized',
      );
  }
  const m = follower.metrics;
  tt.ok(m.events > BLOCKS * 3, `events applied (${m.events})`);
  tt.comment(`follower metrics: ${JSON.stringify(m)}`);
  tt.ok(
    follower.snapshot().pools.some((p) => p.address === newPool),
    'the new catalogued pool is followed',
  );
  tt.ok(
    updates.some((u) => u.pools.some((p) => p.address === newPool)),
    'and delivered in a BlockUpdate',
  );
  tt.ok(
    follower.snapshot().pools.some((p) => p.address === latePool),
    'the pool initialized after its creation block is followed',
  );
  const last = updates.at(-1)!;
  tt.equal(last.blockNumber, follower.status().appliedBlock, 'the last update is the applied block');
});

t.test('a reorg within the undo history rolls back and follows the new branch', async (tt) => {
  const id = await trader.rpc<string>('evm_snapshot');
  for (let b = 0; b < 3; b++) {
    await trader.queue(follower.snapshot(), 5);
    await trader.mine();
    await follower.step();
  }
  const before = follower.metrics.reorgs;
  await trader.rpc('evm_revert', [id]);
  for (let b = 0; b < 4; b++) {
    await trader.queue(await seedNow(), 5);
    await trader.mine();
  }
  await follower.step();
  tt.equal(follower.metrics.reorgs, before + 1, 'one reorg');
  tt.ok(updates.at(-1)!.reorg, 'delivered as a reorg update');
  sameState(tt, follower.snapshot(), await seedNow(), 'after the reorg');
});

t.test('a reorg deeper than the undo history re-seeds', async (tt) => {
  const id = await trader.rpc<string>('evm_snapshot');
  for (let b = 0; b < 10; b++) {
    await trader.queue(follower.snapshot(), 3);
    await trader.mine();
    await follower.step();
  }
  await trader.rpc('evm_revert', [id]);
  for (let b = 0; b < 11; b++) {
    await trader.queue(await seedNow(), 3);
    await trader.mine();
  }
  await follower.step();
  sameState(tt, follower.snapshot(), await seedNow(), 'after the re-seed');
  tt.ok(updates.at(-1)!.reorg && updates.at(-1)!.pools.length === follower.snapshot().pools.length, 'every pool delivered');
});

t.test('catch-up through an endpoint refusing ranges wider than 4 blocks halves them', async (tt) => {
  let refused = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const msg = JSON.parse(body) as { id: number; method: string; params: { fromBlock?: string; toBlock?: string }[] };
      const p = msg.params?.[0];
      if (msg.method === 'eth_getLogs' && p?.fromBlock && Number(p.toBlock) - Number(p.fromBlock) > 3) {
        refused++;
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'block range too large' } }));
        return;
      }
      void fetch(devnet.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (r) =>
        res.end(await r.text()),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  tt.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const late = new ChainFollower(
    { chain, rpcUrl: url, snapshotDir, catalog, logger, follow: false, startFrom: start, catchUpRange: 64 },
    () => {},
  );
  await late.start();
  tt.ok(refused > 0, `ranges refused and halved (${refused})`);
  sameState(tt, late.snapshot(), await seedNow(), 'caught up');
});
