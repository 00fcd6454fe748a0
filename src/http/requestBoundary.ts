import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { sendData } from './envelope.ts';
import { answerEmptyError, answerError } from './errorHandler.ts';
import type { Metrics } from './metrics.ts';

const REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * The outer edge of every request, as one middleware (one await where four layers each awaited the next), doing
 * in order what those layers did from the inside out:
 * - request metrics (`metrics`, when given): the status the routes set, or the status of the error they threw;
 * - the router's empty OPTIONS answer (200, Allow header) given the envelope;
 * - the one error boundary (errorHandler.ts): a thrown error or an empty 4xx/5xx becomes the SPEC envelope;
 * - the request id (the client's `X-Request-Id` when it is 1 to 64 word characters, dots or dashes, a fresh UUID
 *   otherwise), on `ctx.state.reqId` and echoed in `X-Request-Id`, and one log line when the request ends: request id,
 *   method, path (never the query string or headers, which can carry keys), final status and latency in ms.
 */
export function requestBoundary(logger: Logger, metrics?: Pick<Metrics, 'answered' | 'failed'>): Middleware {
  return async function handleRequest(ctx, next) {
    const started = performance.now();
    const incoming = ctx.req.headers['x-request-id'];
    const reqId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.reqId = reqId;
    ctx.set('X-Request-Id', reqId);
    try {
      try {
        await next();
      } catch (caught) {
        metrics?.failed(ctx, started, caught);
        answerError(ctx, caught, logger);
        return;
      }
      metrics?.answered(ctx, started);
      if (ctx.method === 'OPTIONS' && ctx.status === 200 && ctx.body === '')
        sendData(ctx, `allowed methods: ${ctx.response.get('Allow')}`, null);
      answerEmptyError(ctx);
    } finally {
      const ms = performance.now() - started;
      logger.info({ reqId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 1000) / 1000 }, 'request');
    }
  };
}
