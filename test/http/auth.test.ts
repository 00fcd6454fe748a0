import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import t from 'tap';
import { apiKeyOf, optionalApiKey, requireApiKey } from '../../src/http/auth.ts';
import { sendData } from '../../src/http/envelope.ts';
import { requestBoundary } from '../../src/http/requestBoundary.ts';
import { type ApiKeyStore, createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { freePort } from '../helpers/freePort.ts';
import { request } from '../helpers/testApp.ts';

/** Everything the app logs, at every level, to check no key ever reaches a log. */
const logLines: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write: (chunk, _enc, done) => {
      logLines.push(String(chunk));
      done();
    },
  }),
);

/** A tiny app: the project's request log and error boundary, one required and one optional route. */
function tinyApp(keys: Pick<ApiKeyStore, 'verify'>): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(requestBoundary(logger));
  const required = requireApiKey(keys);
  const optional = optionalApiKey(keys);
  app.use(async (ctx, next) => {
    if (ctx.path === '/private') return required(ctx, async () => sendData(ctx, 'ok', apiKeyOf(ctx) ?? null));
    if (ctx.path === '/public') return optional(ctx, async () => sendData(ctx, 'ok', apiKeyOf(ctx) ?? null));
    return next();
  });
  return app;
}

const dataDir = mkdtempSync(join(tmpdir(), 'sqs-auth-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const store = createApiKeyStore({ redisUrl: undefined, dataDir });
const app = tinyApp(store);
const { key, record } = await store.create('acme');
const revokedKey = await store.create('gone');
await store.revoke(revokedKey.record.id);
const foreignKey = `sqk_${'A'.repeat(43)}`;
const secrets = [key, revokedKey.key, foreignKey];

const MISSING = { code: 401, message: 'missing API key: send Authorization: Bearer <key> or X-API-Key: <key>' };
const INVALID = { code: 401, message: 'invalid API key' };

t.test('required route: accepted keys, through either header', async (t) => {
  const ok = { code: 200, message: 'ok', data: { id: record.id, org: 'acme' } };
  const variants: Array<Record<string, string>> = [
    { authorization: `Bearer ${key}` },
    { authorization: `bearer ${key}` },
    { authorization: `Bearer   ${key}  ` },
    { 'x-api-key': key },
    { authorization: `Bearer ${key}`, 'x-api-key': key },
  ];
  for (const headers of variants) {
    const res = await request(app, 'GET', '/private', { headers });
    t.equal(res.status, 200, JSON.stringify(Object.keys(headers)));
    t.same(res.body, ok);
  }
});

t.test('required route: exact 401 bodies', async (t) => {
  const cases: Array<[string, Record<string, string>, object]> = [
    ['no header', {}, MISSING],
    ['empty X-API-Key', { 'x-api-key': '' }, MISSING],
    ['unknown key (Bearer)', { authorization: `Bearer ${foreignKey}` }, INVALID],
    ['unknown key (X-API-Key)', { 'x-api-key': foreignKey }, INVALID],
    ['revoked key', { authorization: `Bearer ${revokedKey.key}` }, INVALID],
    ['tampered key', { 'x-api-key': key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A') }, INVALID],
    ['garbage', { 'x-api-key': 'hello' }, INVALID],
    ['key with a space inside', { 'x-api-key': `${key} ${key}` }, INVALID],
    ['Bearer without a key', { authorization: 'Bearer' }, { code: 401, message: 'invalid Authorization header: expected "Bearer <key>"' }],
    [
      'Basic scheme',
      { authorization: `Basic ${Buffer.from(`u:${key}`).toString('base64')}` },
      { code: 401, message: 'invalid Authorization header: expected "Bearer <key>"' },
    ],
    [
      'two different keys',
      { authorization: `Bearer ${key}`, 'x-api-key': foreignKey },
      { code: 401, message: 'conflicting API keys: Authorization and X-API-Key carry different keys' },
    ],
  ];
  for (const [name, headers, body] of cases) {
    const res = await request(app, 'GET', '/private', { headers });
    t.equal(res.status, 401, name);
    t.same(res.body, body, name);
    t.match(res.headers['www-authenticate'], /^Bearer/, `${name}: WWW-Authenticate`);
  }
});

t.test('optional route: no key is fine, a valid key is identified, an invalid one is 401', async (t) => {
  t.same((await request(app, 'GET', '/public')).body, { code: 200, message: 'ok', data: null });
  t.same((await request(app, 'GET', '/public', { headers: { 'x-api-key': key } })).body, {
    code: 200,
    message: 'ok',
    data: { id: record.id, org: 'acme' },
  });
  const invalid = await request(app, 'GET', '/public', { headers: { authorization: `Bearer ${foreignKey}` } });
  t.equal(invalid.status, 401);
  t.same(invalid.body, INVALID);
  const revoked = await request(app, 'GET', '/public', { headers: { 'x-api-key': revokedKey.key } });
  t.equal(revoked.status, 401);
  t.same(revoked.body, INVALID);
});

t.test('a key created after the app started is accepted without restart', async (t) => {
  const other = createApiKeyStore({ redisUrl: undefined, dataDir });
  const fresh = await other.create('late');
  const res = await request(app, 'GET', '/private', { headers: { authorization: `Bearer ${fresh.key}` } });
  t.same(res.body, { code: 200, message: 'ok', data: { id: fresh.record.id, org: 'late' } });
  secrets.push(fresh.key);
});

t.test('key store unreachable (Redis down): 503 envelope, not 401, on both kinds of route', async (t) => {
  const down = createApiKeyStore({ redisUrl: `redis://127.0.0.1:${await freePort()}`, dataDir });
  t.teardown(() => down.close());
  const downApp = tinyApp(down);
  for (const path of ['/private', '/public']) {
    const res = await request(downApp, 'GET', path, { headers: { authorization: `Bearer ${key}` } });
    t.equal(res.status, 503, path);
    t.same(res.body, { code: 503, message: 'API key store unavailable: try again later' }, path);
  }
  // Without a key, the required route still says "missing" (no store call needed); the optional one serves.
  t.same((await request(downApp, 'GET', '/private')).body, MISSING);
  t.same((await request(downApp, 'GET', '/public')).body, { code: 200, message: 'ok', data: null });
});

t.test('no key ever appears in a response or a log line', async (t) => {
  t.ok(logLines.length > 0, 'the app logged');
  const logs = logLines.join('');
  for (const secret of secrets) t.notOk(logs.includes(secret), 'not in logs');
  // Responses were checked by exact bodies above; headers too:
  const res = await request(app, 'GET', '/private', { headers: { authorization: `Bearer ${foreignKey}` } });
  t.notOk(JSON.stringify(res.headers).includes(foreignKey));
  t.notOk(res.text.includes(foreignKey));
});

t.test('a request verifies its key once: the rate limiter and the auth middleware share the answer', async (t) => {
  const { verifyForRequest } = await import('../../src/http/auth.ts');
  let calls = 0;
  let fail = false;
  const keys = {
    async verify(key: string) {
      calls += 1;
      if (fail) throw new Error('store down');
      return key === 'good' ? { id: 'key_000000000001', org: 'acme' } : undefined;
    },
  };
  const ctx = { state: {} } as unknown as Koa.Context;
  t.same(await verifyForRequest(ctx, keys, 'good'), { id: 'key_000000000001', org: 'acme' });
  t.same(await verifyForRequest(ctx, keys, 'good'), { id: 'key_000000000001', org: 'acme' });
  t.equal(calls, 1, 'the second call in the same request reuses the answer');
  t.equal(await verifyForRequest(ctx, keys, 'other'), undefined);
  t.equal(calls, 2, 'another key is verified');
  const next = { state: {} } as unknown as Koa.Context;
  await verifyForRequest(next, keys, 'good');
  t.equal(calls, 3, 'another request verifies again (nothing kept across requests)');
  fail = true;
  const failing = { state: {} } as unknown as Koa.Context;
  await t.rejects(verifyForRequest(failing, keys, 'good'));
  await t.rejects(verifyForRequest(failing, keys, 'good'), 'a store failure is not kept: the next call asks again');
  t.equal(calls, 5);
});

// ctx.state is typed for the app (src/http/AppState.ts augments Koa's DefaultState): `npx tsc --noEmit` fails on
// these lines if it is untyped again (an unused @ts-expect-error is an error).
export function stateTypes(ctx: Koa.Context): void {
  // @ts-expect-error apiKey may be absent: only routes behind requireApiKey (KeyedState) may read it unchecked
  void ctx.state.apiKey.org;
  // @ts-expect-error the state holds the key's id and organization, never the key
  void ctx.state.apiKey?.key;
  // @ts-expect-error the request id is a string
  void (ctx.state.reqId satisfies number | undefined);
}
