// Methods a path does not serve (issue 15): every method is 405 with the envelope and an Allow header, never the
// router's 501; OPTIONS lists the methods of the path; the quote id route takes UUIDs only, so /quotes/routes is
// POST alone.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildStubQuoteApp } from '../helpers/stubQuoteApp.ts';

const s = await buildStubQuoteApp();
t.teardown(() => s.close());
const UUID = '7a0c6b1e-0000-4000-8000-000000000000';

t.test('a method a path does not serve: 405, the envelope and Allow', async (t) => {
  const cases: [string, string, string][] = [
    ['TRACE', '/blockchains', 'HEAD, GET'],
    ['QUERY', '/blockchains/tokens', 'HEAD, GET'],
    ['PROPFIND', '/healthz', 'HEAD, GET'],
    ['PUT', '/blockchains', 'HEAD, GET'],
    ['DELETE', `/quotes/${UUID}`, 'HEAD, GET'],
    ['TRACE', '/quotes/routes', 'POST'],
    ['GET', '/quotes/routes', 'POST'],
    ['PATCH', '/quotes', 'POST'],
  ];
  for (const [method, path, allow] of cases) {
    const res = await s.request(method, path);
    t.strictSame(
      [res.status, res.body, res.headers.allow],
      [405, { code: 405, message: 'method not allowed' }, allow],
      `${method} ${path}`,
    );
  }
});

t.test('an unknown path is 404 whatever the method', async (t) => {
  for (const method of ['TRACE', 'QUERY', 'GET', 'POST']) {
    const res = await s.request(method, '/nope');
    t.strictSame([res.status, res.body], [404, { code: 404, message: `not found: ${method} /nope` }], method);
  }
});

t.test('OPTIONS answers with the methods of the path alone', async (t) => {
  const cases: [string, string][] = [
    ['/quotes/routes', 'POST'],
    ['/quotes', 'POST'],
    [`/quotes/${UUID}`, 'HEAD, GET'],
    ['/blockchains', 'HEAD, GET'],
  ];
  for (const [path, allow] of cases) {
    const res = await s.request('OPTIONS', path);
    t.strictSame(
      [res.status, res.body, res.headers.allow],
      [200, { code: 200, message: `allowed methods: ${allow}`, data: null }, allow],
      path,
    );
  }
  const notAnId = await s.request('OPTIONS', '/quotes/not-a-uuid');
  t.strictSame([notAnId.status, notAnId.body], [404, { code: 404, message: 'not found: OPTIONS /quotes/not-a-uuid' }]);
});

t.test("over a real socket: Node's parser lets TRACE and QUERY through, and the app answers 405", async (t) => {
  const server = s.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  for (const method of ['TRACE', 'QUERY']) {
    const [status, allow, body] = await new Promise<[number | undefined, string | undefined, string]>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path: '/blockchains' }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve([res.statusCode, res.headers.allow, text]));
      });
      req.on('error', reject).end();
    });
    t.strictSame([status, allow, JSON.parse(body)], [405, 'HEAD, GET', { code: 405, message: 'method not allowed' }], method);
  }
});

t.test('over a real socket: the OPTIONS envelope keeps the header order of a Koa object body (Content-Length last)', async (t) => {
  const server = s.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  const names = await new Promise<string[]>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'OPTIONS', path: '/quotes/routes' }, (res) => {
      res.resume().on('end', () => resolve(res.rawHeaders.filter((_, i) => i % 2 === 0)));
    });
    req.on('error', reject).end();
  });
  t.strictSame(names, ['X-Request-Id', 'Content-Type', 'Allow', 'Content-Length', 'Date', 'Connection', 'Keep-Alive']);
});
