import type { Context } from 'koa';

/** The SPEC's response envelope: `code` mirrors the HTTP status; `data` is absent on errors. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

/** Writes a success envelope. `data` may be null (SPEC: clients null-check it). */
export function sendData<T>(ctx: Context, message: string, data: T, status = 200): void {
  ctx.status = status;
  ctx.body = { code: status, message, data } satisfies Envelope<T>;
}

/** Writes an error envelope (no `data`). */
export function sendError(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { code: status, message } satisfies Envelope;
}
