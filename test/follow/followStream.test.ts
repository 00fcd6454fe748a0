// The follower process's Redis Stream writer, read back with a plain Redis client (the independent view): each
// published block is one entry of its chain's stream, field `update` = the BlockUpdate JSON, in order; the heartbeat
// is the chain's head key; the announced chains are a set; an API instance's FollowStreamReader applies what was
// written, in order, for the announced chains it has a snapshot of, and gates readiness (chains()) on those only; and
// with Redis down, publish waits and delivers once Redis is back (no block skipped).
import pino from 'pino';
import t from 'tap';
import { FollowStreamReader, FollowStreamWriter, followChainsKey, followHeadKey, followStreamKey } from '../../src/follow/followStream.ts';
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

  await writer.announce([7, 9]);
  t.same(
    (await withRawClient(sharedRedisUrl, (c) => c.sMembers(`${prefix}:follow:chains`))).sort(),
    ['7', '9'],
    'the announced chains: a set of chain ids',
  );
  t.equal(followChainsKey(prefix), `${prefix}:follow:chains`, 'the key the reader reads');

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

t.test('a reader follows the announced chains only, from their announcement on', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'follow-announce');
  if (!prefix) return;
  const writer = new FollowStreamWriter({ url: sharedRedisUrl, prefix, maxLen: 1000, logger });
  await writer.connect();
  t.teardown(() => writer.close());
  // Streams of chains 7 and 9 exist (9 from an earlier follower run, say); the follower announces chain 7 only.
  for (const u of [update(7, 11), update(9, 3), update(9, 4)]) await writer.publish(u);
  await writer.announce([7]);

  const applied: BlockUpdate[] = [];
  const warnings: unknown[] = [];
  const spy = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
  // The instance has snapshots of chains 7, 9 and 11; chain 9's is at block 3.
  const reader = new FollowStreamReader(
    { url: sharedRedisUrl, prefix, chainIds: [7, 9, 11], logger: spy, blockMs: 50 },
    (u) => applied.push(u),
    (chainId) => (chainId === 9 ? 3 : 0),
  );
  t.same(reader.chains(), [], 'nothing announced seen yet: no chain gates readiness');
  reader.start();
  t.teardown(() => reader.stop());
  await until('chain 7', async () => applied.length === 1);
  t.same(applied, [update(7, 11)], "chain 7's entries applied; chain 9's stream is not read");
  t.same(
    reader.chains().map((c) => c.status.chainId),
    [7],
    'readiness: chain 7 only (9 and 11 have a snapshot and no follower)',
  );

  // The follower's heartbeat for chain 9 announces it too: its stream is read from the start, skipping block 3.
  writer.heartbeat(9, { head: 4, applied: 4, at: 5678 });
  await until('chain 9', async () => applied.length === 2);
  t.same(applied.slice(1), [update(9, 4)], 'chain 9 from its snapshot block on');
  t.same(
    reader.chains().map((c) => c.status.chainId),
    [7, 9],
  );

  // A follower restarted with chain 9 only replaces the announcement; one announcing a chain the instance has no
  // snapshot of is warned about once and left alone.
  await writer.announce([9, 12]);
  await until('the new announcement', async () => reader.chains().length === 1);
  t.same(
    reader.chains().map((c) => c.status.chainId),
    [9],
  );
  await until('the warning', async () => warnings.length > 0);
  t.match(warnings, [{ chainId: 12, msg: 'the follower publishes a chain this instance has no snapshot of; not applied' }]);
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
