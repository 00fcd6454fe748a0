import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type Router from '@koa/router';
import { Ajv2020 } from 'ajv/dist/2020.js';
import t, { type Test } from 'tap';
import { routeTemplate } from '../../src/app.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { Envelope } from '../../src/http/envelope.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { createMemoryRateLimitStore } from '../../src/http/rateLimit.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { quoteRequestSchema } from '../../src/quote/quoteRequestSchema.ts';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import { blockchainsRouter } from '../../src/routes/blockchains.ts';
import { healthRouter } from '../../src/routes/health.ts';
import { metricsRouter } from '../../src/routes/metrics.ts';
import { openapiRouter } from '../../src/routes/openapi.ts';
import { quotesRouter } from '../../src/routes/quotes.ts';
import { buildStubQuoteApp, type StubQuoteApp } from '../helpers/stubQuoteApp.ts';
import { type Answer, buildTestApp, fixtureCatalogDir, fixtureSnapshotDir, type TestResponse } from '../helpers/testApp.ts';

const s = await buildStubQuoteApp();
t.teardown(() => s.close());

/** The JSON Schema keywords these tests read. */
interface JsonSchema {
  type?: string | string[];
  description?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  maximum?: number;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  $ref?: string;
}
/** An operation of the document, as far as these tests read it. */
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; example?: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: JsonSchema }> }>;
}
/** The served OpenAPI 3.1 document, as far as these tests read it. */
interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: Record<string, { schema: JsonSchema }> }>; schemas: Record<string, JsonSchema> };
}

const served = await s.request<OpenApiDocument>('GET', '/openapi.json');
const doc = served.body;

// Formats (uuid, date-time) are annotations here: ajv-formats is not a dependency; the test checks them by hand.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
ajv.addSchema({ ...doc, $id: 'openapi.json' });

t.test('GET /openapi.json: an OpenAPI 3.1 document, version 0.1.0, served as JSON', async (t) => {
  t.equal(served.status, 200);
  t.match(served.headers['content-type'], /^application\/json/);
  t.equal(doc.openapi, '3.1.0');
  t.equal(doc.info.version, '0.1.0');
});

t.test('every schema of the document compiles under JSON Schema 2020-12 in strict mode', async (t) => {
  const strict = new Ajv2020({ strict: true, validateFormats: false });
  const retarget = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', 'schemas.json#/$defs/'));
  strict.addSchema({ $id: 'schemas.json', $defs: retarget(doc.components.schemas) });
  for (const name of Object.keys(doc.components.schemas)) {
    t.doesNotThrow(() => strict.compile(retarget(doc.components.schemas[name])), name);
  }
});

t.test('the document lists exactly the routes the routers serve', async (t) => {
  const metrics = createMetrics({ graph: () => s.graph, processMetrics: false });
  const routers: Router[] = [
    healthRouter({ catalog: s.catalog, graph: () => s.graph }),
    blockchainsRouter(s.catalog, () => s.graph),
    openapiRouter(),
    quotesRouter(s.deps.quotes!),
    metricsRouter(metrics),
  ];
  const implemented = routers
    .flatMap((r) =>
      r.stack.flatMap((layer) =>
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${routeTemplate(layer).replace(/:(\w+)/g, '{$1}')}`),
      ),
    )
    .sort();
  const documented = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
    .sort();
  t.same(documented, implemented);
});

/** The schema the document gives for `status` of `method path`, or a failure when that status is undocumented. */
function responseSchema(method: string, path: string, status: number, contentType = 'application/json'): { $ref: string } | undefined {
  const op = doc.paths[path]?.[method.toLowerCase()];
  const documented = op?.responses[String(status)];
  if (!documented) return undefined;
  const base = documented.$ref
    ? `openapi.json#/components/responses/${documented.$ref.split('/').pop()}`
    : `openapi.json#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}`;
  return { $ref: `${base}/content/${contentType.replaceAll('/', '~1')}/schema` };
}

function conforms(t: Test, label: string, method: string, path: string, res: TestResponse): void {
  const ref = responseSchema(method, path, res.status);
  if (!ref) {
    t.fail(`${label}: status ${res.status} of ${method} ${path} is not documented`);
    return;
  }
  const validate = ajv.compile(ref);
  const ok = validate(res.body);
  t.ok(ok, `${label}: ${res.status} matches the document${ok ? '' : `: ${ajv.errorsText(validate.errors)}`}`);
}

const BODY = {
  originChainId: 1001,
  destinationChainId: 1001,
  tokenIn: '0x1111111111111111111111111111111111111111',
  tokenOut: '0x2222222222222222222222222222222222222222',
  amount: '1.5',
  recipientAddress: '0x000000000000000000000000000000000000dEaD',
};
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const USDC = '0x2222222222222222222222222222222222222222';
const WETH = '0x1111111111111111111111111111111111111111';
const keyed = () => ({ authorization: `Bearer ${s.apiKey}` });

t.test('real catalogue responses (fixture catalogue) validate against the document', async (t) => {
  const cases: [string, string, string][] = [
    ['/blockchains', '/blockchains', 'all chains'],
    ['/blockchains', '/blockchains?slug=testchain', 'by slug'],
    ['/blockchains', '/blockchains?chainId=x', 'bad chainId'],
    ['/blockchains/tokens', '/blockchains/tokens', 'all tokens'],
    ['/blockchains/tokens', '/blockchains/tokens?chainId=1001', 'one chain'],
    ['/blockchains/dex', '/blockchains/dex?chainId=1001&slug=uniswap', 'one DEX'],
    ['/blockchains/pools', '/blockchains/pools?chainId=1001', 'pools'],
    ['/blockchains/pools', '/blockchains/pools?chainId=999', 'unknown chain: data null'],
    ['/blockchains/pools', '/blockchains/pools?chainId=1002', 'chain without snapshot: []'],
    ['/blockchains/pools', '/blockchains/pools', 'missing chainId'],
  ];
  for (const [path, url, label] of cases) conforms(t, label, 'GET', path, await s.request('GET', url));
});

t.test(
  'token lists with seeding findings (quotable: false with a reason, a found approvalReset) validate against the document',
  async (t) => {
    const catalog = loadCatalog(fixtureCatalogDir);
    const seeded = JSON.parse(readFileSync(join(fixtureSnapshotDir, 'testchain.json'), 'utf8')) as Snapshot;
    const graph = new PoolGraph(
      [
        {
          ...seeded,
          excludedTokens: [
            {
              address: '0x3333333333333333333333333333333333333333',
              reason: 'metadata',
              detail: 'decimals() is 8 on chain, 18 in the catalogue',
              pools: [],
            },
          ],
          approvalResetTokens: ['0x2222222222222222222222222222222222222222'],
        },
      ],
      catalog,
    );
    const app = buildTestApp({ deps: { graph: () => graph } });
    for (const [path, url] of [
      ['/blockchains', '/blockchains'],
      ['/blockchains/tokens', '/blockchains/tokens?chainId=1001'],
    ]) {
      const res = await app.request('GET', url);
      t.match(res.text, /"quotable":false,"reason":"decimals\(\) is 8 on chain, 18 in the catalogue"/, `${url}: DAI not quotable`);
      t.match(res.text, /"approvalReset":true/, `${url}: USDC's approval reset`);
      conforms(t, url, 'GET', path, res);
    }
  },
);

const root = fileURLToPath(new URL('../../', import.meta.url));

t.test('the shipped catalogue and devnet snapshots validate against the document', async (t) => {
  const real = buildTestApp({ catalogDir: `${root}catalog`, snapshotDir: `${root}seeds/snapshots` });
  for (const [path, url] of [
    ['/blockchains', '/blockchains'],
    ['/blockchains/tokens', '/blockchains/tokens'],
    ['/blockchains/dex', '/blockchains/dex'],
    ['/blockchains/pools', '/blockchains/pools?chainId=31337'],
  ]) {
    const res = await real.request('GET', url);
    t.equal(res.status, 200);
    conforms(t, url, 'GET', path, res);
  }
});

t.test('quote responses (in-process pricer) and quote errors validate against the document', async (t) => {
  const routes = await s.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body: BODY });
  t.equal(routes.status, 200);
  t.ok(routes.body.data.length >= 1, 'at least one route');
  conforms(t, 'routes', 'POST', '/quotes/routes', routes);
  conforms(
    t,
    'wrap route',
    'POST',
    '/quotes/routes',
    await s.request('POST', '/quotes/routes', { body: { ...BODY, tokenIn: ETH, tokenOut: WETH } }),
  );
  const exactOut = await s.request('POST', '/quotes/routes', { body: { ...BODY, tradeType: 'exactOut', amount: '0.1' } });
  t.equal(exactOut.status, 200);
  conforms(t, 'exact-output routes', 'POST', '/quotes/routes', exactOut);
  conforms(t, 'validation error', 'POST', '/quotes/routes', await s.request('POST', '/quotes/routes', { body: { amount: '-1' } }));
  conforms(
    t,
    'no pool',
    'POST',
    '/quotes/routes',
    await s.request('POST', '/quotes/routes', { body: { ...BODY, tokenOut: '0x3333333333333333333333333333333333333333' } }),
  );
  conforms(
    t,
    'invalid key',
    'POST',
    '/quotes/routes',
    await s.request('POST', '/quotes/routes', { body: BODY, headers: { authorization: 'Bearer nope' } }),
  );
  conforms(
    t,
    'too large',
    'POST',
    '/quotes/routes',
    await s.request('POST', '/quotes/routes', {
      payload: `{"a":"${'x'.repeat(70_000)}"}`,
      headers: { 'content-type': 'application/json' },
    }),
  );
  conforms(
    t,
    'bad encoding',
    'POST',
    '/quotes/routes',
    await s.request('POST', '/quotes/routes', {
      payload: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'x-nope' },
    }),
  );

  const created = await s.request<Answer<Quote>>('POST', '/quotes', { body: BODY, headers: keyed() });
  t.equal(created.status, 200);
  conforms(t, 'created quote (approve + swap steps)', 'POST', '/quotes', created);
  t.match(created.body.data.quoteId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'quoteId is a UUID');
  t.ok(
    !Number.isNaN(Date.parse(created.body.data.createdAt)) &&
      created.body.data.createdAt === new Date(created.body.data.createdAt).toISOString(),
    'createdAt is ISO 8601',
  );
  conforms(
    t,
    'native-in quote (value step)',
    'POST',
    '/quotes',
    await s.request('POST', '/quotes', { body: { ...BODY, tokenIn: ETH, tokenOut: USDC }, headers: keyed() }),
  );
  conforms(
    t,
    'wrap quote',
    'POST',
    '/quotes',
    await s.request('POST', '/quotes', { body: { ...BODY, tokenIn: ETH, tokenOut: WETH }, headers: keyed() }),
  );
  const exactOutQuote = await s.request('POST', '/quotes', { body: { ...BODY, tradeType: 'exactOut', amount: '0.1' }, headers: keyed() });
  t.equal(exactOutQuote.status, 200);
  conforms(t, 'exact-output quote', 'POST', '/quotes', exactOutQuote);
  conforms(t, 'no key', 'POST', '/quotes', await s.request('POST', '/quotes', { body: BODY }));
  conforms(t, 'invalid request', 'POST', '/quotes', await s.request('POST', '/quotes', { body: {}, headers: keyed() }));

  const read = await s.request('GET', `/quotes/${created.body.data.quoteId}`, { headers: keyed() });
  t.equal(read.status, 200);
  conforms(t, 'read back', 'GET', '/quotes/{quoteId}', read);
  conforms(
    t,
    'unknown quote',
    'GET',
    '/quotes/{quoteId}',
    await s.request('GET', '/quotes/00000000-0000-4000-8000-000000000000', { headers: keyed() }),
  );
  conforms(t, 'no key', 'GET', '/quotes/{quoteId}', await s.request('GET', '/quotes/x'));

  const refreshed = await s.request('POST', `/quotes/${created.body.data.quoteId}/refresh`, { headers: keyed() });
  t.equal(refreshed.status, 200);
  conforms(t, 'refreshed', 'POST', '/quotes/{quoteId}/refresh', refreshed);
  const auto = await s.request('POST', '/quotes', { body: { ...BODY, slippageBps: 'auto' }, headers: keyed() });
  t.equal(auto.status, 200);
  conforms(t, 'auto slippage', 'POST', '/quotes', auto);
  conforms(
    t,
    'status without an RPC URL',
    'GET',
    '/quotes/{quoteId}/status',
    await s.request('GET', `/quotes/${created.body.data.quoteId}/status?txHash=0x${'00'.repeat(32)}`, { headers: keyed() }),
  );
  conforms(
    t,
    'simulate without an RPC URL',
    'POST',
    '/quotes/{quoteId}/simulate',
    await s.request('POST', `/quotes/${created.body.data.quoteId}/simulate`, { headers: keyed() }),
  );
  conforms(
    t,
    'simulate of an unknown quote',
    'POST',
    '/quotes/{quoteId}/simulate',
    await s.request('POST', '/quotes/00000000-0000-4000-8000-000000000000/simulate', { headers: keyed() }),
  );
  conforms(
    t,
    'refresh of an unknown quote',
    'POST',
    '/quotes/{quoteId}/refresh',
    await s.request('POST', '/quotes/00000000-0000-4000-8000-000000000000/refresh', { headers: keyed() }),
  );
});

t.test('operations responses validate against the document', async (t) => {
  conforms(t, 'healthz', 'GET', '/healthz', await s.request('GET', '/healthz'));
  conforms(t, 'readyz', 'GET', '/readyz', await s.request('GET', '/readyz'));
  const broken = await buildStubQuoteApp({
    pricer: {
      findTrades: async () => Promise.reject(new Error('down')),
      findRoutes: async () => [],
      findQuote: async () => [],
      close: async () => undefined,
      queueSize: () => 0,
    },
  });
  t.teardown(() => broken.close());
  const notReady = await broken.request('GET', '/readyz');
  t.equal(notReady.status, 503);
  conforms(t, 'not ready', 'GET', '/readyz', notReady);
  const metrics = await s.request('GET', '/metrics');
  t.equal(metrics.status, 200);
  t.ok(responseSchema('GET', '/metrics', 200, 'text/plain'), 'metrics: text/plain documented');
  conforms(t, 'openapi', 'GET', '/openapi.json', served);
});

t.test('a 429 validates against the document and carries the documented headers', async (t) => {
  const limited: StubQuoteApp = await buildStubQuoteApp({ env: { RATE_LIMIT_PER_IP: '1' }, rateLimitStore: createMemoryRateLimitStore() });
  t.teardown(() => limited.close());
  await limited.request('GET', '/blockchains');
  const res = await limited.request('GET', '/blockchains');
  t.equal(res.status, 429);
  conforms(t, '429', 'GET', '/blockchains', res);
  const documented = (doc.components.responses.RateLimited as unknown as { headers: Record<string, unknown> }).headers;
  for (const header of Object.keys(documented)) t.ok(res.headers[header.toLowerCase()] !== undefined, `${header} is sent`);
});

t.test('cross-chain quotes (shipped devnet catalogue: 31337 -> 31338 through Across) validate against the document', async (t) => {
  const devnets = await buildStubQuoteApp({ catalogDir: `${root}catalog`, snapshotDir: `${root}seeds/snapshots` });
  t.teardown(() => devnets.close());
  const headers = { authorization: `Bearer ${devnets.apiKey}` };
  const A = {
    WETH: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    USDC: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    DAI: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  };
  const base = {
    originChainId: 31337,
    destinationChainId: 31338,
    amount: '100',
    recipientAddress: '0x00000000000000000000000000000000000000aa',
  };
  const cases: [string, Record<string, unknown>][] = [
    ['same asset', { ...base, tokenIn: A.USDC, tokenOut: A.USDC }],
    ['swap then bridge', { ...base, tokenIn: A.DAI, tokenOut: A.USDC }],
    ['native asset', { ...base, tokenIn: ETH, tokenOut: ETH, amount: '1' }],
  ];
  let bridged = 0;
  for (const [label, body] of cases) {
    const res = await devnets.request<Answer<Quote>>('POST', '/quotes', { body, headers });
    conforms(t, label, 'POST', '/quotes', res);
    if (res.status === 200) {
      bridged += 1;
      t.ok(res.body.data.bridge && res.body.data.fees, `${label}: carries the bridge extension`);
    }
  }
  t.ok(bridged >= 1, `${bridged} cross-chain quotes created`);
});

// --- Issue 15: the document made exact enough for generated clients, fuzzers and linters.

const operations = (): [string, string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [method, path, op] as [string, string, Operation]),
  );

t.test('redocly lint (recommended ruleset): no error; the only warnings are the ones test/routes/redocly.yaml justifies', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sqs-redocly-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lint = async (
    document: unknown,
  ): Promise<{
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
  }> => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // Exit code 1 on errors; the JSON report is on stdout either way.
    const run = await promisify(execFile)(
      join(root, 'node_modules/.bin/redocly'),
      ['lint', '--format', 'json', '--config', join(root, 'test/routes/redocly.yaml'), file],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return JSON.parse(run.stdout);
  };
  const report = await lint(doc);
  const found = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}`);
  t.equal(report.totals.errors, 0, 'no error');
  t.strictSame(found, [
    'warn operation-4xx-response #/paths/~1healthz/get/responses',
    'warn operation-4xx-response #/paths/~1readyz/get/responses',
    'warn operation-4xx-response #/paths/~1metrics/get/responses',
  ]);
  // The lint does catch what issue 15 fixed: a public operation without `security: []` is an error again.
  const broken = structuredClone(doc);
  delete broken.paths['/blockchains'].get.security;
  const brokenReport = await lint(broken);
  t.strictSame(
    brokenReport.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`),
    ['security-defined #/paths/~1blockchains/get'],
  );
});

t.test('every operation declares its security: [] on the public ones, an API key on the keyed ones', async (t) => {
  const declared = Object.fromEntries(operations().map(([method, path, op]) => [`${method} ${path}`, op.security]));
  const key = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
  t.strictSame(declared, {
    'get /blockchains': [],
    'get /blockchains/tokens': [],
    'get /blockchains/dex': [],
    'get /blockchains/pools': [],
    'post /quotes/routes': [{}, ...key],
    'post /quotes': key,
    'get /quotes/{quoteId}': key,
    'post /quotes/{quoteId}/refresh': key,
    'post /quotes/{quoteId}/simulate': key,
    'post /quotes/{quoteId}/swap': key,
    'get /quotes/{quoteId}/status': key,
    'get /healthz': [],
    'get /readyz': [],
    'get /metrics': [],
    'get /openapi.json': [],
  });
});

t.test('chainId query parameters are integers 1 … 2^53 − 1, and the service agrees at both bounds', async (t) => {
  for (const [method, path, op] of operations()) {
    for (const param of (op.parameters ?? []).filter((p) => p.name === 'chainId')) {
      t.strictSame(param.schema, { type: 'integer', minimum: 1, maximum: 9_007_199_254_740_991 }, `${method} ${path}`);
    }
  }
  for (const path of ['/blockchains', '/blockchains/tokens', '/blockchains/dex']) {
    const max = await s.request<Answer<unknown[]>>('GET', `${path}?chainId=9007199254740991`);
    t.strictSame([max.status, max.body.data], [200, []], `${path}: 2^53 − 1 is a chain id (of no chain)`);
    for (const value of ['9007199254740992', '0', '']) {
      const res = await s.request('GET', `${path}?chainId=${value}`);
      t.strictSame(
        [res.status, res.body],
        [400, { code: 400, message: 'chainId: must be a positive integer' }],
        `${path}: ${JSON.stringify(value)}`,
      );
    }
  }
  const schema = doc.components.schemas.QuoteRequest;
  t.strictSame(
    [schema.properties?.originChainId.maximum, schema.properties?.destinationChainId.maximum],
    [9_007_199_254_740_991, 9_007_199_254_740_991],
    "the body's chain ids: the same bound",
  );
});

t.test('QuoteRequest is the validation schema itself (minus the TypeScript-only `nullable`), closed to unknown fields', async (t) => {
  const withoutNullable = JSON.parse(JSON.stringify(quoteRequestSchema, (k, v) => (k === 'nullable' ? undefined : v)));
  const { description, ...schema } = doc.components.schemas.QuoteRequest;
  t.type(description, 'string');
  t.strictSame(schema, withoutNullable);
  t.equal(schema.additionalProperties, false);
  t.strictSame(Object.keys(schema.properties ?? {}).sort(), [
    'amount',
    'approvalMode',
    'destinationChainId',
    'excludeDexes',
    'gasPriceWei',
    'hooks',
    'includeDexes',
    'maxHops',
    'maxPriceImpactBps',
    'maxSplits',
    'originChainId',
    'recipientAddress',
    'sender',
    'simulate',
    'slippageBps',
    'tokenIn',
    'tokenOut',
    'tradeType',
    'walletAddress',
  ]);
});

t.test('the service refuses every body the document refuses, and the document accepts every body the service prices', async (t) => {
  const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/QuoteRequest' });
  const cases: Record<string, unknown>[] = [
    BODY,
    { ...BODY, slippageBps: 0, walletAddress: BODY.recipientAddress },
    { ...BODY, sender: BODY.recipientAddress },
    { ...BODY, maxHops: 2, maxSplits: 1, gasPriceWei: '0' },
    { ...BODY, slipageBps: 50 },
    { ...BODY, originChainId: 9_007_199_254_740_992 },
    { ...BODY, tokenIn: '0x11111111111111111111111111111111111111' },
    { ...BODY, tokenOut: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
    { ...BODY, tokenIn: 'weth', tokenOut: 'USDC' },
    { ...BODY, tokenOut: 'U SDC' },
    { ...BODY, tokenOut: '0x2222' },
    { ...BODY, amount: '1e3' },
    { ...BODY, amount: '01' },
    { ...BODY, gasPriceWei: '1.5' },
    { ...BODY, maxHops: 4 },
    { ...BODY, includeDexes: 'uniswap' },
    { ...BODY, recipientAddress: undefined },
    { ...BODY, sender: '0x1234' },
  ];
  for (const body of cases) {
    const res = await s.request<Envelope>('POST', '/quotes/routes', { body });
    const documented = validate(body);
    if (!documented) t.equal(res.status, 400, `${JSON.stringify(body)}: refused by the document and by the service (${res.body.message})`);
    if (res.status === 200) t.ok(documented, `${JSON.stringify(body)}: priced by the service and valid in the document`);
  }
  t.ok(validate({ ...BODY, tokenIn: 'weth', tokenOut: 'USDC' }), 'the document takes symbols for tokens');
});

t.test('addresses, integer strings, display amounts and ids carry a pattern, format, enum or const', async (t) => {
  // Free text: names, labels and URLs. Every other string property must say its form.
  const FREE_TEXT = new Set([
    'name',
    'symbol',
    'slug',
    'logo',
    'message',
    'nativeToken',
    'blockExplorer',
    'blockChainLogo',
    'dexName',
    'dexSlug',
    'marketCap',
    'hash',
    'explorerUrl',
    'originChain',
    'destinationChain',
    'dex',
    'asset',
    'detail',
    'reason',
    'title',
    'version',
    'url',
    'description',
    'baseTokenBalance',
    'quoteTokenBalance',
    'totalPoolBalance',
    'fixedFee',
    'amountInFloat',
    'amountOutFloat',
    'createdAt',
    'updatedAt',
  ]);
  const unspecified: string[] = [];
  const walk = (schema: JsonSchema, where: string): void => {
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      const types = ([] as string[]).concat(property.type ?? []);
      if (types.includes('string') && !FREE_TEXT.has(key) && !(property.pattern || property.format || property.enum || 'const' in property))
        unspecified.push(`${where}.${key}`);
      walk(property, `${where}.${key}`);
      if (property.items) walk(property.items, `${where}.${key}[]`);
      if (typeof property.additionalProperties === 'object') walk(property.additionalProperties, `${where}.${key}{}`);
    }
    for (const alternative of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) walk(alternative, where);
  };
  for (const [name, schema] of Object.entries(doc.components.schemas)) if (name !== 'OpenApiDocument') walk(schema, name);
  t.strictSame(unspecified, []);
  const quoteId = doc.paths['/quotes/{quoteId}'].get.parameters?.[0].schema;
  t.strictSame(quoteId, {
    type: 'string',
    format: 'uuid',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  });
  t.strictSame(doc.components.schemas.Quote.properties?.quoteId, {
    type: 'string',
    description: 'UUID (version 4, lower case).',
    format: 'uuid',
    pattern: quoteId?.pattern,
  });
});

t.test('GET /openapi.json is described as an OpenAPI document', async (t) => {
  const described = doc.paths['/openapi.json'].get.responses['200'].content?.['application/json'].schema;
  t.strictSame(described, { $ref: '#/components/schemas/OpenApiDocument' });
  t.strictSame(doc.components.schemas.OpenApiDocument.required, ['openapi', 'info', 'paths', 'components']);
  const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/OpenApiDocument' });
  t.ok(validate(doc), 'the served document is one');
  t.notOk(validate({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {}, components: {} }), 'an OpenAPI 3.0 document is not');
  t.notOk(validate({ any: 'object' }), 'a bare object is not');
});

t.test('every example in the document works on the shipped devnet snapshot', async (t) => {
  const devnets = await buildStubQuoteApp({ catalogDir: `${root}catalog`, snapshotDir: `${root}seeds/snapshots` });
  t.teardown(() => devnets.close());
  let tried = 0;
  for (const [method, path, op] of operations()) {
    const query = (op.parameters ?? []).filter((p) => p.in === 'query' && p.example !== undefined);
    for (const param of query) {
      const url = `${path}?${param.name}=${encodeURIComponent(param.example ?? '')}${param.name !== 'chainId' && query.some((p) => p.name === 'chainId') ? `&chainId=${query.find((p) => p.name === 'chainId')?.example}` : ''}`;
      const res = await devnets.request<Answer<unknown[]>>(method.toUpperCase(), url);
      t.equal(res.status, 200, `${method} ${url}`);
      t.ok(Array.isArray(res.body.data) && res.body.data.length > 0, `${method} ${url}: finds something`);
      tried += 1;
    }
    for (const [name, example] of Object.entries(op.requestBody?.content?.['application/json']?.examples ?? {})) {
      const res = await devnets.request<Envelope>(method.toUpperCase(), path, {
        body: example.value,
        headers: { authorization: `Bearer ${devnets.apiKey}` },
      });
      t.equal(res.status, 200, `${method} ${path} example ${name}: ${res.body.message}`);
      conforms(t, `${path} example ${name}`, method.toUpperCase(), path, res);
      tried += 1;
    }
  }
  t.equal(tried, 14, 'examples tried');
});
