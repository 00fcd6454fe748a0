// loadConfig's snapshot folders: seeding and the follower write SNAPSHOT_DIR, by default <DATA_DIR>/snapshots (outside
// the tracked files: .gitignore has .data/), and the shipped seeds/snapshots are the read-only layer beneath it
// (SHIPPED_SNAPSHOT_DIR, `none` for no layer). FOLLOW_STREAM_MAXLEN is read here, like every variable; the follower's
// WebSocket URLs and its per-chain defaults (FOLLOW_POLL_MS, FOLLOW_SNAPSHOT_EVERY unset) too.
import { join } from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig, projectRoot } from '../src/config.ts';

t.test('snapshot folders: defaults and overrides', async (t) => {
  const fresh = loadConfig({});
  t.equal(fresh.dataDir, join(projectRoot, '.data'));
  t.equal(fresh.snapshotDir, join(projectRoot, '.data', 'snapshots'), 'SNAPSHOT_DIR defaults to <DATA_DIR>/snapshots');
  t.equal(fresh.shippedSnapshotDir, join(projectRoot, 'seeds', 'snapshots'), 'the shipped folder beneath it');
  t.equal(loadConfig({ DATA_DIR: '/srv/sqs' }).snapshotDir, '/srv/sqs/snapshots', 'follows DATA_DIR');
  t.equal(loadConfig({ DATA_DIR: '/srv/sqs', SNAPSHOT_DIR: 'snaps' }).snapshotDir, join(projectRoot, 'snaps'), 'SNAPSHOT_DIR wins');
  t.equal(loadConfig({ SHIPPED_SNAPSHOT_DIR: 'none' }).shippedSnapshotDir, undefined, 'none: no shipped layer');
  t.equal(loadConfig({ SHIPPED_SNAPSHOT_DIR: '/opt/s' }).shippedSnapshotDir, '/opt/s');
});

t.test('FOLLOW_STREAM_MAXLEN', async (t) => {
  t.equal(loadConfig({}).followStreamMaxLen, 100_000);
  t.equal(loadConfig({ FOLLOW_STREAM_MAXLEN: '500' }).followStreamMaxLen, 500);
  t.throws(
    () => loadConfig({ FOLLOW_STREAM_MAXLEN: '0' }),
    new ConfigError('FOLLOW_STREAM_MAXLEN must be between 1 and 1000000000, got 0'),
  );
  t.throws(() => loadConfig({ FOLLOW_STREAM_MAXLEN: '1e5' }), new ConfigError('FOLLOW_STREAM_MAXLEN must be an integer, got "1e5"'));
});

t.test('follower heads and schedule: WebSocket URLs, per-chain defaults', async (t) => {
  const c = loadConfig({ RPC_URL_1: 'https://eth.example', RPC_WS_URL_1: 'wss://eth.example/ws', RPC_URL_10: 'ws://127.0.0.1:8546' });
  t.same(
    [...c.rpcUrls],
    [
      [1, 'https://eth.example'],
      [10, 'ws://127.0.0.1:8546'],
    ],
  );
  t.same(
    [...c.rpcWsUrls],
    [
      [1, 'wss://eth.example/ws'],
      [10, 'ws://127.0.0.1:8546'],
    ],
    'RPC_WS_URL_<id>, else a ws(s):// RPC_URL_<id>',
  );
  t.throws(() => loadConfig({ RPC_WS_URL_1: 'https://eth.example' }), new ConfigError('RPC_WS_URL_1 must be a ws:// or wss:// URL'));
  t.equal(c.followPollMs, undefined, 'FOLLOW_POLL_MS unset: per chain from its block time');
  t.equal(c.followSnapshotEvery, undefined, 'FOLLOW_SNAPSHOT_EVERY unset: per chain, about 5 minutes of blocks');
  t.equal(loadConfig({ FOLLOW_POLL_MS: '250' }).followPollMs, 250);
  t.equal(loadConfig({ FOLLOW_SNAPSHOT_EVERY: '0' }).followSnapshotEvery, 0, '0: never');
  t.throws(() => loadConfig({ FOLLOW_POLL_MS: '10' }), new ConfigError('FOLLOW_POLL_MS must be between 50 and 600000, got 10'));
});
