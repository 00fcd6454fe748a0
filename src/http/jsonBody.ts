import type { Middleware } from 'koa';
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
}

/**
 * Parses JSON request bodies (POST/PUT/PATCH only) into `ctx.request.body`, and turns every way a body
 * can be bad into a typed client error: over `limitBytes` (after decompression) is 413
 * PayloadTooLargeError; malformed JSON, a JSON body that is not an object or array, or a gzip/deflate
 * body that does not decompress is 400 ValidationError; an unsupported Content-Encoding or charset keeps
 * the parser's 415. Bodies of other content types are not read (the quote routes answer 400 for them).
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

function bodyError(caught: unknown, limitBytes: number): unknown {
  const err = (caught ?? {}) as BodyError;
  if (err.type === 'entity.too.large' || err.status === 413) {
    return new PayloadTooLargeError(`request body too large: the limit is ${limitBytes} bytes`, { cause: caught });
  }
  if (err.type === 'entity.parse.failed') {
    const strict = typeof err.message === 'string' && err.message.startsWith('invalid JSON, only supports object and array');
    return new ValidationError(strict ? 'request body must be a JSON object' : 'malformed JSON body', { cause: caught });
  }
  if (typeof err.code === 'string' && err.code.startsWith('Z_')) {
    return new ValidationError('request body could not be decompressed: invalid gzip/deflate data', { cause: caught });
  }
  // Other parser errors carry their own 4xx status (aborted request, size mismatch, 415 encoding/charset).
  return caught;
}
