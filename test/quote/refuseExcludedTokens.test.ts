// A token the seeding run left out (snapshot excludedTokens) is refused with the reason, on both quote endpoints,
// as tokenIn or tokenOut; the native asset answers for its wrapped token; other pairs are priced as before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import { fixtureQuoteRequest } from '../helpers/stubQuoteApp.ts';

const quoteSnapshotDir = fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url));
const DAI = '0x3333333333333333333333333333333333333333';
const WETH = '0x1111111111111111111111111111111111111111';

t.test('quotes for a token the seeding run left out are refused with its reason', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'excluded-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const snapshot = JSON.parse(readFileSync(join(quoteSnapshotDir, 'testchain.json'), 'utf8')) as {
    pools: { token0: string; token1: string }[];
  };
  snapshot.pools = snapshot.pools.filter((p) => p.token0 !== DAI && p.token1 !== DAI);
  writeFileSync(
    join(dir, 'testchain.json'),
    JSON.stringify({
      ...snapshot,
      excludedTokens: [
        {
          address: DAI,
          reason: 'transferFee',
          detail: 'it takes a fee on transfer: 1% of a transfer out of a pool (buy), 2.5% of a transfer into one (sell)',
          buyFeeBps: 100,
          sellFeeBps: 250,
          pools: [],
        },
      ],
    }),
  );
  const app = buildQuoteTestApp({ snapshotDir: dir });
  t.teardown(() => app.close());
  const fee = `DAI (${DAI}) is not quoted on testchain: it takes a fee on transfer: 1% of a transfer out of a pool (buy), 2.5% of a transfer into one (sell) (seeding run at block 1234)`;
  for (const path of ['/quotes/routes', '/quotes']) {
    const headers: Record<string, string> = path === '/quotes' ? { authorization: `Bearer ${(await app.keys.create('org')).key}` } : {};
    const sell = await app.request('POST', path, { body: { ...fixtureQuoteRequest, tokenIn: DAI.toLowerCase() }, headers });
    t.same([sell.status, sell.body], [400, { code: 400, message: `tokenIn: ${fee}` }], `${path}: DAI in`);
    const buy = await app.request('POST', path, { body: { ...fixtureQuoteRequest, tokenOut: DAI }, headers });
    t.same([buy.status, buy.body], [400, { code: 400, message: `tokenOut: ${fee}` }], `${path}: DAI out`);
  }
  const fine = await app.request('POST', '/quotes/routes', { body: fixtureQuoteRequest });
  t.equal(fine.status, 200, 'WETH -> USDC still priced');

  // The wrapped native token excluded: the native asset is refused with it.
  writeFileSync(
    join(dir, 'testchain.json'),
    JSON.stringify({
      ...snapshot,
      excludedTokens: [{ address: WETH, reason: 'metadata', detail: 'decimals() is 8 on chain, 18 in the catalogue', pools: [] }],
    }),
  );
  app.reload();
  const native = await app.request('POST', '/quotes/routes', {
    body: { ...fixtureQuoteRequest, tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' },
  });
  t.same(native.body, {
    code: 400,
    message:
      'tokenIn: ETH (0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE) is not quoted on testchain: decimals() is 8 on chain, 18 in the catalogue (seeding run at block 1234)',
  });
});
