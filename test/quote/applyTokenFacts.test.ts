// applyTokenFacts: a token the seeding run left out (snapshot excludedTokens) is refused with the reason, on both
// quote endpoints, as tokenIn or tokenOut; the native asset answers for its wrapped token; other pairs are priced as
// before. A token the seeding run found to need an approval reset (snapshot approvalResetTokens) is quoted as one the
// catalogue flags approvalReset: the allowance reset to 0 first, the same gas estimate.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { encodeFunctionData, parseAbi } from 'viem';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import { fixtureQuoteRequest } from '../helpers/stubQuoteApp.ts';
import { type Answer, fixtureCatalogDir } from '../helpers/testApp.ts';

const quoteSnapshotDir = fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url));
const DAI = '0x3333333333333333333333333333333333333333';
const USDC = '0x2222222222222222222222222222222222222222';
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
  const fine = await app.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body: fixtureQuoteRequest });
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
  const native = await app.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
    body: { ...fixtureQuoteRequest, tokenIn: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' },
  });
  t.same(native.body, {
    code: 400,
    message:
      'tokenIn: ETH (0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE) is not quoted on testchain: decimals() is 8 on chain, 18 in the catalogue (seeding run at block 1234)',
  });
});

t.test('a token the seeding run found to need an approval reset is quoted as one the catalogue flags', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'approval-reset-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const found = join(dir, 'found');
  const plain = join(dir, 'plain');
  const flaggedCatalog = join(dir, 'catalog');
  cpSync(quoteSnapshotDir, plain, { recursive: true });
  cpSync(quoteSnapshotDir, found, { recursive: true });
  const snapshot = JSON.parse(readFileSync(join(quoteSnapshotDir, 'testchain.json'), 'utf8')) as object;
  writeFileSync(join(found, 'testchain.json'), JSON.stringify({ ...snapshot, approvalResetTokens: [USDC] }));
  cpSync(fixtureCatalogDir, flaggedCatalog, { recursive: true });
  const chain = JSON.parse(readFileSync(join(fixtureCatalogDir, 'testchain.json'), 'utf8')) as { tokens: { address: string }[] };
  chain.tokens = chain.tokens.map((x) => (x.address === USDC ? { ...x, approvalReset: true } : x));
  writeFileSync(join(flaggedCatalog, 'testchain.json'), JSON.stringify(chain));

  const apps = {
    found: buildQuoteTestApp({ snapshotDir: found }),
    flagged: buildQuoteTestApp({ snapshotDir: plain, catalogDir: flaggedCatalog }),
    neither: buildQuoteTestApp({ snapshotDir: plain }),
  };
  t.teardown(() => Promise.all(Object.values(apps).map((a) => a.close())));
  const body = { ...fixtureQuoteRequest, tokenIn: USDC, tokenOut: fixtureQuoteRequest.tokenIn, amount: '100' };
  type Step = { message: string; to: string; data: string; spender: string };
  type Quote = { tokenIn: Record<string, unknown>; gasEstimate: string; deadline: number; steps: Step[] };
  const quote = async (name: keyof typeof apps): Promise<Quote> => {
    const app = apps[name];
    const res = await app.request<Answer<Quote>>('POST', '/quotes', {
      body,
      headers: { authorization: `Bearer ${(await app.keys.create('org')).key}` },
    });
    t.equal(res.status, 200, `${name}: ${JSON.stringify(res.body).slice(0, 200)}`);
    const q = res.body.data as Quote;
    // The swap's calldata holds the deadline (wall clock): written as 0 so quotes made a second apart compare.
    const deadline = q.deadline.toString(16).padStart(64, '0');
    return { ...q, steps: q.steps.map((x) => ({ ...x, data: x.data.replaceAll(deadline, '0'.repeat(64)) })) };
  };
  const [found_, flagged, neither] = [await quote('found'), await quote('flagged'), await quote('neither')];

  t.equal(neither.tokenIn.approvalReset, undefined, 'no flag, no finding: a plain token');
  t.equal(found_.tokenIn.approvalReset, true, "the quote's tokenIn says what the chain showed");
  t.same(found_.tokenIn, flagged.tokenIn, 'the same token as the catalogue flag gives');
  t.same(found_.steps, flagged.steps, 'the same steps as the catalogue flag gives');
  t.equal(found_.gasEstimate, flagged.gasEstimate, 'the same gas estimate as the catalogue flag gives');
  t.equal(found_.steps.length, neither.steps.length + 1, 'one step more than without: the reset');
  const spender = found_.steps[1].spender;
  t.same(
    [found_.steps[0].message.startsWith('Reset the USDC allowance of '), found_.steps[0].to, found_.steps[0].spender, found_.steps[0].data],
    [
      true,
      USDC,
      spender,
      encodeFunctionData({
        abi: parseAbi(['function approve(address, uint256)']),
        functionName: 'approve',
        args: [spender as `0x${string}`, 0n],
      }),
    ],
    'first: approve(spender, 0) on USDC',
  );
  t.same(found_.steps.slice(1), neither.steps, 'then the approval and the swap, as without the finding');
  t.ok(BigInt(found_.gasEstimate) > BigInt(neither.gasEstimate), 'the reset is charged');
});
