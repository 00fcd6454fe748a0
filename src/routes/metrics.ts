import Router from '@koa/router';
import type { Metrics } from '../http/metrics.ts';

/** GET /metrics: the Prometheus text exposition format (not the JSON envelope: scrapers expect this format). */
export function metricsRouter(metrics: Metrics): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await metrics.render();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  });
  return router;
}
