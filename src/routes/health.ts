import Router from '@koa/router';
import { sendData } from '../http/envelope.ts';

/** Liveness: the process answers. Readiness checks are added by the operations issue. */
export function healthRouter(): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => sendData(ctx, 'ok', { status: 'ok' }));
  return router;
}
