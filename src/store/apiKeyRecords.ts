import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * What both API-key stores (Redis in apiKeyStore.ts, the file in apiKeyFileStore.ts) share: the key and record
 * formats and their checks. Kept apart from the stores so neither implementation imports the other's module.
 */

/** What the service knows about a key: never the key itself nor its hash. */
export interface ApiKeyRecord {
  /** Short non-secret identifier, used by `keys list` and `keys revoke`. */
  readonly id: string;
  /** The organization the key belongs to. */
  readonly org: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601; absent while the key is valid. */
  readonly revokedAt?: string;
}

/** Who a verified key belongs to (put on `ctx.state.apiKey`). */
export interface ApiKeyIdentity {
  readonly id: string;
  readonly org: string;
}

/** The fixed prefix of every key: `sqk_` then 32 random bytes in base64url (43 characters). */
const API_KEY_PREFIX = 'sqk_';
const API_KEY_PATTERN = /^sqk_[A-Za-z0-9_-]{43}$/;
const ORG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const ID_PATTERN = /^key_[0-9a-f]{12}$/;

export const KEY_STORE_UNAVAILABLE_MESSAGE = 'API key store unavailable: try again later';

/** A stored entry: the public record plus the SHA-256 (hex) of the key. */
export interface StoredKey extends ApiKeyRecord {
  readonly hash: string;
}

/** Raised for a bad argument to create/revoke (an org name or id that cannot be valid). */
export class ApiKeyInputError extends Error {
  override readonly name = 'ApiKeyInputError';
}

/** A new random key (prefix + 32 random bytes, base64url). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 of a key, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a string has the shape of a key (cheap check before any lookup). */
export function isApiKeyShaped(key: string): boolean {
  return typeof key === 'string' && API_KEY_PATTERN.test(key);
}

export function newId(): string {
  return `key_${randomBytes(6).toString('hex')}`;
}

export function checkOrg(org: string): void {
  if (typeof org !== 'string' || !ORG_PATTERN.test(org)) {
    throw new ApiKeyInputError(
      `invalid organization name ${JSON.stringify(org)}: use 1-64 characters of A-Z a-z 0-9 _ . - starting with a letter or digit`,
    );
  }
}

/** Compares the stored hash with the presented key's hash in constant time; true only for a valid, unrevoked key. */
export function matches(stored: StoredKey | undefined, hash: string): stored is StoredKey {
  if (!stored || typeof stored.hash !== 'string' || stored.hash.length !== 64) return false;
  const same = timingSafeEqual(Buffer.from(stored.hash, 'hex'), Buffer.from(hash, 'hex'));
  return same && stored.revokedAt === undefined;
}

export function publicRecord(stored: StoredKey): ApiKeyRecord {
  return stored.revokedAt === undefined
    ? { id: stored.id, org: stored.org, createdAt: stored.createdAt }
    : { id: stored.id, org: stored.org, createdAt: stored.createdAt, revokedAt: stored.revokedAt };
}

export function parseStored(value: unknown): StoredKey | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.org !== 'string' || typeof v.createdAt !== 'string') return undefined;
  if (typeof v.hash !== 'string' || !/^[0-9a-f]{64}$/.test(v.hash)) return undefined;
  if (v.revokedAt !== undefined && typeof v.revokedAt !== 'string') return undefined;
  return v.revokedAt === undefined
    ? { id: v.id, org: v.org, createdAt: v.createdAt, hash: v.hash }
    : { id: v.id, org: v.org, createdAt: v.createdAt, hash: v.hash, revokedAt: v.revokedAt };
}

export function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export function sortRecords(stored: StoredKey[]): ApiKeyRecord[] {
  return stored.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1)).map(publicRecord);
}
