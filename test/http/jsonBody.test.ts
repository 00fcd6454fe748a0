import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { buildStubQuoteApp, fixtureQuoteRequest as VALID } from '../helpers/stubQuoteApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const s = await buildStubQuoteApp();
t.teardown(() => s.close());

const JSON_TYPE = { 'content-type': 'application/json' };
/** The valid body's JSON text with one field's raw JSON text replaced (to send -0, 1e400 ...). */
const withRaw = (field: keyof typeof VALID, rawValue: string) =>
  JSON.stringify(VALID).replace(`"${field}":${JSON.stringify(VALID[field])}`, `"${field}":${rawValue}`);
const post = (payload: string | Buffer, headers: Record<string, string> = JSON_TYPE) =>
  s.request('POST', '/quotes/routes', { payload: payload as string, headers });
const error = (code: number, message: string) => ({ code, message });

t.test('jsonBody: a body over BODY_LIMIT_BYTES (65536) is a 413 envelope; exactly at the limit is read', async (t) => {
  // Padded with whitespace: an unknown field would be refused (400) once read.
  const pad = (n: number) => JSON.stringify(VALID).replace('{', `{${' '.repeat(n)}`);
  const base = pad(0).length;
  const atLimit = pad(65_536 - base);
  t.equal(Buffer.byteLength(atLimit), 65_536);
  t.equal((await post(atLimit)).status, 200);
  const over = pad(65_537 - base);
  const res = await post(over);
  t.equal(res.status, 413);
  t.same(res.body, error(413, 'request body too large: the limit is 65536 bytes'));
});

t.test('jsonBody: the limit applies after decompression (a gzip bomb is a 413)', async (t) => {
  const bomb = gzipSync(Buffer.from(JSON.stringify({ ...VALID, padding: ' '.repeat(1_000_000) })));
  t.ok(bomb.length < 65_536, `compressed to ${bomb.length} bytes`);
  const res = await post(bomb, { ...JSON_TYPE, 'content-encoding': 'gzip' });
  t.same([res.status, res.body], [413, error(413, 'request body too large: the limit is 65536 bytes')]);
  const fine = await post(gzipSync(Buffer.from(JSON.stringify(VALID))), { ...JSON_TYPE, 'content-encoding': 'gzip' });
  t.equal(fine.status, 200, 'a valid gzip body is read');
});

t.test('jsonBody: malformed or non-object JSON is a 400 envelope', async (t) => {
  const cases: [string, string][] = [
    ['{"amount":', 'malformed JSON body'],
    ['{"a":1,}', 'malformed JSON body'],
    ["{'a':1}", 'malformed JSON body'],
    ['['.repeat(30_000), 'malformed JSON body'],
    ['"a string"', 'request body must be a JSON object'],
    ['42', 'request body must be a JSON object'],
    ['null', 'request body must be a JSON object'],
    ['[]', 'request body must be a JSON object'],
    ['[{"amount":"1"}]', 'request body must be a JSON object'],
    ['{"__proto__":{"admin":true}}', 'request body must not contain a "__proto__" key'],
    ['{"a":{"b":{"__proto__":{"admin":true}}}}', 'request body must not contain a "__proto__" key'],
  ];
  for (const [payload, message] of cases) {
    const res = await post(payload);
    t.same([res.status, res.body], [400, error(400, message)], payload.slice(0, 40));
  }
});

t.test('jsonBody: invalid compressed bodies are 400, unknown encodings 415', async (t) => {
  for (const encoding of ['gzip', 'deflate', 'br']) {
    const res = await post('not compressed', { ...JSON_TYPE, 'content-encoding': encoding });
    t.same([res.status, res.body], [400, error(400, 'request body could not be decompressed: invalid gzip/deflate/br data')], encoding);
  }
  const res = await post(JSON.stringify(VALID), { ...JSON_TYPE, 'content-encoding': 'x-unknown' });
  t.same([res.status, res.body], [415, error(415, 'Unsupported Content-Encoding: x-unknown')]);
});

t.test('a POST body that is not JSON is a 400 envelope naming the expected content type', async (t) => {
  const message = 'request body must be JSON (Content-Type: application/json)';
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/vnd.api+json',
  ]) {
    const res = await post(JSON.stringify(VALID), { 'content-type': type });
    t.same([res.status, res.body], [400, error(400, message)], type);
  }
  const none = await s.request('POST', '/quotes/routes', { payload: JSON.stringify(VALID) });
  t.same([none.status, none.body], [400, error(400, message)], 'no Content-Type');
  const charset = await post(JSON.stringify(VALID), { 'content-type': 'application/json; charset=utf-8' });
  t.equal(charset.status, 200, 'application/json with a charset is JSON');
});

t.test('absurd numbers in a quote request are 400 with a message naming the field', async (t) => {
  const cases: [string, string][] = [
    [withRaw('amount', JSON.stringify('1'.repeat(10_000))), 'amount: must be at most 100 characters'],
    [withRaw('amount', '"-0"'), 'amount: must be a positive decimal string such as "1.5" (no sign, exponent or spaces)'],
    [withRaw('amount', '"1e18"'), 'amount: must be a positive decimal string such as "1.5" (no sign, exponent or spaces)'],
    [withRaw('amount', '"0x10"'), 'amount: must be a positive decimal string such as "1.5" (no sign, exponent or spaces)'],
    [withRaw('amount', '"0"'), 'amount: must be greater than zero'],
    [withRaw('amount', '"0.0000000000000000001"'), 'amount: has 19 decimal places; the token has 18'],
    [withRaw('amount', '1'), 'amount: must be a string'],
    [withRaw('amount', '1e400'), 'amount: must be a string'],
    [withRaw('originChainId', '-0'), 'originChainId: must be a positive integer'],
    [withRaw('originChainId', '0'), 'originChainId: must be a positive integer'],
    [withRaw('originChainId', '9007199254740992'), 'originChainId: must be a positive integer'],
    [withRaw('originChainId', '9007199254740993'), 'originChainId: must be a positive integer'],
    [withRaw('originChainId', '1'.repeat(10_000)), 'originChainId: must be a positive integer'],
    [withRaw('originChainId', '1e400'), 'originChainId: must be a positive integer'],
    [withRaw('destinationChainId', '1001.5'), 'destinationChainId: must be an integer'],
    [withRaw('destinationChainId', '"1001"'), 'destinationChainId: must be an integer'],
    [withRaw('destinationChainId', '9007199254740991'), 'destinationChainId: unknown chain 9007199254740991'],
  ];
  for (const [payload, message] of cases) {
    const res = await post(payload);
    t.same([res.status, res.body], [400, error(400, message)], payload.length > 200 ? `${payload.slice(0, 60)}…` : payload);
  }
});

t.test('absurd chain ids in the query are 400 "chainId: must be a positive integer"; unknown parameters are ignored', async (t) => {
  for (const value of ['-0', '0', '1e3', '0x3e9', '1001.0', '9007199254740993', '9'.repeat(10_000), '%20', 'abc']) {
    for (const path of ['/blockchains', '/blockchains/tokens', '/blockchains/dex', '/blockchains/pools']) {
      const res = await s.request('GET', `${path}?chainId=${value}`);
      t.same([res.status, res.body], [400, error(400, 'chainId: must be a positive integer')], `${path}?chainId=${value.slice(0, 20)}`);
    }
  }
  const res = await s.request<Answer<unknown[]>>('GET', '/blockchains/tokens?chainId=1001&unknown=1&limit=-5');
  t.equal(res.status, 200);
  t.equal(res.body.data.length, 4);
});

t.test('a GET request body is ignored, even when malformed', async (t) => {
  const res = await s.request('GET', '/blockchains/tokens?chainId=1001', { payload: '{', headers: JSON_TYPE });
  t.equal(res.status, 200);
});

t.test('jsonBody over a real socket: split, BOM-led and bad bodies answer exactly, with or without a charset', async (t) => {
  const server = s.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  const CLOCK_FIELDS = new Set(['deadline', 'ageSeconds']);
  /** Sends `parts` as the body (one write each, a pause between them) with the given Content-Type. */
  const send = (type: string, parts: Buffer[]) =>
    new Promise<[number | undefined, unknown]>((resolve, reject) => {
      const length = parts.reduce((n, p) => n + p.length, 0);
      const headers = { 'content-type': type, 'content-length': String(length) };
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/quotes/routes', headers }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (text += chunk))
          // Deadlines and the snapshot's age follow the clock: left out.
          .on('end', () => resolve([res.statusCode, JSON.parse(text, (key, value) => (CLOCK_FIELDS.has(key) ? undefined : value))]));
      });
      req.on('error', reject);
      const [first, ...rest] = parts;
      req.write(first ?? Buffer.alloc(0));
      setTimeout(() => {
        for (const part of rest) req.write(part);
        req.end();
      }, 20);
    });
  const valid = Buffer.from(JSON.stringify(VALID));
  const routes = await send('application/json; charset=utf-8', [valid]);
  t.equal(routes[0], 200);
  const [beforeBad, afterBad] = withRaw('amount', '"1@@"').split('@@');
  const invalidUtf8 = Buffer.concat([Buffer.from(beforeBad), Buffer.from([0xe2, 0x82, 0xff]), Buffer.from(afterBad)]);
  const cases: [string, Buffer[], [number, unknown]][] = [
    ['valid', [valid], routes as [number, unknown]],
    ['valid, in three writes', [valid.subarray(0, 10), valid.subarray(10, 50), valid.subarray(50)], routes as [number, unknown]],
    ['valid after a byte-order mark', [Buffer.from([0xef, 0xbb, 0xbf]), valid], routes as [number, unknown]],
    [
      'empty',
      [],
      [
        400,
        error(
          400,
          'amount: is required; destinationChainId: is required; originChainId: is required; recipientAddress: is required; tokenIn: is required; tokenOut: is required',
        ),
      ],
    ],
    ['malformed', [Buffer.from('{"amount":')], [400, error(400, 'malformed JSON body')]],
    ['not an object', [Buffer.from(' 42')], [400, error(400, 'request body must be a JSON object')]],
    [
      'a __proto__ key',
      [Buffer.from('{"a":{"\\u005f_proto__":{"admin":true}}}')],
      [400, error(400, 'request body must not contain a "__proto__" key')],
    ],
    [
      'invalid UTF-8 in a string',
      [invalidUtf8],
      [400, error(400, 'amount: must be a positive decimal string such as "1.5" (no sign, exponent or spaces)')],
    ],
  ];
  for (const [name, parts, expected] of cases) {
    const usual = await send('application/json', parts);
    const withCharset = await send('application/json; charset=utf-8', parts);
    t.strictSame(usual, expected, `${name}: the expected answer`);
    t.strictSame(withCharset, expected, `${name}: the same answer with a charset parameter`);
  }
});
