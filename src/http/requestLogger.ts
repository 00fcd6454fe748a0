import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/**
 * Gives each request an id (echoed in `X-Request-Id`) and logs one line when it ends: request id,
 * method, path (never the query string or headers, which can carry keys), status and latency.
 */
export function requestLogger(logger: Logger): Middleware {
  return async function logRequest(ctx, next) {
    const start = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const reqId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.reqId = reqId;
    ctx.set('X-Request-Id', reqId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      logger.info({ reqId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 1000) / 1000 }, 'request');
    }
  };
}
