import KeyvRedis, { Keyv } from '@keyv/redis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ServiceUnavailableError } from '../errors/BaseError.ts';
import { RedisConnection, type RedisTimingOptions, RedisUnavailable } from './RedisConnection.ts';

/** A saved quote: the organization that created it, the JSON Quote body (which has `quoteId`), the request it priced and (permit2) its held swap. */
export interface StoredQuote {
  readonly orgId: string;
  readonly quote: Record<string, unknown>;
  /** The request body as validated (POST /quotes/{id}/refresh prices it again); absent on quotes saved without it. */
  readonly request?: Record<string, unknown>;
  /**
   * approvalMode "permit2" only: the swap step held back until the sender signs the quote's permitData (POST
   * /quotes/{id}/swap puts the permit in it); never part of the quote's own JSON.
   */
  readonly permit2Swap?: Record<string, unknown>;
}

/** A quote to save: its JSON text beside it, as the caller wrote it. */
export interface QuoteToSave extends StoredQuote {
  /**
   * The quote's JSON text, kept as it is and returned by save() (saveQuote writes it once, the extension fields' text
   * made where the trade was found in it: the response sends the same text).
   */
  readonly json: string;
}

/** Where quotes are kept for `config.quoteTtlSeconds`: Redis when configured, memory otherwise. */
export interface QuoteStore {
  /**
   * Saves a quote under `quote.quote.quoteId` with its JSON text (`quote.json`, which the response sends too) and
   * returns that text; rejects with ServiceUnavailableError when it was not saved.
   */
  save(quote: QuoteToSave): Promise<string>;
  /** The saved quote, or undefined (unknown, expired, or a malformed id); ServiceUnavailableError when the store cannot answer. */
  get(quoteId: string): Promise<StoredQuote | undefined>;
  /** Whether the store answers right now (for readiness); never throws. */
  ping(): Promise<boolean>;
  /** Releases the connection; later calls fail. */
  close(): Promise<void>;
  /** 'redis' or 'memory', for logs and readiness output. */
  readonly kind: 'redis' | 'memory';
}

/** Optional settings of createQuoteStore (tests use their own namespace and shorter bounds). */
export interface QuoteStoreOptions extends RedisTimingOptions {
  /** Key namespace in Redis (keys are `<namespace>::<quoteId>`); default `<config.redisKeyPrefix>:quote`. */
  readonly namespace?: string;
  readonly logger?: Logger;
}

/** Quote ids accepted by get(); anything else cannot have been saved and is answered `undefined`. */
const QUOTE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** What save() hands Keyv: the organization, the quote's JSON text (as the caller wrote it), the request and a held swap. */
class QuoteEntry {
  constructor(
    readonly orgId: string,
    readonly json: string,
    readonly request: Record<string, unknown> | undefined,
    readonly permit2Swap: Record<string, unknown> | undefined,
  ) {}
}

/**
 * Keyv's entry `{"value":{"orgId":..,"quote":..,"request":..,"permit2Swap":..},"expires":..}` written around the quote's JSON text: the same
 * bytes as `JSON.stringify(entry)` (test/store/quoteStore.test.ts compares them), without serializing the quote a
 * second time. Quotes are plain JSON, so reads are plain JSON.parse (Keyv's default serializer walks values for
 * Buffers and bigints: about twice the cost).
 */
function serializeEntry(data: { value?: unknown; expires?: number }): string {
  const entry = data.value;
  if (!(entry instanceof QuoteEntry)) return JSON.stringify(data);
  const expires = data.expires === undefined ? '' : `,"expires":${JSON.stringify(data.expires)}`;
  const request = entry.request === undefined ? '' : `,"request":${JSON.stringify(entry.request)}`;
  const swap = entry.permit2Swap === undefined ? '' : `,"permit2Swap":${JSON.stringify(entry.permit2Swap)}`;
  return `{"value":{"orgId":${JSON.stringify(entry.orgId)},"quote":${entry.json}${request}${swap}}${expires}}`;
}
const QUOTE_JSON = { serialize: serializeEntry, deserialize: JSON.parse } as const;

export const SAVE_FAILED_MESSAGE = 'quote store unavailable: the quote was not saved';
export const READ_FAILED_MESSAGE = 'quote store unavailable: the quote could not be read';

/** Creates the quote store: Keyv over @keyv/redis when `config.redisUrl` is set, Keyv in memory otherwise. */
export function createQuoteStore(
  config: Pick<Config, 'redisUrl' | 'quoteTtlSeconds'> & Partial<Pick<Config, 'redisKeyPrefix'>>,
  options: QuoteStoreOptions = {},
): QuoteStore {
  const namespace = options.namespace ?? `${config.redisKeyPrefix ?? 'sqs'}:quote`;
  const ttlMs = config.quoteTtlSeconds * 1000;
  if (config.redisUrl) {
    const connection = new RedisConnection(config.redisUrl, { ...options, label: 'quote store' });
    const adapter = new KeyvRedis(connection.client, { namespace, throwOnErrors: true, throwOnConnectError: true });
    const keyv = new Keyv<StoredQuote>(adapter, { namespace, useKeyPrefix: false, throwOnErrors: true, ttl: ttlMs, ...QUOTE_JSON });
    // Failures reach the caller as rejections; the event would otherwise go nowhere.
    keyv.on('error', () => undefined);
    return new KeyvQuoteStore(keyv, 'redis', {
      run: (operation) => connection.run(() => operation()),
      ping: () => connection.ping(),
      close: () => connection.close(),
    });
  }
  const keyv = new Keyv<StoredQuote>(new MemoryTtlStore(), {
    namespace,
    useKeyPrefix: false,
    throwOnErrors: true,
    ttl: ttlMs,
    ...QUOTE_JSON,
  });
  return new KeyvQuoteStore(keyv, 'memory', {
    run: (operation) => operation(),
    ping: async () => true,
    close: async () => undefined,
  });
}

interface Backend {
  run<T>(operation: () => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

class KeyvQuoteStore implements QuoteStore {
  #closed = false;
  constructor(
    private readonly keyv: Keyv<StoredQuote>,
    readonly kind: 'redis' | 'memory',
    private readonly backend: Backend,
  ) {}

  async save(stored: QuoteToSave): Promise<string> {
    const quoteId = stored.quote.quoteId;
    if (typeof quoteId !== 'string' || !QUOTE_ID.test(quoteId)) {
      throw new TypeError(`quoteStore.save: quote.quoteId must match ${QUOTE_ID}, got ${JSON.stringify(quoteId)}`);
    }
    if (typeof stored.orgId !== 'string' || stored.orgId === '') throw new TypeError('quoteStore.save: orgId must be a non-empty string');
    if (this.#closed) throw new ServiceUnavailableError(SAVE_FAILED_MESSAGE, { details: { reason: 'store closed' } });
    const json = stored.json;
    const entry = new QuoteEntry(stored.orgId, json, stored.request, stored.permit2Swap) as unknown as StoredQuote;
    let saved: boolean;
    try {
      saved = await this.backend.run(() => this.keyv.set(quoteId, entry));
    } catch (error) {
      throw unavailable(SAVE_FAILED_MESSAGE, error);
    }
    if (saved !== true) throw new ServiceUnavailableError(SAVE_FAILED_MESSAGE, { details: { reason: 'store refused the write' } });
    return json;
  }

  async get(quoteId: string): Promise<StoredQuote | undefined> {
    if (typeof quoteId !== 'string' || !QUOTE_ID.test(quoteId)) return undefined;
    if (this.#closed) throw new ServiceUnavailableError(READ_FAILED_MESSAGE, { details: { reason: 'store closed' } });
    let value: StoredQuote | undefined;
    try {
      value = await this.backend.run(() => this.keyv.get(quoteId));
    } catch (error) {
      throw unavailable(READ_FAILED_MESSAGE, error);
    }
    if (value === undefined || value === null) return undefined;
    return {
      orgId: value.orgId,
      quote: value.quote,
      ...(value.request === undefined ? {} : { request: value.request }),
      ...(value.permit2Swap === undefined ? {} : { permit2Swap: value.permit2Swap }),
    };
  }

  async ping(): Promise<boolean> {
    return !this.#closed && this.backend.ping();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.backend.close();
  }
}

function unavailable(message: string, error: unknown): ServiceUnavailableError {
  const reason = error instanceof RedisUnavailable || error instanceof Error ? error.message : String(error);
  return new ServiceUnavailableError(message, { details: { reason }, cause: error });
}

/**
 * Keyv storage adapter for the in-memory store: a Map whose entries are dropped once their TTL
 * passes (Keyv alone only hides expired entries on read, so an unread quote would stay forever).
 */
class MemoryTtlStore {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>();
  #nextSweep = 0;
  namespace: string | undefined;

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: unknown, ttl?: number): boolean {
    const now = Date.now();
    if (now >= this.#nextSweep) {
      for (const [k, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(k);
      this.#nextSweep = now + 60_000;
    }
    this.#entries.set(key, { value, expiresAt: typeof ttl === 'number' && ttl > 0 ? now + ttl : Number.POSITIVE_INFINITY });
    return true;
  }

  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
