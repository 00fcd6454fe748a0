import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../errors/BaseError.ts';
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
  sortRecords,
} from './apiKeyRecords.ts';
import { writeFileAtomic } from './writeFileAtomic.ts';

// ---------------------------------------------------------------------------------------------
// File: `<dataDir>/api-keys.json`, `{ "version": 1, "keys": [StoredKey...] }`, mode 0600, replaced
// atomically (writeFileAtomic: temp file + fsync + rename + folder fsync) under a lock file; readers re-read it when it changes.

interface KeyFile {
  version: 1;
  keys: StoredKey[];
}

interface Loaded {
  /** Identity of the file version the cache holds (inode, size, mtime); '' when there is no file. */
  signature: string;
  keys: StoredKey[];
  byHash: Map<string, StoredKey>;
}

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 5_000;

/**
 * The API-key store in a JSON file: an ApiKeyStore (apiKeyStore.ts), checked against that interface where
 * createApiKeyStore returns it (not declared here: the interface's module builds this store).
 */
export class FileApiKeyStore {
  readonly kind = 'file';
  readonly #path: string;
  readonly #lockPath: string;
  #cache: Loaded | undefined;

  constructor(
    private readonly dir: string,
    fileName: string,
    private readonly logger: Logger | undefined,
  ) {
    this.#path = join(dir, fileName);
    this.#lockPath = `${this.#path}.lock`;
  }

  /** The current keys, re-read when the file changed since the last look (one stat per call). */
  #current(): Loaded {
    let signature = '';
    try {
      const st = statSync(this.#path);
      signature = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw this.#unavailable(error);
    }
    if (this.#cache && this.#cache.signature === signature) return this.#cache;
    if (signature === '') {
      this.#cache = { signature, keys: [], byHash: new Map() };
      return this.#cache;
    }
    try {
      const keys = readKeyFile(this.#path);
      this.#cache = { signature, keys, byHash: new Map(keys.map((k) => [k.hash, k])) };
      this.logger?.info({ keys: keys.length }, 'API key file loaded');
      return this.#cache;
    } catch (error) {
      // A hand-edited, broken file: keep serving the last good keys, if any.
      this.logger?.error({ err: error instanceof Error ? error.message : String(error), path: this.#path }, 'API key file refused');
      if (this.#cache) return this.#cache;
      throw this.#unavailable(error);
    }
  }

  #unavailable(error: unknown): ServiceUnavailableError {
    return new ServiceUnavailableError(KEY_STORE_UNAVAILABLE_MESSAGE, {
      details: { reason: error instanceof Error ? error.message : String(error) },
      cause: error,
    });
  }

  async create(org: string): Promise<{ key: string; record: ApiKeyRecord }> {
    checkOrg(org);
    const key = generateApiKey();
    const hash = hashApiKey(key);
    const record = await this.#update((keys) => {
      let id = newId();
      while (keys.some((k) => k.id === id)) id = newId();
      const stored: StoredKey = { id, org, createdAt: new Date().toISOString(), hash };
      keys.push(stored);
      return stored;
    });
    return { key, record: publicRecord(record) };
  }

  async verify(key: string): Promise<ApiKeyIdentity | undefined> {
    if (!isApiKeyShaped(key)) return undefined;
    const hash = hashApiKey(key);
    const stored = this.#current().byHash.get(hash);
    return matches(stored, hash) ? { id: stored.id, org: stored.org } : undefined;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return sortRecords([...this.#current().keys]);
  }

  async revoke(id: string): Promise<ApiKeyRecord | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    const result = await this.#update((keys) => {
      const index = keys.findIndex((k) => k.id === id);
      if (index < 0) return undefined;
      const stored = keys[index];
      if (stored.revokedAt === undefined) keys[index] = { ...stored, revokedAt: new Date().toISOString() };
      return keys[index];
    });
    return result && publicRecord(result);
  }

  async ping(): Promise<boolean> {
    try {
      this.#current();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}

  /** Read-modify-write under the lock; the file is replaced atomically, never written in place. */
  async #update<T>(change: (keys: StoredKey[]) => T): Promise<T> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    await this.#lock();
    try {
      let keys: StoredKey[];
      try {
        keys = readKeyFile(this.#path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        keys = [];
      }
      const result = change(keys);
      writeFileAtomic(this.#path, `${JSON.stringify({ version: 1, keys } satisfies KeyFile, null, 2)}\n`, { mode: 0o600 });
      this.#cache = undefined;
      return result;
    } finally {
      rmSync(this.#lockPath, { force: true });
    }
  }

  async #lock(): Promise<void> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(this.#lockPath, 'wx', 0o600));
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      try {
        if (Date.now() - statSync(this.#lockPath).mtimeMs > LOCK_STALE_MS) rmSync(this.#lockPath, { force: true });
      } catch {
        // The lock went away between the two calls: try again.
      }
      if (Date.now() > deadline)
        throw new Error(`API key file is locked by another process (${this.#lockPath}); remove it if no keys command is running`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Reads and validates the key file; throws on a missing, unparsable or malformed file. */
function readKeyFile(path: string): StoredKey[] {
  const text = readFileSync(path, 'utf8');
  const parsed = JSON.parse(text) as unknown;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (parsed as { version?: unknown }).version !== 1 ||
    !Array.isArray((parsed as { keys?: unknown }).keys)
  ) {
    throw new Error(`${path}: expected {"version": 1, "keys": [...]}`);
  }
  const keys: StoredKey[] = [];
  for (const [index, entry] of (parsed as { keys: unknown[] }).keys.entries()) {
    const stored = parseStored(entry);
    if (!stored) throw new Error(`${path}: keys[${index}] is not a valid key record`);
    keys.push(stored);
  }
  return keys;
}
