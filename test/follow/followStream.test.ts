// The follower process's Redis Stream writer, read back with a plain Redis client (the independent view): each
// published block is one entry of its chain's stream, field `update` = the BlockUpdate JSON, in order; the heartbeat
// is the chain's head key; an API instance's FollowStreamReader applies what was written, in order; and with Redis
// down, publish waits and delivers once Redis is back (no block skipped).
import pino from 'pino';
import t from 'tap';
import { FollowStreamReader, FollowStreamWriter, followHeadKey, followStreamKey } from '../../src/follow/followStream.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { OwnRedisServer, redisServerOrSkip, sharedRedisPrefix, sharedRedisUrl, withRawClient } from '../helpers/redis.ts';

const logger = pino({ level: 'silent' });

function update(chainId: number, blockNumber: number): BlockUpdate {
  return {
    chainId,
    blockNumber,
    blockHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
    parentHash: `0x${(blockNumber - 1).toString(16).padStart(64, '0')}`,
    blockTimestamp: 1_700_000_000 + blockNumber,
    gasPriceWei: '1000000007',
    pools: [],
    removed: blockNumber % 2 === 0 ? ['0x00000000000000000000000000000000000000aa'] : [],
  };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

t.test('entries and heartbeat as written, and a reader applies them in order', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'follow-writer');
  if (!prefix) return;
  const writer = new FollowStreamWriter({ url: sharedRedisUrl, prefix, maxLen: 1000, logger });
  await writer.connect();
  t.teardown(() => writer.close());
  const published = [update(7, 11), update(7, 12), update(9, 3)];
  for (const u of published) await writer.publish(u);
  writer.heartbeat(7, { head: 13, applied: 12, at: 1234 });

  const streams = await withRawClient(sharedRedisUrl, async (c) => ({
    7: (await c.xRange(`${prefix}:follow:7`, '-', '+')).map((e) => e.message),
    9: (await c.xRange(`${prefix}:follow:9`, '-', '+')).map((e) => e.message),
  }));
  t.same(streams[7], [{ update: JSON.stringify(published[0]) }, { update: JSON.stringify(published[1]) }], 'chain 7: two entries in order');
  t.same(streams[9], [{ update: JSON.stringify(published[2]) }], 'chain 9: its own stream');
  t.equal(followStreamKey(prefix, 7), `${prefix}:follow:7`, 'the key the reader reads');
  await until('the heartbeat', async () => (await withRawClient(sharedRedisUrl, (c) => c.get(`${prefix}:follow:7:head`))) !== null);
  t.same(
    JSON.parse((await withRawClient(sharedRedisUrl, (c) => c.get(followHeadKey(prefix, 7))))!),
    { head: 13, applied: 12, at: 1234 },
    'heartbeat',
  );

  const applied: BlockUpdate[] = [];
  const reader = new FollowStreamReader(
    { url: sharedRedisUrl, prefix, chainIds: [7, 9], logger, blockMs: 50 },
    (u) => applied.push(u),
    () => 0,
  );
  reader.start();
  t.teardown(() => reader.stop());
  await until('the reader', async () => applied.length === 3);
  t.same(
    applied.filter((u) => u.chainId === 7),
    published.slice(0, 2),
    'chain 7 applied in order',
  );
  t.same(
    applied.filter((u) => u.chainId === 9),
    published.slice(2),
    'chain 9 applied',
  );
});

t.test('Redis down: publish waits and delivers when it is back', async (t) => {
  const binary = redisServerOrSkip(t);
  if (!binary) return;
  const server = await OwnRedisServer.start(binary);
  t.teardown(() => server.kill());
  const writer = new FollowStreamWriter({ url: server.url, prefix: 'p', maxLen: 1000, logger });
  await writer.connect();
  t.teardown(() => writer.close());
  await writer.publish(update(1, 100));
  await server.kill();
  let delivered = false;
  const pending = writer.publish(update(1, 101)).then(() => {
    delivered = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.notOk(delivered, 'not delivered while Redis is down');
  await server.start();
  await pending;
  const entries = await withRawClient(server.url, (c) => c.xRange('p:follow:1', '-', '+'));
  // A server without persistence restarts empty: the entry published while it was down is the one there.
  t.same(
    entries.map((e) => e.message),
    [{ update: JSON.stringify(update(1, 101)) }],
    'delivered once Redis is back',
  );
});
