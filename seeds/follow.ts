/**
 * `npm run follow`: the follower as its own process for several API instances. Follows every catalogue chain with an
 * RPC_URL_<chainId> (from the newest snapshot in SNAPSHOT_DIR, which it refreshes every FOLLOW_SNAPSHOT_EVERY blocks)
 * and publishes each block's BlockUpdate to the chain's Redis Stream (REDIS_URL, REDIS_KEY_PREFIX; src/follow/
 * followStream.ts), plus a heartbeat at every head poll. Instances with FOLLOW_STREAM=true read the streams.
 * Entries beyond FOLLOW_STREAM_MAXLEN per chain (default 100,000) are trimmed, oldest first.
 */
import { createClient } from '@keyv/redis';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { loadConfig } from '../src/config.ts';
import { type FollowHeartbeat, followHeadKey, followStreamKey } from '../src/follow/followStream.ts';
import type { BlockUpdate } from '../src/graph/blockUpdate.ts';
import { createLogger } from '../src/logger.ts';
import { startFollowers } from '../src/follow/startFollowers.ts';

const MAXLEN = Number(process.env.FOLLOW_STREAM_MAXLEN ?? 100_000);

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, FOLLOW: 'true' });
  const logger = createLogger(config.logLevel);
  if (!config.redisUrl) throw new Error('npm run follow needs REDIS_URL: it publishes to Redis Streams');
  const catalog = loadCatalog(config.catalogDir);
  const client = createClient({
    url: config.redisUrl,
    socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on('error', () => undefined);
  await client.connect();

  /** Publishes one block, retrying while Redis is down (the follower waits: no block is skipped). */
  const publish = async (update: BlockUpdate): Promise<void> => {
    for (let delay = 100; ; delay = Math.min(delay * 2, 5000)) {
      try {
        await client.xAdd(
          followStreamKey(config.redisKeyPrefix, update.chainId),
          '*',
          { update: JSON.stringify(update) },
          { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: MAXLEN } },
        );
        return;
      } catch (err) {
        logger.warn(
          { chainId: update.chainId, block: update.blockNumber, err: (err as Error).message, retryInMs: delay },
          'publishing a block failed; retrying',
        );
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };
  const followers = await startFollowers(
    {
      catalog,
      snapshotDir: config.snapshotDir,
      rpcUrls: Object.fromEntries(config.rpcUrls),
      logger,
      pollIntervalMs: config.followPollMs,
      undoDepth: config.followUndoDepth,
      snapshotEveryBlocks: config.followSnapshotEvery,
    },
    publish,
  );
  if (followers.length === 0) throw new Error('no chain could be followed (see the log)');
  logger.info({ chains: followers.map((f) => f.status()) }, 'following chains; publishing to Redis Streams');
  const beat = setInterval(() => {
    for (const f of followers) {
      const s = f.status();
      const value: FollowHeartbeat = { head: s.headBlock, applied: s.appliedBlock, at: s.lastHeadAt };
      client.set(followHeadKey(config.redisKeyPrefix, s.chainId), JSON.stringify(value)).catch(() => undefined);
    }
  }, config.followPollMs);
  const stop = (): void => {
    clearInterval(beat);
    void Promise.allSettled(followers.map((f) => f.stop())).then(() => {
      client.destroy();
      logger.info('closed');
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`follow failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
