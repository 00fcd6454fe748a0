import Router from '@koa/router';
import { openApiDocument } from './openApiDocument.ts';

/** GET /openapi.json: the OpenAPI 3.1 document (version 0.1.0), serialised once. */
export function openapiRouter(): Router {
  const router = new Router();
  const body = JSON.stringify(openApiDocument);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = body;
  });
  return router;
}
