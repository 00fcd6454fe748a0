import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';

/** The SPEC's response envelope: `code` mirrors the HTTP status; `data` is absent on errors. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

/**
 * Writes a success envelope. `data` may be null (SPEC: clients null-check it). `fields`: documented extension fields
 * of the envelope, written between `message` and `data` (POST /quotes/routes: `rankedBy`).
 */
export function sendData<T>(ctx: Context, message: string, data: T, status = 200, fields: Record<string, string> = {}): void {
  sendJson(ctx, status, JSON.stringify({ code: status, message, ...fields, data } satisfies Envelope<T>), true);
}

/**
 * Writes a success envelope around `data` already serialized to JSON text: the same bytes sendData() writes for
 * the parsed value, without serializing it again. `fields` as sendData's.
 */
export function sendDataJson(ctx: Context, message: string, dataJson: string, status = 200, fields: Record<string, string> = {}): void {
  const head = JSON.stringify({ code: status, message, ...fields });
  sendJson(ctx, status, `${head.slice(0, -1)},"data":${dataJson}}`);
}

/** Writes an error envelope (no `data`). */
export function sendError(ctx: Context, status: number, message: string): void {
  sendJson(ctx, status, JSON.stringify({ code: status, message } satisfies Envelope), true);
}

/**
 * Writes JSON text as the response: the bytes and headers Koa writes for an object body (`asObject`: a Content-Length
 * already set, by an earlier body, is dropped and written last, as Koa's respond() writes it) or for a string body,
 * with the text encoded to UTF-8 once; given a string, Koa measures its UTF-8 length and the socket then encodes it
 * again.
 */
function sendJson(ctx: Context, status: number, json: string, asObject = false): void {
  ctx.status = status;
  if (asObject) ctx.remove('Content-Length');
  ctx.type = 'application/json';
  ctx.body = Buffer.from(json);
}

/** A success envelope serialized once (and gzipped once), for data that changes seldom or never while the process runs. */
export interface PrecomputedEnvelope {
  readonly json: Buffer;
  readonly gzip: Buffer;
}

/** Serializes `{ code: 200, message, data }` once, plain and gzip-compressed. */
export function precomputeData<T>(message: string, data: T): PrecomputedEnvelope {
  const json = Buffer.from(JSON.stringify({ code: 200, message, data } satisfies Envelope<T>));
  return { json, gzip: gzipSync(json) };
}

/** Serializes `{ code: 200, message, data }` around `data` already serialized to JSON text, plain and gzip-compressed. */
export function precomputeDataJson(message: string, dataJson: string): PrecomputedEnvelope {
  const json = Buffer.from(`{"code":200,"message":${JSON.stringify(message)},"data":${dataJson}}`);
  return { json, gzip: gzipSync(json) };
}

/** Writes a precomputed success envelope: gzip when the client accepts it, the plain JSON otherwise. */
export function sendPrecomputed(ctx: Context, body: PrecomputedEnvelope): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.vary('Accept-Encoding');
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = body.gzip;
  } else {
    ctx.body = body.json;
  }
}
