/**
 * `npm run bench:follow-lag`: the lag from a block being mined to quotes reflecting it, at one block per second on a
 * devnet of its own, for both ways of following: the API process with FOLLOW=true (embedded), and `npm run follow` +
 * an API instance with FOLLOW_STREAM=true over Redis (REDIS_URL or redis://127.0.0.1:6379). Each block carries a
 * few trades; the lag of a block is the time from evm_mine returning to the first POST /quotes/routes answer priced on
 * that block (polled every 5 ms). Each way is measured at default settings twice: new heads by WebSocket subscription
 * (RPC_WS_URL_<chainId>, anvil's ws:// on the same port) and by HTTP polling (the default poll from the chain's
 * block time). FOLLOW_POLL_MS, when set, is passed on (a polling comparison). FOLLOW_LAG_BLOCKS (default 20) blocks
 * per mode after 3 warm-up blocks; p50 / p99 / max printed (with 20 blocks p99 is the worst).
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevnetTrader } from '../seeds/devnet/devnetTrader.ts';
import { startDevnet } from '../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { seedChains } from '../src/chain/seedChains.ts';
import { deletePrefix, redisAnswers } from '../test/helpers/redis.ts';
import { type ServerProcess, startServer } from '../test/helpers/serverProcess.ts';

const BLOCKS = Number(process.env.FOLLOW_LAG_BLOCKS ?? 20);
const WARM_UP = 3;
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const POLL = process.env.FOLLOW_POLL_MS ? { FOLLOW_POLL_MS: process.env.FOLLOW_POLL_MS } : {};

const devnet = await startDevnet();
const snapshotDir = mkdtempSync(join(tmpdir(), 'bench-follow-lag-'));
const prefix = `bench-lag:${process.pid}:${randomBytes(4).toString('hex')}`;
const servers: ServerProcess[] = [];
try {
  const catalog = loadCatalog(join(import.meta.dirname, '..', 'catalog'));
  const chain = catalog.chain(devnet.chainId)!;
  const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!.address;
  const start = (
    await seedChains({
      chains: [chain],
      rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
      snapshotDir,
      progress: 'none',
      log: () => undefined,
    })
  ).chains[0].snapshot!;
  const trader = new DevnetTrader(devnet, 5);
  await trader.setUp(start.pools);
  const body = JSON.stringify({
    originChainId: chain.chainId,
    destinationChainId: chain.chainId,
    tokenIn: token('WETH'),
    tokenOut: token('USDC'),
    amount: '1.5',
    recipientAddress: '0x1111111111111111111111111111111111111111',
    maxHops: 1,
    maxSplits: 1,
  });
  const pricedBlock = async (api: ServerProcess): Promise<number> => {
    const res = await fetch(`${api.url}/quotes/routes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return ((await res.json()) as { data: { snapshot: { blockNumber: number } }[] }).data[0].snapshot.blockNumber;
  };

  async function measure(label: string, api: ServerProcess): Promise<void> {
    const lags: number[] = [];
    // The first blocks after a start warm up (JIT, the pricing index built on first use): not counted.
    for (let i = -WARM_UP; i < BLOCKS; i++) {
      const began = Date.now();
      await trader.queue(start, 3);
      await trader.mine();
      const mined = performance.now();
      const block = Number(await trader.rpc<string>('eth_blockNumber'));
      while ((await pricedBlock(api)) < block) await new Promise((r) => setTimeout(r, 5));
      if (i >= 0) lags.push(performance.now() - mined);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - began))));
    }
    lags.sort((a, b) => a - b);
    const q = (p: number): string => lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))].toFixed(0);
    console.log(
      `${label}: ${BLOCKS} blocks at 1 per second, lag from mined to quoted p50 ${q(50)} ms, p99 ${q(99)} ms, max ${lags.at(-1)!.toFixed(0)} ms (FOLLOW_POLL_MS=${POLL.FOLLOW_POLL_MS ?? 'default'})`,
    );
  }

  const common = { SNAPSHOT_DIR: snapshotDir, LOG_LEVEL: 'warn', ...POLL, DATA_DIR: snapshotDir, WORKER_THREADS: '1' };
  const http = { [`RPC_URL_${chain.chainId}`]: devnet.rpcUrl };
  const ws = { ...http, [`RPC_WS_URL_${chain.chainId}`]: devnet.rpcUrl.replace(/^http/, 'ws') };
  for (const [heads, rpc] of [
    ['WebSocket newHeads', ws],
    ['HTTP polling', http],
  ] as const) {
    const embedded = await startServer({
      env: { ...common, FOLLOW: 'true', ...rpc, REDIS_URL: '' },
      readyPath: '/healthz',
      output: 'tail',
      timeoutMs: 120_000,
    });
    servers.push(embedded);
    await measure(`embedded (FOLLOW=true), ${heads}`, embedded);
    await embedded.stop();
  }

  if (await redisAnswers(REDIS_URL)) {
    for (const [heads, rpc] of [
      ['WebSocket newHeads', ws],
      ['HTTP polling', http],
    ] as const) {
      const shared = { ...common, REDIS_URL, REDIS_KEY_PREFIX: `${prefix}:${heads.length}` };
      const follower = await startServer({
        entry: 'seeds/follow.ts',
        env: { ...shared, LOG_LEVEL: 'info', ...rpc },
        readyLog: 'following chains; publishing to Redis Streams',
        timeoutMs: 120_000,
      });
      servers.push(follower);
      const instance = await startServer({
        env: { ...shared, FOLLOW_STREAM: 'true' },
        readyPath: '/healthz',
        output: 'tail',
        timeoutMs: 120_000,
      });
      servers.push(instance);
      await measure(`npm run follow + FOLLOW_STREAM instance (Redis), ${heads}`, instance);
      await instance.stop();
      await follower.stop();
    }
  } else console.log(`streams: not measured, no Redis answers at ${REDIS_URL}`);
} finally {
  for (const s of servers) await s.stop().catch(() => undefined);
  for (const heads of ['WebSocket newHeads', 'HTTP polling'])
    await deletePrefix(REDIS_URL, `${prefix}:${heads.length}`).catch(() => undefined);
  await devnet.stop();
  rmSync(snapshotDir, { recursive: true, force: true });
}
