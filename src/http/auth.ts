import type { Context, Middleware } from 'koa';
import { UnauthorizedError } from '../errors/BaseError.ts';
import type { ApiKeyIdentity } from '../store/apiKeyRecords.ts';
import type { ApiKeyStore } from '../store/apiKeyStore.ts';

/** What the middleware needs from the key store. */
export type ApiKeyVerifier = Pick<ApiKeyStore, 'verify'>;

export const MISSING_KEY_MESSAGE = 'missing API key: send Authorization: Bearer <key> or X-API-Key: <key>';
export const INVALID_KEY_MESSAGE = 'invalid API key';
export const MALFORMED_AUTHORIZATION_MESSAGE = 'invalid Authorization header: expected "Bearer <key>"';
export const CONFLICTING_KEYS_MESSAGE = 'conflicting API keys: Authorization and X-API-Key carry different keys';

/**
 * Requires a valid API key (401 envelope when missing or invalid; 503 when the key store is unreachable). Routes
 * behind it declare KeyedState (`router.post<KeyedState>(...)`): `ctx.state.apiKey` is there.
 */
export function requireApiKey(keys: ApiKeyVerifier): Middleware {
  return async function authenticate(ctx, next) {
    const key = presentedKey(ctx);
    if (key === undefined) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedError(MISSING_KEY_MESSAGE);
    }
    await verifyInto(ctx, keys, key);
    await next();
  };
}

/** Accepts requests without a key; a key that is sent must be valid (401 otherwise), and is then on ctx.state.apiKey. */
export function optionalApiKey(keys: ApiKeyVerifier): Middleware {
  return async function authenticateIfSent(ctx, next) {
    const key = presentedKey(ctx);
    if (key !== undefined) await verifyInto(ctx, keys, key);
    await next();
  };
}

/** The caller's verified key, when the auth middleware ran and a key was sent. */
export function apiKeyOf(ctx: Context): ApiKeyIdentity | undefined {
  return ctx.state.apiKey;
}

/** Each request's verification, kept for the rest of the request (never across requests: keyed by its context). */
const verified = new WeakMap<Context, Verified>();
interface Verified {
  readonly key: string;
  readonly identity: ApiKeyIdentity | undefined;
}

/**
 * Verifies the key once per request: a second call for the same key in the same request (the rate
 * limiter, then the auth middleware) reuses the answer instead of hashing and looking it up again.
 * The answer is kept for this request only. A store failure is not kept (the next call retries).
 */
export async function verifyForRequest(ctx: Context, keys: ApiKeyVerifier, key: string): Promise<ApiKeyIdentity | undefined> {
  const known = verified.get(ctx);
  if (known !== undefined && known.key === key) return known.identity;
  const identity = await keys.verify(key);
  verified.set(ctx, { key, identity });
  return identity;
}

async function verifyInto(ctx: Context, keys: ApiKeyVerifier, key: string): Promise<void> {
  // verify() throws ServiceUnavailableError (503) when the store cannot answer: not the caller's fault.
  const identity = await verifyForRequest(ctx, keys, key);
  if (!identity) {
    ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
    throw new UnauthorizedError(INVALID_KEY_MESSAGE);
  }
  ctx.state.apiKey = { id: identity.id, org: identity.org };
}

/**
 * The key the request carries, from `Authorization: Bearer <key>` or `X-API-Key: <key>`; undefined
 * when neither is sent (empty headers count as absent). Throws 401 for a malformed Authorization
 * header or two different keys. Error messages never repeat the key.
 */
function presentedKey(ctx: Context): string | undefined {
  const authorization = ctx.get('Authorization').trim();
  const headerKey = ctx.get('X-API-Key').trim();
  let bearer: string | undefined;
  if (authorization !== '') {
    const match = /^Bearer[ \t]+(\S+)$/i.exec(authorization);
    if (!match) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedError(MALFORMED_AUTHORIZATION_MESSAGE);
    }
    bearer = match[1];
  }
  const apiKey = headerKey === '' ? undefined : headerKey;
  if (bearer !== undefined && apiKey !== undefined && bearer !== apiKey) {
    ctx.set('WWW-Authenticate', 'Bearer');
    throw new UnauthorizedError(CONFLICTING_KEYS_MESSAGE);
  }
  return bearer ?? apiKey;
}
