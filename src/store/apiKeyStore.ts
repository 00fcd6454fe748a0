import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ServiceUnavailableError } from '../errors/BaseError.ts';
import { FileApiKeyStore } from './apiKeyFileStore.ts';
import {
  type ApiKeyIdentity,
  type ApiKeyRecord,
  checkOrg,
  generateApiKey,
  hashApiKey,
  ID_PATTERN,
  isApiKeyShaped,
  KEY_STORE_UNAVAILABLE_MESSAGE,
  matches,
  newId,
  parseStored,
  publicRecord,
  type StoredKey,
  safeJson,
  sortRecords,
} from './apiKeyRecords.ts';
import { type RedisClient, RedisConnection, type RedisTimingOptions } from './RedisConnection.ts';

/** API keys: created once (the key is shown then and never again), verified by hash, listed, revoked. */
export interface ApiKeyStore {
  /** Creates a key for `org`; the returned `key` is the only copy (only its SHA-256 is stored). */
  create(org: string): Promise<{ key: string; record: ApiKeyRecord }>;
  /** The key's owner, or undefined when the key is malformed, unknown or revoked; ServiceUnavailableError when the store cannot answer. */
  verify(key: string): Promise<ApiKeyIdentity | undefined>;
  /** Every key's record, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked (idempotent) and returns its record; undefined when no key has that id. */
  revoke(id: string): Promise<ApiKeyRecord | undefined>;
  /** Whether the store answers right now; never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  readonly kind: 'redis' | 'file';
}

/** Optional settings of createApiKeyStore. */
export interface ApiKeyStoreOptions extends RedisTimingOptions {
  /** Redis key prefix (default `<config.redisKeyPrefix>:apikeys`). */
  readonly namespace?: string;
  /** File name under `config.dataDir` (default `api-keys.json`). */
  readonly fileName?: string;
  readonly logger?: Logger;
}

/** Creates the API-key store: Redis when `config.redisUrl` is set, else a JSON file under `config.dataDir`. */
export function createApiKeyStore(
  config: Pick<Config, 'redisUrl' | 'dataDir'> & Partial<Pick<Config, 'redisKeyPrefix'>>,
  options: ApiKeyStoreOptions = {},
): ApiKeyStore {
  if (config.redisUrl) {
    return new RedisApiKeyStore(
      new RedisConnection(config.redisUrl, { ...options, label: 'API key store' }),
      options.namespace ?? `${config.redisKeyPrefix ?? 'sqs'}:apikeys`,
    );
  }
  return new FileApiKeyStore(config.dataDir, options.fileName ?? 'api-keys.json', options.logger);
}

// ---------------------------------------------------------------------------------------------
// Redis: `<ns>:by-hash` (hash of the key → JSON record) and `<ns>:ids` (id → hash of the key).
// verify() asks Redis every time (HGET): a key created or revoked through any instance or the CLI takes effect on
// the next request everywhere. A cache of lookups (node-redis client-side caching with RESP3 tracking) was measured
// and dropped: bench/README.md, issue 14's second round.

class RedisApiKeyStore implements ApiKeyStore {
  readonly kind = 'redis';
  readonly #byHash: string;
  readonly #ids: string;

  constructor(
    private readonly connection: RedisConnection,
    namespace: string,
  ) {
    this.#byHash = `${namespace}:by-hash`;
    this.#ids = `${namespace}:ids`;
  }

  async #run<T>(operation: (client: RedisClient) => Promise<T>): Promise<T> {
    try {
      return await this.connection.run(operation);
    } catch (error) {
      throw new ServiceUnavailableError(KEY_STORE_UNAVAILABLE_MESSAGE, {
        details: { reason: error instanceof Error ? error.message : String(error) },
        cause: error,
      });
    }
  }

  async create(org: string): Promise<{ key: string; record: ApiKeyRecord }> {
    checkOrg(org);
    const key = generateApiKey();
    const hash = hashApiKey(key);
    const createdAt = new Date().toISOString();
    for (let attempt = 0; attempt < 5; attempt++) {
      const stored: StoredKey = { id: newId(), org, createdAt, hash };
      const claimed = await this.#run((c) => c.hSetNX(this.#ids, stored.id, hash));
      if (!claimed) continue; // id collision: draw another
      await this.#run((c) => c.hSet(this.#byHash, hash, JSON.stringify(stored)));
      return { key, record: publicRecord(stored) };
    }
    throw new Error('could not draw a free key id in 5 attempts');
  }

  async verify(key: string): Promise<ApiKeyIdentity | undefined> {
    if (!isApiKeyShaped(key)) return undefined;
    const hash = hashApiKey(key);
    const raw = await this.#run((c) => c.hGet(this.#byHash, hash));
    const stored = typeof raw === 'string' ? parseStored(safeJson(raw)) : undefined;
    return matches(stored, hash) ? { id: stored.id, org: stored.org } : undefined;
  }

  async list(): Promise<ApiKeyRecord[]> {
    const values = await this.#run((c) => c.hVals(this.#byHash));
    return sortRecords(values.map((raw) => parseStored(safeJson(String(raw)))).filter((s): s is StoredKey => s !== undefined));
  }

  async revoke(id: string): Promise<ApiKeyRecord | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    const hash = await this.#run((c) => c.hGet(this.#ids, id));
    if (typeof hash !== 'string') return undefined;
    const raw = await this.#run((c) => c.hGet(this.#byHash, hash));
    const stored = typeof raw === 'string' ? parseStored(safeJson(raw)) : undefined;
    if (!stored) return undefined;
    if (stored.revokedAt !== undefined) return publicRecord(stored);
    const revoked: StoredKey = { ...stored, revokedAt: new Date().toISOString() };
    await this.#run((c) => c.hSet(this.#byHash, hash, JSON.stringify(revoked)));
    return publicRecord(revoked);
  }

  ping(): Promise<boolean> {
    return this.connection.ping();
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
