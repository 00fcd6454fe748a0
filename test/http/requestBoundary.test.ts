// requestBoundary: the request id, the log line, the error envelope and the metrics calls of one request, as the four
// middleware it replaces gave them (request log outermost, then the error boundary, the OPTIONS envelope, metrics).
import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import t, { type Test } from 'tap';
import { ValidationError } from '../../src/errors/BaseError.ts';
import { sendData } from '../../src/http/envelope.ts';
import { requestBoundary } from '../../src/http/requestBoundary.ts';
import { request } from '../helpers/testApp.ts';

const lines: Record<string, unknown>[] = [];
const logger = pino(
  { level: 'info', base: { service: 'test' } },
  new Writable({
    write: (chunk, _enc, done) => {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  }),
);
/** What the boundary told the metrics: which call, the status the context had then, the error. */
const calls: [string, number, unknown][] = [];
const metrics = {
  answered: (ctx: Koa.Context) => void calls.push(['answered', ctx.status, undefined]),
  failed: (ctx: Koa.Context, _started: number, error: unknown) => void calls.push(['failed', ctx.status, error]),
};
const app = new Koa();
app.silent = true;
app.use(requestBoundary(logger, metrics));
const invalid = new ValidationError('amount: must be a string');
const broken = new Error('database on fire');
app.use(async (ctx) => {
  if (ctx.path === '/ok') sendData(ctx, 'fine', 1);
  if (ctx.path === '/invalid') throw invalid;
  if (ctx.path === '/broken') throw broken;
  if (ctx.path === '/options') {
    ctx.set('Allow', 'POST');
    ctx.status = 200;
    ctx.body = '';
  }
  // any other path: nothing is set (Koa's 404)
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Forgets what earlier requests logged and told the metrics. */
function reset(): void {
  lines.length = 0;
  calls.length = 0;
}

/** The request's log line with its latency checked and taken out (it varies). */
function requestLine(t: Test): Record<string, unknown> {
  const line = lines.find((l) => l.msg === 'request');
  t.ok(line, 'a request line');
  const { time, pid, hostname, ms, ...rest } = line!;
  // As written in the line (its text, not ms * 1000 in floating point: 1.005 * 1000 is 1004.9999999999999).
  t.ok(typeof ms === 'number' && /^\d+(\.\d{1,3})?$/.test(String(ms)), `ms with at most 3 decimals: ${ms}`);
  t.equal(typeof time, 'number');
  return rest;
}

t.test('requestBoundary: an answered request: its id echoed, one line with the final status, metrics told the status', async (t) => {
  reset();
  const res = await request(app, 'GET', '/ok?key=secret', { headers: { 'x-request-id': 'client-1.a_b' } });
  t.strictSame([res.status, res.body, res.headers['x-request-id']], [200, { code: 200, message: 'fine', data: 1 }, 'client-1.a_b']);
  t.strictSame(requestLine(t), {
    level: 30,
    service: 'test',
    reqId: 'client-1.a_b',
    method: 'GET',
    path: '/ok',
    status: 200,
    msg: 'request',
  });
  t.strictSame(calls, [['answered', 200, undefined]]);
});

t.test('requestBoundary: a request id that is not 1-64 word characters, dots or dashes is replaced by a UUID', async (t) => {
  reset();
  for (const given of [undefined, '', 'has space', 'x'.repeat(65), 'semi;colon']) {
    reset();
    const res = await request(app, 'GET', '/ok', { headers: given === undefined ? {} : { 'x-request-id': given } });
    const id = res.headers['x-request-id'] as string;
    t.match(id, UUID, `${given?.slice(0, 10)}: a fresh UUID`);
    t.equal(requestLine(t).reqId, id);
  }
  t.match(lines, [], 'no other line');
});

t.test('requestBoundary: thrown errors: envelope, metrics told the error, the line has the answered status', async (t) => {
  reset();
  const res = await request(app, 'POST', '/invalid', { headers: { 'x-request-id': 'r1' } });
  t.strictSame([res.status, res.body], [400, { code: 400, message: 'amount: must be a string' }]);
  t.strictSame(requestLine(t), { level: 30, service: 'test', reqId: 'r1', method: 'POST', path: '/invalid', status: 400, msg: 'request' });
  t.strictSame(calls, [['failed', 404, invalid]], 'metrics see the error before any envelope');

  reset();
  const failed = await request(app, 'GET', '/broken', { headers: { 'x-request-id': 'r2' } });
  t.strictSame([failed.status, failed.body], [500, { code: 500, message: 'internal server error' }]);
  t.strictSame(
    lines.map((l) => [l.level, l.msg, l.reqId, l.status]),
    [
      [50, 'unexpected error', 'r2', undefined],
      [30, 'request', 'r2', 500],
    ],
    'the error logged with the request id, then the request line',
  );
  t.strictSame(calls, [['failed', 404, broken]]);
});

t.test('requestBoundary: an empty 4xx gets the envelope; an empty OPTIONS 200 the allowed methods', async (t) => {
  reset();
  const res = await request(app, 'GET', '/nope');
  t.strictSame([res.status, res.body], [404, { code: 404, message: 'not found: GET /nope' }]);
  t.equal(requestLine(t).status, 404);
  t.strictSame(calls, [['answered', 404, undefined]]);
  reset();
  const options = await request(app, 'OPTIONS', '/options');
  t.strictSame([options.status, options.body], [200, { code: 200, message: 'allowed methods: POST', data: null }]);
  t.strictSame(calls, [['answered', 200, undefined]]);
});
