import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Context, Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import { PayloadTooLargeError, ValidationError } from '../errors/BaseError.ts';

/** Methods whose body is read; any other request's body is ignored (never parsed, never an error). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

// The JSON parser koa-bodyparser's co-body parses with (prototype poisoning refused), resolved from co-body itself so
// both paths below parse with the same code.
const coBodyPath = createRequire(createRequire(import.meta.url).resolve('koa-bodyparser')).resolve('co-body');
const bourne: { parse(text: string, options: { protoAction: 'error' }): unknown } = createRequire(coBodyPath)('@hapi/bourne');
/** co-body's strict test: a JSON text that is not an object or array is refused before it is parsed. */
const STRICT_JSON = /^[ \t\n\r]*[[{]/;
const JSON_TYPE = 'application/json';

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
 * content types are not read (the quote routes answer 400 for them). GET bodies are ignored. The usual body
 * (plainJsonLength) is read here, every other one by koa-bodyparser; both give the same body and the same errors.
 */
export function jsonBody(limitBytes: number): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: `${limitBytes}b`, strict: true });
  const noop = async (): Promise<void> => undefined;
  return async function parseJsonBody(ctx, next) {
    if (BODY_METHODS.has(ctx.method)) {
      try {
        const length = plainJsonLength(ctx.req, limitBytes);
        if (length === undefined) await parse(ctx, noop);
        else ctx.request.body = parseStrictJson(await readUtf8(ctx.req, length));
      } catch (caught) {
        throw bodyError(caught, limitBytes);
      }
    }
    await next();
  };
}

/**
 * The Content-Length of the usual request, whose body is read here without koa-bodyparser's layers (media type
 * parsing, option copies, raw-body's decoder): `Content-Type: application/json` exactly, no Content-Encoding and a
 * Content-Length within the limit. Undefined for any other request: koa-bodyparser reads those (chunked, compressed or
 * oversized bodies, other JSON media types).
 */
function plainJsonLength(req: IncomingMessage, limitBytes: number): number | undefined {
  const { headers } = req;
  const length = headers['content-length'];
  if (headers['content-type'] !== JSON_TYPE || headers['content-encoding'] !== undefined || length === undefined) return undefined;
  const bytes = Number(length);
  return bytes <= limitBytes ? bytes : undefined;
}

/** An error as raw-body raises it: the error boundary answers its status and message (a 4xx). */
function readError(message: string, type: string): Error {
  return Object.assign(new Error(message), { status: 400, statusCode: 400, expose: true, type });
}

/**
 * Reads a body of `length` bytes as raw-body reads it for co-body: its UTF-8 text with a leading byte-order mark
 * dropped; a client that goes away first is a 400 "request aborted", a body shorter than its Content-Length a 400
 * "request size did not match content length", a stream error that error.
 */
function readUtf8(req: IncomingMessage, length: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      received += chunk.length;
    };
    const onAborted = (): void => {
      cleanup();
      reject(readError('request aborted', 'request.aborted'));
    };
    const onEnd = (error?: Error): void => {
      cleanup();
      if (error) reject(error);
      else if (received !== length) reject(readError('request size did not match content length', 'request.size.invalid'));
      else {
        const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)).toString('utf8');
        resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      }
    };
    const cleanup = (): void => {
      req.off('aborted', onAborted);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onEnd);
      req.off('close', cleanup);
    };
    req.on('aborted', onAborted);
    req.on('close', cleanup);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
  });
}

/** co-body's strict JSON parse: an empty body is `{}`; a failure is marked as co-body marks it (status 400, the body). */
function parseStrictJson(text: string): unknown {
  if (text === '') return {};
  try {
    if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
    return bourne.parse(text, { protoAction: 'error' });
  } catch (err) {
    throw Object.assign(err as Error, { status: 400, body: text });
  }
}

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
