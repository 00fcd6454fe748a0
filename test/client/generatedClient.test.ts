// A client generated from the served document (openapi-typescript types + openapi-fetch) type-checks under
// `tsc --strict` and calls every operation of the document successfully against the app (issue 15). The types are
// generated here, from what the app serves, into a throw-away folder under the ignored .data/: nothing generated is
// committed, so the check can never pass on stale types.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import t from 'tap';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import { buildStubQuoteApp } from '../helpers/stubQuoteApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const s = await buildStubQuoteApp({ catalogDir: `${root}catalog`, snapshotDir: `${root}seeds/snapshots` });
t.teardown(() => s.close());
const server = s.app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
t.teardown(() => new Promise((resolve) => server.close(resolve)));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// Under the project so that `openapi-fetch` resolves from its node_modules, in tsc and at run time.
mkdirSync(join(root, '.data'), { recursive: true });
const dir = mkdtempSync(join(root, '.data', 'api-client-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const served = await (await fetch(`${baseUrl}/openapi.json`)).json();
const operationIds = Object.values(served.paths as Record<string, Record<string, { operationId: string }>>)
  .flatMap((item) => Object.values(item).map((op) => op.operationId))
  .sort();

t.test('types generated from the served document and the client type-check under tsc --strict', async (t) => {
  writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(served)));
  copyFileSync(join(root, 'test/fixtures/apiClient/callEveryOperation.ts'), join(dir, 'client.ts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: [],
        allowImportingTsExtensions: true,
        skipLibCheck: false,
      },
      files: ['client.ts', 'schema.d.ts'],
    }),
  );
  const tsc = await promisify(execFile)(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')]).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
  t.strictSame(
    tsc,
    { code: 0, out: '' },
    'tsc --strict: no error (the @ts-expect-error lines prove the types refuse what the API refuses)',
  );
});

t.test('the generated client calls every operation of the document successfully', async (t) => {
  const { callEveryOperation } = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as {
    callEveryOperation(baseUrl: string, apiKey: string): Promise<Record<string, [number, string]>>;
  };
  const calls = await callEveryOperation(baseUrl, s.apiKey);
  t.strictSame(Object.keys(calls).sort(), operationIds, 'every operation, no other');
  const direct = await s.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
    body: {
      originChainId: 31337,
      destinationChainId: 31337,
      tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      tokenOut: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      amount: '1.5',
      recipientAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    },
  });
  const quote = await s.request<Answer<{ version: string }[]>>('GET', '/blockchains/dex?chainId=31337&slug=uniswap');
  t.strictSame(calls, {
    // The shipped devnet snapshot's block: the chain has pool state.
    listBlockchains: [200, `devnet true ${JSON.parse(readFileSync(`${root}seeds/snapshots/devnet.json`, 'utf8')).blockNumber}`],
    listTokens: [200, String((await s.request<Answer<unknown[]>>('GET', '/blockchains/tokens?chainId=31337')).body.data.length)],
    listDexes: [200, quote.body.data.map((d) => d.version).join(',')],
    listPools: [200, 'true'],
    quoteRoutes: [200, `netOfGas ${direct.body.data[0].amountOut} []`],
    createQuote: [
      200,
      `${((BigInt(direct.body.data[0].amountOut) * 9_900n) / 10_000n).toString()} [] auto 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 ALLOWANCE_NOT_READ`,
    ],
    getQuote: [200, 'true 0 pending true request'],
    // The state has not moved between the quote and its refresh.
    refreshQuote: [200, 'true true 0'],
    getQuoteStatus: [400, 'status needs an RPC URL for chain 31337 (RPC_URL_31337)'],
    simulateQuote: [400, 'simulation needs an RPC URL for chain 31337 (RPC_URL_31337)'],
    swapQuote: [
      400,
      'quote <id> was not made with approvalMode "permit2": its steps already hold the swap; POST /quotes/{quoteId}/swap is for permit2 quotes only',
    ],
    liveness: [200, 'ok'],
    readiness: [200, 'ready'],
    metrics: [200, 'true'],
    openapi: [200, '3.1.0'],
  });
});
