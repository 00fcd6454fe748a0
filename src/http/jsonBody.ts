import type { Context, Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { PayloadTooLargeError, ValidationError } from '../errors/BaseError.ts';

/** Methods whose body is read; any other request's body is ignored (never parsed, never an error). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

interface BodyError {
  type?: string;
  status?: number;
  expose?: boolean;
  code?: string;
  message?: string;
  body?: unknown;
}

/**
 * Parses JSON request bodies (POST/PUT/PATCH only) into `ctx.request.body`, and turns every way a body
 * can be bad into a typed client error: over `limitBytes` (after decompression) is 413
 * PayloadTooLargeError; malformed JSON, JSON nested too deep, a JSON body that is not an object or
 * array, a `__proto__` key (prototype poisoning), or a gzip/deflate/br body that does not decompress
 * is 400 ValidationError; an unsupported Content-Encoding keeps the parser's 415. Bodies of other
 * content types are not read (the quote routes answer 400 for them). GET bodies are ignored.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: `${limitBytes}b`, strict: true });
  const noop = async (): Promise<void> => undefined;
  return async function parseJsonBody(ctx, next) {
    if (BODY_METHODS.has(ctx.method)) {
      try {
        await parse(ctx, noop);
      } catch (caught) {
        throw bodyError(caught, limitBytes);
      }
    }
    await next();
  };
}

const JSON_TYPE = 'application/json';

/**
 * Whether the request's body is JSON (`ctx.request.is('application/json')`), answered without parsing the media type
 * for the usual `Content-Type: application/json` with a Content-Length.
 */
export function isJsonRequest(ctx: Context): boolean {
  const { headers } = ctx.req;
  if (headers['content-type'] === JSON_TYPE && headers['content-length'] !== undefined) return true;
  return Boolean(ctx.request.is(JSON_TYPE));
}

function bodyError(caught: unknown, limitBytes: number): unknown {
  const err = (caught ?? {}) as BodyError;
  if (err.type === 'entity.too.large' || err.status === 413) {
    return new PayloadTooLargeError(`request body too large: the limit is ${limitBytes} bytes`, { cause: caught });
  }
  // co-body marks a body it read but could not parse with status 400 and `body` (SyntaxError, or a
  // RangeError from JSON nested too deep).
  if (caught instanceof SyntaxError || err.type === 'entity.parse.failed' || (err.status === 400 && err.body !== undefined)) {
    const text = typeof err.message === 'string' ? err.message : '';
    const message = text.startsWith('invalid JSON, only supports object and array')
      ? 'request body must be a JSON object'
      : /forbidden prototype property/.test(text)
        ? 'request body must not contain a "__proto__" key'
        : 'malformed JSON body';
    return new ValidationError(message, { cause: caught });
  }
  // zlib (Z_DATA_ERROR, Z_BUF_ERROR ...) and brotli (ERR__ERROR_FORMAT_...) decoder errors.
  if (typeof err.code === 'string' && /^(Z_|ERR__ERROR_)/.test(err.code)) {
    return new ValidationError('request body could not be decompressed: invalid gzip/deflate/br data', { cause: caught });
  }
  // Other parser errors carry their own 4xx status (aborted request, size mismatch, 415 encoding/charset).
  return caught;
}
