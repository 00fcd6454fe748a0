// How the follower learns of new heads (issue 25, item 4). With a WebSocket URL it subscribes to newHeads: with the
// safety poll set to a minute, every mined block is still applied within seconds, each fetched by hash with its logs
// (two requests per block), and the state equals a fresh seed. Without settings the poll and snapshot interval come
// from the chain's block time, computed here from the blocks' own timestamps. A ws:// RPC URL alone serves requests too.
import { isDeepStrictEqual } from 'node:util';
import { pino } from 'pino';
import t from 'tap';
import { DevnetTrader } from '../../seeds/devnet/devnetTrader.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { startSeededDevnet } from '../helpers/followDevnet.ts';

const { devnet, snapshotDir, catalog, chain, seedNow } = await startSeededDevnet(t.teardown.bind(t), 'sqs-heads-');
const logger = pino({ level: 'silent' });

const start = await seedNow();
const trader = new DevnetTrader(devnet, 7);
await trader.setUp(start.pools);

t.test('new heads by WebSocket subscription', async (tt) => {
  const updates: BlockUpdate[] = [];
  let arrived: (() => void) | undefined;
  const follower = new ChainFollower(
    {
      chain,
      rpcUrl: devnet.rpcUrl,
      wsUrl: devnet.rpcUrl.replace(/^http/, 'ws'),
      snapshotDir,
      catalog,
      logger,
      startFrom: start,
      pollIntervalMs: 60_000,
      snapshotEveryBlocks: 0,
    },
    (u) => {
      updates.push(u);
      arrived?.();
    },
  );
  await follower.start();
  tt.teardown(() => follower.stop());
  tt.ok(follower.schedule.subscribed, 'subscribed to newHeads');
  const mineAndWait = async (label: string): Promise<void> => {
    const got = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${label} not applied within 5 s`)), 5000);
      arrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    await trader.mine();
    await got;
  };
  for (let i = 0; i < 5; i++) {
    await trader.queue(start, 3);
    await mineAndWait(`block ${i} of trades`);
  }
  const head = Number(await jsonRpc<string>(devnet.rpcUrl, 'eth_blockNumber', []));
  tt.equal(updates.at(-1)!.blockNumber, head, 'every mined block applied without a poll');
  // Blocks without pool events: what a block costs to learn of (re-reads of pools come on top when events need them).
  const before = follower.metrics.rpcRequests;
  const EMPTY = 5;
  for (let i = 0; i < EMPTY; i++) await mineAndWait(`empty block ${i}`);
  const requests = follower.metrics.rpcRequests - before;
  tt.ok(requests <= 2 * EMPTY + 1, `${requests} requests for ${EMPTY} blocks (each header by hash and its logs; one priority-fee read)`);
  const seed = await seedNow();
  tt.ok(isDeepStrictEqual(follower.snapshot().pools, seed.pools), 'the followed state equals a fresh seed at the head');
});

t.test('without settings, the poll and snapshot interval follow the block time', async (tt) => {
  const follower = new ChainFollower(
    { chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger, startFrom: start, follow: false },
    () => {},
  );
  await follower.start();
  const head = Number(await jsonRpc<string>(devnet.rpcUrl, 'eth_blockNumber', []));
  const time = async (n: number) =>
    Number((await jsonRpc<{ timestamp: string }>(devnet.rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).timestamp);
  const span = Math.min(64, head);
  const blockMs = Math.max(1, (((await time(head)) - (await time(head - span))) * 1000) / span);
  tt.same(
    { ...follower.schedule, subscribed: undefined },
    {
      pollIntervalMs: Math.min(1000, Math.max(100, Math.round(blockMs / 10))),
      snapshotEveryBlocks: Math.max(1, Math.round(300_000 / Math.max(250, blockMs))),
      subscribed: undefined,
    },
    `block time ${blockMs.toFixed(0)} ms`,
  );
});

t.test('a ws:// RPC URL alone: requests and heads over one WebSocket endpoint', async (tt) => {
  const ws = devnet.rpcUrl.replace(/^http/, 'ws');
  let arrived: (() => void) | undefined;
  const follower = new ChainFollower(
    { chain, rpcUrl: ws, wsUrl: ws, snapshotDir, catalog, logger, startFrom: start, pollIntervalMs: 60_000, snapshotEveryBlocks: 0 },
    () => arrived?.(),
  );
  await follower.start();
  tt.teardown(() => follower.stop());
  for (let i = 0; i < 3; i++) {
    await trader.queue(start, 3);
    const got = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`block ${i} not applied within 5 s`)), 5000);
      arrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    await trader.mine();
    await got;
  }
  const seed = await seedNow();
  tt.equal(follower.status().appliedBlock, seed.blockNumber, 'at the head');
  tt.ok(isDeepStrictEqual(follower.snapshot().pools, seed.pools), 'the followed state equals a fresh seed at the head');
});
