/**
 * `npm run bench:follow`: the chain follower on a devnet of its own (src/follow/). Figures: catch-up speed (blocks
 * and events per second over blocks with trading and empty ones), apply cost per event (PoolProtocol.applyEvent,
 * pure, µs), RPC requests per followed block in steady state (the follower's counting transport), and memory
 * (heapUsed / RSS) after 10,000 followed blocks beside memory at the start of following.
 * FOLLOW_BENCH_BLOCKS (default 10000) sets the followed blocks.
 */
import { join } from 'node:path';
import { pino } from 'pino';
import { DevnetTrader } from '../seeds/devnet/devnetTrader.ts';
import { startDevnet } from '../seeds/devnet/startDevnet.ts';
import type { CatalogChain } from '../src/catalog/Catalog.ts';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { multicallRunner, readPoolStates } from '../src/chain/readPoolStates.ts';
import { seedChains } from '../src/chain/seedChains.ts';
import { createSeedRpc } from '../src/chain/seedRpc.ts';
import { ChainFollower } from '../src/follow/ChainFollower.ts';
import type { RpcLog } from '../src/follow/poolBook.ts';
import { type SnapshotPool, snapshotProtocol } from '../src/protocols/registry.ts';

const FOLLOWED = Number(process.env.FOLLOW_BENCH_BLOCKS ?? 10_000);
const devnet = await startDevnet();
try {
  const catalog = loadCatalog(join(import.meta.dirname, '..', 'catalog'));
  const chain = catalog.chain(devnet.chainId) as CatalogChain;
  const logger = pino({ level: 'silent' });
  const seed = async () =>
    (
      await seedChains({
        chains: [chain],
        rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
        snapshotDir: '/nonexistent',
        write: false,
        progress: 'none',
        log: () => {},
      })
    ).chains[0].snapshot!;
  const start = await seed();
  const trader = new DevnetTrader(devnet, 7);
  await trader.setUp(start.pools);
  const driver = new ChainFollower(
    { chain, rpcUrl: devnet.rpcUrl, snapshotDir: '/nonexistent', catalog, logger, follow: false, startFrom: await seed() },
    () => {},
  );
  await driver.start();

  // History to catch up on: 200 blocks with 6 actions each, then 2,000 empty blocks.
  const fromSeed = await seed();
  const from = fromSeed.blockNumber;
  for (let b = 0; b < 200; b++) {
    await trader.queue(driver.snapshot(), 6);
    await trader.mine();
    await driver.step();
  }
  await trader.rpc('anvil_mine', ['0x7d0']);
  const catchUp = new ChainFollower(
    { chain, rpcUrl: devnet.rpcUrl, snapshotDir: '/nonexistent', catalog, logger, follow: false, startFrom: fromSeed },
    () => {},
  );
  const t0 = performance.now();
  await catchUp.start();
  const seconds = (performance.now() - t0) / 1000;
  const cm = catchUp.metrics;
  console.log(
    `catch-up: ${cm.blocks} blocks, ${cm.events} events, ${cm.rereads} re-reads in ${seconds.toFixed(2)} s: ${(cm.blocks / seconds).toFixed(0)} blocks/s, ${(cm.events / seconds).toFixed(0)} events/s, ${cm.rpcRequests} RPC requests`,
  );

  // Apply cost: every log of the traded range applied to its pool's state at the start (read with liquidityGross, as
  // the follower keeps it), in order, repeated.
  const { client } = createSeedRpc({ url: devnet.rpcUrl, retries: 0, backoffMs: 100, timeoutMs: 10_000 });
  const run = multicallRunner(client, {
    multicall3: devnet.addresses.multicall3,
    blockNumber: BigInt(from),
    batchSize: 500,
    concurrency: 4,
  });
  const read = await readPoolStates(
    run,
    fromSeed.pools.map((p) => ({
      address: p.address as `0x${string}`,
      dex: p.dex,
      version: p.version,
      token0: p.token0 as `0x${string}`,
      token1: p.token1 as `0x${string}`,
      fee: p.fee,
    })),
    fromSeed.tickWindowWords,
  );
  const logs = await trader.rpc<RpcLog[]>('eth_getLogs', [
    { fromBlock: `0x${(from + 1).toString(16)}`, toBlock: `0x${(from + 200).toString(16)}` },
  ]);
  const base = new Map<string, SnapshotPool>(read.pools.map((p) => [p.address.toLowerCase(), p]));
  const poolLogs = logs.filter((l) => base.has(l.address.toLowerCase()));
  // One pass in log order collects the (state, log) pairs that apply (a re-read outcome leaves that pool out from
  // there on: without the chain read its state would diverge); the timed rounds apply exactly those pairs.
  const pairs: [SnapshotPool, RpcLog][] = [];
  const state = new Map<string, SnapshotPool>(base);
  const dropped = new Set<string>();
  for (const log of poolLogs) {
    const a = log.address.toLowerCase();
    if (dropped.has(a)) continue;
    const out = snapshotProtocol(state.get(a)!.version).applyEvent(state.get(a)!, log, { tickWindowWords: fromSeed.tickWindowWords });
    if (!out.ok) {
      dropped.add(a);
      continue;
    }
    pairs.push([state.get(a)!, log]);
    state.set(a, out.state);
  }
  const rounds = 50;
  const ctx = { tickWindowWords: fromSeed.tickWindowWords };
  const a0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const [s0, log] of pairs) snapshotProtocol(s0.version).applyEvent(s0, log, ctx);
  const us = ((performance.now() - a0) * 1000) / (rounds * pairs.length);
  console.log(
    `apply: ${pairs.length} of ${poolLogs.length} pool events applied in order (${dropped.size} pools left the replay at a re-read outcome) x ${rounds} rounds: ${us.toFixed(2)} µs per event`,
  );

  // Steady state and memory: FOLLOWED blocks, one step per block, trading in every 100th.
  await driver.step();
  global.gc?.();
  const mem0 = process.memoryUsage();
  const r0 = driver.metrics.rpcRequests;
  const b0 = driver.metrics.blocks;
  const s0 = performance.now();
  for (let b = 0; b < FOLLOWED; b++) {
    if (b % 100 === 0) await trader.queue(driver.snapshot(), 4);
    if (b % 100 === 0) await trader.mine();
    else await trader.rpc('anvil_mine', ['0x1']);
    await driver.step();
  }
  const followSeconds = (performance.now() - s0) / 1000;
  global.gc?.();
  const mem1 = process.memoryUsage();
  const dm = driver.metrics;
  const mb = (n: number): string => (n / 1048576).toFixed(1);
  console.log(
    `steady state: ${dm.blocks - b0} blocks followed one step each in ${followSeconds.toFixed(1)} s, ${((dm.rpcRequests - r0) / (dm.blocks - b0)).toFixed(2)} RPC requests per block`,
  );
  console.log(
    `memory: heapUsed ${mb(mem0.heapUsed)} MB -> ${mb(mem1.heapUsed)} MB, RSS ${mb(mem0.rss)} MB -> ${mb(mem1.rss)} MB (after ${dm.blocks - b0} followed blocks${global.gc ? ', after gc' : ''})`,
  );
} finally {
  await devnet.stop();
}
