/**
 * `npm run follow`: the follower as its own process for several API instances. Follows every catalogue chain with an
 * RPC_URL_<chainId> (new heads by subscription when the chain has a WebSocket URL: RPC_WS_URL_<chainId> or a ws(s)://
 * RPC_URL; from the chain's served snapshot: the newer of SNAPSHOT_DIR's and the shipped one; it writes one to
 * SNAPSHOT_DIR every FOLLOW_SNAPSHOT_EVERY blocks, by default about 5 minutes of blocks)
 * and publishes each block's BlockUpdate to the chain's Redis Stream (REDIS_URL, REDIS_KEY_PREFIX; src/follow/
 * followStream.ts), plus a heartbeat at every head poll, and announces the chains it publishes (replacing what an
 * earlier run announced: one follower process per REDIS_KEY_PREFIX). Instances with FOLLOW_STREAM=true read the
 * streams of the announced chains.
 * Entries beyond FOLLOW_STREAM_MAXLEN per chain (default 100,000) are trimmed, oldest first.
 */
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { loadConfig } from '../src/config.ts';
import { FollowStreamWriter } from '../src/follow/followStream.ts';
import { startFollowers } from '../src/follow/startFollowers.ts';
import { createLogger } from '../src/logger.ts';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, FOLLOW: 'true' });
  const logger = createLogger(config.logLevel);
  if (!config.redisUrl) throw new Error('npm run follow needs REDIS_URL: it publishes to Redis Streams');
  const catalog = loadCatalog(config.catalogDir);
  const writer = new FollowStreamWriter({ url: config.redisUrl, prefix: config.redisKeyPrefix, maxLen: config.followStreamMaxLen, logger });
  await writer.connect();

  const followers = await startFollowers(
    {
      catalog,
      snapshotDir: config.snapshotDir,
      shippedSnapshotDir: config.shippedSnapshotDir,
      rpcUrls: Object.fromEntries(config.rpcUrls),
      rpcWsUrls: Object.fromEntries(config.rpcWsUrls),
      logger,
      pollIntervalMs: config.followPollMs,
      undoDepth: config.followUndoDepth,
      snapshotEveryBlocks: config.followSnapshotEvery,
    },
    (update) => writer.publish(update),
  );
  if (followers.length === 0) throw new Error('no chain could be followed (see the log)');
  // Instances follow (and gate readiness on) exactly the announced chains.
  await writer.announce(followers.map((f) => f.status().chainId));
  logger.info({ chains: followers.map((f) => f.status()) }, 'following chains; publishing to Redis Streams');
  const beat = setInterval(
    () => {
      for (const f of followers) {
        const s = f.status();
        writer.heartbeat(s.chainId, { head: s.headBlock, applied: s.appliedBlock, at: s.lastHeadAt });
      }
    },
    Math.min(...followers.map((f) => f.schedule.pollIntervalMs)),
  );
  const stop = (): void => {
    clearInterval(beat);
    void Promise.allSettled(followers.map((f) => f.stop())).then(() => {
      writer.close();
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
