import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { RateLimitedError } from '../errors/BaseError.ts';
import type { ApiKeyIdentity } from '../store/apiKeyRecords.ts';
import { RedisConnection } from '../store/RedisConnection.ts';
import { type ApiKeyVerifier, verifyForRequest } from './auth.ts';

/** One counted hit: the bucket's count in the current window and the milliseconds until the window ends. */
export interface RateLimitHit {
  readonly count: number;
  readonly resetMs: number;
}

/** Where the fixed-window counters live: Redis (shared by every instance) or this process's memory. */
export interface RateLimitStore {
  /** Counts one request in `bucket` for the current window; undefined when the count is unavailable (fail open). */
  hit(bucket: string, windowMs: number): Promise<RateLimitHit | undefined>;
  close(): Promise<void>;
  readonly kind: 'redis' | 'memory';
}

/** The rate-limit settings of Config. */
export type RateLimitSettings = Pick<Config, 'rateLimitWindowSeconds' | 'rateLimitPerKey' | 'rateLimitPerIp'>;

/** Whether any limit is configured (0 disables a limit). */
export function rateLimitEnabled(settings: RateLimitSettings): boolean {
  return settings.rateLimitPerKey > 0 || settings.rateLimitPerIp > 0;
}

/** Start of the fixed window `now` falls in, and the window's index (the same on every instance: windows align to the epoch). */
function windowOf(now: number, windowMs: number): { index: number; resetMs: number } {
  const index = Math.floor(now / windowMs);
  return { index, resetMs: (index + 1) * windowMs - now };
}

/** Counters in this process's memory: one instance, lost on restart. Old windows are swept as time passes. */
export function createMemoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const counters = new Map<string, { index: number; count: number }>();
  let sweepAt = 0;
  return {
    kind: 'memory',
    async hit(bucket, windowMs) {
      const t = now();
      const { index, resetMs } = windowOf(t, windowMs);
      if (t >= sweepAt) {
        for (const [key, entry] of counters) if (entry.index < index) counters.delete(key);
        sweepAt = t + windowMs;
      }
      let entry = counters.get(bucket);
      if (!entry || entry.index !== index) {
        entry = { index, count: 0 };
        counters.set(bucket, entry);
      }
      entry.count += 1;
      return { count: entry.count, resetMs };
    },
    async close() {
      counters.clear();
    },
  };
}

export interface RedisRateLimitStoreOptions {
  /** Key prefix: counters are `<prefix>:ratelimit:<bucket>:<window index>`. */
  readonly keyPrefix: string;
  readonly logger?: Logger;
  /** Longest a counter update may take before the request goes through uncounted (default 250 ms). */
  readonly opTimeoutMs?: number;
  readonly now?: () => number;
}

/**
 * Counters in Redis, shared by every instance using the same Redis and prefix: one round trip per
 * request (MULTI: INCR, PEXPIRE to the window's end plus a second). When Redis is down or slow the
 * request is let through uncounted (fail open) and the outage is logged once; counting resumes by
 * itself when Redis answers again. The client does not keep the process alive.
 */
export function createRedisRateLimitStore(url: string, options: RedisRateLimitStoreOptions): RateLimitStore {
  const now = options.now ?? Date.now;
  const logger = options.logger;
  const connection = new RedisConnection(url, { opTimeoutMs: options.opTimeoutMs ?? 250, readyWaitMs: 0, logger, label: 'rate limiter' });
  connection.client.unref();
  let failing = false;
  const failOpen = (reason: string): undefined => {
    if (!failing) logger?.warn({ reason }, 'rate limiter: Redis unavailable; requests are let through uncounted');
    failing = true;
    return undefined;
  };
  return {
    kind: 'redis',
    async hit(bucket, windowMs) {
      if (!connection.isReady) return failOpen('not connected');
      const t = now();
      const { index, resetMs } = windowOf(t, windowMs);
      const key = `${options.keyPrefix}:ratelimit:${bucket}:${index}`;
      try {
        const [count] = await connection.run((client) =>
          client
            .multi()
            .incr(key)
            .pExpire(key, resetMs + 1000)
            .exec(),
        );
        if (failing) logger?.info('rate limiter: Redis answers again; counting resumed');
        failing = false;
        return { count: Number(count), resetMs };
      } catch (error) {
        return failOpen(error instanceof Error ? error.message : String(error));
      }
    },
    close: () => connection.close(),
  };
}

/** Creates the counter store the settings call for: Redis when `redisUrl` is set, memory otherwise. */
export function createRateLimitStore(config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>, logger?: Logger): RateLimitStore {
  return config.redisUrl
    ? createRedisRateLimitStore(config.redisUrl, { keyPrefix: config.redisKeyPrefix, logger })
    : createMemoryRateLimitStore();
}

export interface RateLimitOptions extends RateLimitSettings {
  readonly store: RateLimitStore;
  /** Identifies keyed requests; without it every request is limited per IP. */
  readonly keys?: ApiKeyVerifier;
  /** Paths never limited (probes and scrapers). */
  readonly exemptPaths?: ReadonlySet<string>;
  /** Requests never limited nor counted (the process's own warm-up requests). */
  readonly skip?: (ctx: Context) => boolean;
}

const DEFAULT_EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Fixed-window rate limiting. A request carrying a valid API key counts against that key
 * (`rateLimitPerKey` per window, whatever its IP); any other request, an invalid key included, counts
 * against its client IP (`rateLimitPerIp`). A limit of 0 means unlimited. Over the limit: 429
 * RateLimitedError (envelope, `Retry-After` = seconds to the window's end). Every counted response
 * carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds). The key is verified
 * here (the key store answers from memory) and the auth middleware reuses that answer for the same
 * request, so a request hashes and looks up its key once, and a revoked key is counted per IP at once.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const windowMs = options.rateLimitWindowSeconds * 1000;
  const exempt = options.exemptPaths ?? DEFAULT_EXEMPT;

  async function identify(ctx: Context, key: string): Promise<ApiKeyIdentity | undefined> {
    if (!options.keys) return undefined;
    try {
      return await verifyForRequest(ctx, options.keys, key);
    } catch {
      return undefined; // key store down: count against the IP; the auth middleware answers 503
    }
  }

  return async function limitRate(ctx, next) {
    if (exempt.has(ctx.path) || options.skip?.(ctx)) return next();
    const key = presentedKey(ctx);
    const identity = key === undefined ? undefined : await identify(ctx, key);
    const limit = identity ? options.rateLimitPerKey : options.rateLimitPerIp;
    if (limit <= 0) return next();
    const bucket = identity ? `key:${identity.id}` : `ip:${ctx.ip}`;
    const hit = await options.store.hit(bucket, windowMs);
    if (hit) {
      const reset = Math.max(1, Math.ceil(hit.resetMs / 1000));
      ctx.set('RateLimit-Limit', String(limit));
      ctx.set('RateLimit-Remaining', String(Math.max(0, limit - hit.count)));
      ctx.set('RateLimit-Reset', String(reset));
      if (hit.count > limit) {
        const who = identity ? 'this API key' : 'this client address';
        throw new RateLimitedError(
          `rate limit exceeded: ${limit} requests per ${options.rateLimitWindowSeconds} s for ${who}; retry in ${reset} s`,
          reset,
        );
      }
    }
    return next();
  };
}

/** The key a request carries (Bearer or X-API-Key), without judging it; undefined when none or malformed. */
function presentedKey(ctx: Context): string | undefined {
  const authorization = ctx.get('Authorization');
  if (authorization !== '') {
    const match = /^\s*Bearer[ \t]+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = ctx.get('X-API-Key').trim();
  return header === '' ? undefined : header;
}
