import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, so defaults work whatever the current directory is. */
export const projectRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Everything the service reads from the environment, parsed once. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly logLevel: LogLevel;
  readonly catalogDir: string;
  /**
   * Where the seeding run and the follower write snapshots; read at start, watched and reloaded (SNAPSHOT_DIR,
   * default `<DATA_DIR>/snapshots`, outside the tracked files). May not exist until something is seeded.
   */
  readonly snapshotDir: string;
  /**
   * The shipped cold-start snapshots, read only (SHIPPED_SNAPSHOT_DIR, default `seeds/snapshots`; `none`: no shipped
   * layer). Per chain the newer of its snapshot here and in snapshotDir is served (src/graph/snapshot.ts loadServedSnapshots).
   */
  readonly shippedSnapshotDir: string | undefined;
  readonly dataDir: string;
  /** Redis connection URL; undefined means in-memory quote store and file key store. */
  readonly redisUrl: string | undefined;
  /** Prefix of every Redis key the service writes (REDIS_KEY_PREFIX, default `sqs`), so deployments can share a Redis. */
  readonly redisKeyPrefix: string;
  /** RPC endpoint per chain id, from RPC_URL_<chainId>. Never logged, never returned. */
  readonly rpcUrls: ReadonlyMap<number, string>;
  /**
   * WebSocket endpoint per chain id for followers' new-head subscriptions: RPC_WS_URL_<chainId>, else RPC_URL_<chainId>
   * when it is a ws(s):// URL. Never logged, never returned.
   */
  readonly rpcWsUrls: ReadonlyMap<number, string>;
  /**
   * API processes on this machine, sharing the listening port through Node's cluster (WEB_CONCURRENCY, default 1: one
   * process, no cluster). More than one needs REDIS_URL, so that saved quotes and rate limits are shared.
   */
  readonly webConcurrency: number;
  /** Pricing worker threads per API process (WORKER_THREADS; default: the cores shared out over the processes, minus the API thread, at least 1). */
  readonly workerThreads: number;
  readonly workerMaxQueue: number;
  readonly quoteTtlSeconds: number;
  readonly defaultSlippageBps: number;
  readonly bodyLimitBytes: number;
  /** Reload snapshots when files in snapshotDir change (SIGHUP always reloads). */
  readonly snapshotWatch: boolean;
  /** Fixed rate-limit window in seconds (RATE_LIMIT_WINDOW_SECONDS, default 60). */
  readonly rateLimitWindowSeconds: number;
  /** Requests per window per valid API key, on every endpoint but the probes (RATE_LIMIT_PER_KEY, default 0 = unlimited). */
  readonly rateLimitPerKey: number;
  /** Requests per window per client IP for requests without a valid key (RATE_LIMIT_PER_IP, default 0 = unlimited). */
  readonly rateLimitPerIp: number;
  /** Take the client IP from X-Forwarded-For (TRUST_PROXY=true behind a reverse proxy; default false). */
  readonly trustProxy: boolean;
  /** Follow every chain with an RPC_URL_<chainId> block by block in this process (FOLLOW=true; default false). */
  readonly follow: boolean;
  /** Read the followed blocks `npm run follow` publishes to Redis Streams (FOLLOW_STREAM=true, needs REDIS_URL; default false). */
  readonly followStream: boolean;
  /**
   * Milliseconds between head polls of a followed chain (FOLLOW_POLL_MS); undefined (the default): each chain's from its
   * block time (ChainFollower: a tenth of it, 100 to 1000 ms). With a WebSocket URL, heads arrive by subscription and
   * polls are a safety net only.
   */
  readonly followPollMs: number | undefined;
  /** Blocks of undo history per followed chain (FOLLOW_UNDO_DEPTH, default 64); a deeper reorg re-seeds the chain. */
  readonly followUndoDepth: number;
  /** `npm run follow`: entries kept per chain's Redis Stream, oldest trimmed first (FOLLOW_STREAM_MAXLEN, default 100,000). */
  readonly followStreamMaxLen: number;
  /**
   * Write a followed chain's snapshot every this many blocks (FOLLOW_SNAPSHOT_EVERY; 0: never); undefined (the
   * default): each chain's blocks in about 5 minutes, so a restart replays minutes.
   */
  readonly followSnapshotEvery: number | undefined;
  /** /readyz fails when a followed chain's state has not been confirmed current for this long (MAX_STATE_AGE_SECONDS, default 60). */
  readonly maxStateAgeSeconds: number;
}

/** Raised when an environment variable holds a value the service cannot use. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function integer(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${key} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${key} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** An integer setting whose default depends on more than the environment (undefined when unset). */
function optionalInteger(env: NodeJS.ProcessEnv, key: string, min: number, max: number): number | undefined {
  return env[key] === undefined || env[key] === '' ? undefined : integer(env, key, 0, min, max);
}

function redisKeyPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'sqs';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(raw))
    throw new ConfigError(`REDIS_KEY_PREFIX must be 1-64 characters of A-Z a-z 0-9 _ . : -, got "${raw}"`);
  return raw;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads the configuration from an environment (process.env by default); the only reader of the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const rpcUrls = new Map<number, string>();
  const rpcWsUrls = new Map<number, string>();
  for (const [key, value] of Object.entries(env)) {
    const match = /^RPC_(WS_)?URL_(\d+)$/.exec(key);
    if (!match || !value) continue;
    if (match[1] && !/^wss?:\/\//i.test(value)) throw new ConfigError(`${key} must be a ws:// or wss:// URL`);
    (match[1] ? rpcWsUrls : rpcUrls).set(Number(match[2]), value);
  }
  for (const [chainId, url] of rpcUrls) if (/^wss?:\/\//i.test(url) && !rpcWsUrls.has(chainId)) rpcWsUrls.set(chainId, url);
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const dir = (key: string, fallback: string): string => resolve(projectRoot, env[key] || fallback);
  const webConcurrency = integer(env, 'WEB_CONCURRENCY', 1, 1, 64);
  const redisUrl = env.REDIS_URL || undefined;
  if (webConcurrency > 1 && !redisUrl) {
    throw new ConfigError(
      `WEB_CONCURRENCY=${webConcurrency} needs REDIS_URL: the processes must share saved quotes and rate limits, which live in memory without Redis`,
    );
  }
  const follow = env.FOLLOW === 'true' || env.FOLLOW === '1';
  if (follow && rpcUrls.size === 0)
    throw new ConfigError('FOLLOW=true needs an RPC endpoint: set RPC_URL_<chainId> for each chain to follow');
  const followStream = env.FOLLOW_STREAM === 'true' || env.FOLLOW_STREAM === '1';
  if (followStream && !redisUrl)
    throw new ConfigError('FOLLOW_STREAM=true needs REDIS_URL: the followed blocks are read from Redis Streams');
  if (followStream && follow)
    throw new ConfigError(
      'FOLLOW=true and FOLLOW_STREAM=true exclude each other: follow the chains in this process, or read what `npm run follow` publishes',
    );
  const dataDir = dir('DATA_DIR', '.data');
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    logLevel,
    catalogDir: dir('CATALOG_DIR', 'catalog'),
    snapshotDir: env.SNAPSHOT_DIR ? resolve(projectRoot, env.SNAPSHOT_DIR) : join(dataDir, 'snapshots'),
    shippedSnapshotDir: env.SHIPPED_SNAPSHOT_DIR === 'none' ? undefined : dir('SHIPPED_SNAPSHOT_DIR', 'seeds/snapshots'),
    dataDir,
    redisUrl,
    redisKeyPrefix: redisKeyPrefix(env.REDIS_KEY_PREFIX),
    rpcUrls,
    rpcWsUrls,
    webConcurrency,
    // Cheap quotes are priced in the API thread (src/quote/Pricer.ts), so workers take only heavy ones: each
    // process gets its share of the cores less one for its API thread. See bench/README.md.
    workerThreads: integer(env, 'WORKER_THREADS', Math.max(1, Math.floor(availableParallelism() / webConcurrency) - 1), 1, 256),
    workerMaxQueue: integer(env, 'WORKER_MAX_QUEUE', 1024, 0, 1_000_000),
    quoteTtlSeconds: integer(env, 'QUOTE_TTL_SECONDS', 86_400, 1, 31_536_000),
    defaultSlippageBps: integer(env, 'DEFAULT_SLIPPAGE_BPS', 50, 0, 5000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 65_536, 1024, 10_485_760),
    snapshotWatch: env.SNAPSHOT_WATCH !== 'false' && env.SNAPSHOT_WATCH !== '0',
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
    rateLimitPerKey: integer(env, 'RATE_LIMIT_PER_KEY', 0, 0, 1_000_000_000),
    rateLimitPerIp: integer(env, 'RATE_LIMIT_PER_IP', 0, 0, 1_000_000_000),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    follow,
    followStream,
    followPollMs: optionalInteger(env, 'FOLLOW_POLL_MS', 50, 600_000),
    followUndoDepth: integer(env, 'FOLLOW_UNDO_DEPTH', 64, 1, 100_000),
    followStreamMaxLen: integer(env, 'FOLLOW_STREAM_MAXLEN', 100_000, 1, 1_000_000_000),
    followSnapshotEvery: optionalInteger(env, 'FOLLOW_SNAPSHOT_EVERY', 0, 10_000_000),
    maxStateAgeSeconds: integer(env, 'MAX_STATE_AGE_SECONDS', 60, 1, 31_536_000),
  });
}
