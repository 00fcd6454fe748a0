import { createClient } from '@keyv/redis';
import type { Logger } from 'pino';

/** The node-redis client type this service uses (RESP2, no modules). */
export type RedisClient = ReturnType<typeof createClient>;

/** Timing bounds of a Redis-backed store; every operation settles within `opTimeoutMs`. */
export interface RedisTimingOptions {
  /** Longest time an operation may take, waiting for a connection included (default 1500 ms). */
  readonly opTimeoutMs?: number;
  /** Longest time an operation waits for a connection that is not ready (default 500 ms). */
  readonly readyWaitMs?: number;
  /** Upper bound of the reconnect back-off (default 500 ms): how soon a returning Redis is noticed. */
  readonly maxReconnectDelayMs?: number;
}

/** Raised (internally) when Redis cannot serve an operation in time; stores turn it into a 503. */
export class RedisUnavailable extends Error {
  override readonly name = 'RedisUnavailable';
}

const DEFAULT_OP_TIMEOUT_MS = 1500;
const DEFAULT_READY_WAIT_MS = 500;
const DEFAULT_MAX_RECONNECT_DELAY_MS = 500;

/**
 * One node-redis connection with bounded failure: no offline queue (a command sent while the
 * connection is down is refused at once), a short wait for a connection that is coming up, a
 * deadline on every operation (a server that stops answering cannot hold a caller), and endless
 * reconnection with a capped back-off, so a Redis that comes back is used again without a restart.
 */
export class RedisConnection {
  readonly client: RedisClient;
  readonly #opTimeoutMs: number;
  readonly #readyWaitMs: number;
  readonly #logger: Logger | undefined;
  readonly #label: string;
  #ready: { promise: Promise<void>; resolve: () => void } | undefined;
  #down = false;
  #closed = false;
  /** A connection attempt is in flight (between its start and its 'ready' or 'error'). */
  #attempting = true;
  readonly #connectTimeoutMs: number;

  constructor(url: string, options: RedisTimingOptions & { logger?: Logger; label?: string } = {}) {
    this.#opTimeoutMs = options.opTimeoutMs ?? DEFAULT_OP_TIMEOUT_MS;
    this.#readyWaitMs = Math.min(options.readyWaitMs ?? DEFAULT_READY_WAIT_MS, this.#opTimeoutMs);
    this.#logger = options.logger;
    this.#label = options.label ?? 'redis';
    const maxDelay = options.maxReconnectDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS;
    this.#connectTimeoutMs = Math.max(250, Math.min(this.#opTimeoutMs, 5000));
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: this.#connectTimeoutMs,
        // Never give up: a number is always returned, so the client keeps trying until close().
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, maxDelay) + Math.floor(Math.random() * 50),
      },
    });
    this.client.on('reconnecting', () => {
      this.#attempting = true;
    });
    this.client.on('error', (error: unknown) => {
      this.#attempting = false;
      // node-redis emits one error per failed attempt; log the first of each outage only.
      if (this.#down || this.#closed) return;
      this.#down = true;
      this.#logger?.warn({ store: this.#label, err: describe(error) }, `${this.#label}: Redis connection lost or refused; retrying`);
    });
    this.client.on('ready', () => {
      this.#attempting = false;
      if (this.#down) this.#logger?.info({ store: this.#label }, `${this.#label}: Redis connection ready again`);
      this.#down = false;
      this.#ready?.resolve();
      this.#ready = undefined;
    });
    // Start connecting now; connect() only settles once connected (it retries forever) or on close().
    this.client.connect().catch(() => undefined);
  }

  /** True when the connection is up and commands are accepted. */
  get isReady(): boolean {
    return this.client.isReady;
  }

  /**
   * Runs one operation against Redis within the deadline; rejects with RedisUnavailable when the
   * connection is not ready in time, the command fails, or the deadline passes. Error replies
   * (LOADING, READONLY, OOM, MISCONF ...) count as unavailable too: the write did not happen.
   */
  async run<T>(operation: (client: RedisClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new RedisUnavailable('the store is closed');
    const started = Date.now();
    if (!this.client.isReady) await this.#waitReady(this.#readyWaitMs);
    const remaining = this.#opTimeoutMs - (Date.now() - started);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisUnavailable(`no answer from Redis within ${this.#opTimeoutMs} ms`)), Math.max(1, remaining));
    });
    try {
      return await Promise.race([operation(this.client), deadline]);
    } catch (error) {
      throw error instanceof RedisUnavailable ? error : new RedisUnavailable(`Redis command failed: ${describe(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answers whether Redis responds to PING within the deadline; never throws. */
  async ping(): Promise<boolean> {
    try {
      return (await this.run((client) => client.ping())) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Closes the connection: waits for in-flight replies when connected (bounded), else drops it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#ready?.resolve();
    if (!this.client.isOpen) return;
    if (this.#attempting && !this.client.isReady) {
      // node-redis leaks the socket of an attempt destroyed mid-way (it is not yet its socket):
      // let the attempt finish or fail first (bounded by the connect timeout).
      await this.#settleAttempt();
    }
    if (this.client.isReady) {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), this.#opTimeoutMs);
      });
      const outcome = await Promise.race([
        this.client.close().then(
          () => 'closed' as const,
          () => 'failed' as const,
        ),
        gaveUp,
      ]);
      clearTimeout(timer);
      if (outcome === 'closed') return;
    }
    if (this.client.isOpen) this.client.destroy();
  }

  #settleAttempt(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off('ready', done);
        this.client.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, this.#connectTimeoutMs + 250);
      this.client.on('ready', done);
      this.client.on('error', done);
    });
  }

  async #waitReady(ms: number): Promise<void> {
    if (!this.#ready) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.#ready = { promise, resolve };
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    });
    const outcome = await Promise.race([this.#ready.promise.then(() => 'ready' as const), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout' || !this.client.isReady) {
      throw new RedisUnavailable(`Redis not reachable (waited ${ms} ms for a connection)`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
