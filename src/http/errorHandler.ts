import type { Context } from 'koa';
import type { Logger } from 'pino';
import { BaseError, RateLimitedError } from '../errors/BaseError.ts';
import { sendError } from './envelope.ts';

const GENERIC: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  404: 'not found',
  405: 'method not allowed',
  413: 'request body too large',
  415: 'unsupported media type',
  429: 'too many requests',
  500: 'internal server error',
  501: 'not implemented',
  503: 'service unavailable',
};

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  message?: string;
  limit?: number;
}

/**
 * The one error boundary's answer to a request that threw (requestBoundary.ts calls it): every thrown error becomes
 * the SPEC envelope. Client errors keep their message; server errors get a generic one and the detail goes to the log.
 */
export function answerError(ctx: Context, caught: unknown, logger: Logger): void {
  if (caught instanceof BaseError) {
    if (caught instanceof RateLimitedError) ctx.set('Retry-After', String(caught.retryAfterSeconds));
    if (!caught.expose) logger.error({ err: caught, reqId: ctx.state.reqId }, 'request failed');
    else if (caught.status >= 500) logger.warn({ err: caught, reqId: ctx.state.reqId }, caught.message);
    sendError(ctx, caught.status, caught.expose ? caught.message : (GENERIC[caught.status] ?? 'internal server error'));
    return;
  }
  const err = (caught ?? {}) as HttpLikeError;
  const status = err.status ?? err.statusCode ?? 500;
  if (err.type === 'entity.too.large' || status === 413) {
    sendError(ctx, 413, `request body too large: the limit is ${err.limit ?? 'configured'} bytes`);
  } else if (err.type === 'entity.parse.failed' || (status === 400 && caught instanceof SyntaxError)) {
    sendError(ctx, 400, 'malformed JSON body');
  } else if (status >= 400 && status < 500 && err.expose !== false) {
    sendError(ctx, status, err.message || GENERIC[status] || 'bad request');
  } else {
    logger.error({ err: caught, reqId: ctx.state.reqId }, 'unexpected error');
    sendError(ctx, 500, GENERIC[500]);
  }
}

/** The error boundary's answer to a request that ended without a body at a 4xx/5xx status: the SPEC envelope. */
export function answerEmptyError(ctx: Context): void {
  if (ctx.body == null && ctx.status >= 400) {
    const message = ctx.status === 404 ? `not found: ${ctx.method} ${ctx.path}` : (GENERIC[ctx.status] ?? 'error');
    sendError(ctx, ctx.status, message);
  }
}
