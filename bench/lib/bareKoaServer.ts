/**
 * The HTTP ceiling for our framework on this machine: Koa + @koa/router + koa-bodyparser (the same
 * packages and body-parser options as the service) answering every POST with a fixed JSON envelope.
 * Run as its own process by bench/http.ts; listens on PORT/HOST.
 */
import { createServer } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';

const app = new Koa({ proxy: false });
app.silent = true;
app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '65536b', strict: true }));
const router = new Router();
const envelope = { code: 200, message: 'ok', data: { status: 'ok' } };
router.get('/healthz', (ctx) => {
  ctx.body = envelope;
});
router.post('/echo', (ctx) => {
  ctx.body = envelope;
});
app.use(router.routes());
app.use(router.allowedMethods());
const server = createServer(app.callback());
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 3999), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
