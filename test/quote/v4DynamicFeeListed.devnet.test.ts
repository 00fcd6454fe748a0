// A listed dynamic-fee v4 pool through the API: the devnet's WBTC/DAI pool whose LP fee DevnetDynamicFeeHook's owner
// sets (fee 0x800000, the hook without beforeSwap: seeds/devnet/deployUniswapV4.ts), with that hook in the catalogue's
// allowedHooks (a copy of the shipped catalogue; the shipped one lists no hook). GET /blockchains/pools describes it
// active where its hook is listed and inactive where it is not (v4Refusal, the one rule for both); POST /quotes/routes
// prices it exactly as V4Quoter does at the seeded block, both sides; POST /quotes's steps, sent exactly as returned
// (approve Permit2, Permit2.approve, the Universal Router's execute), deliver exactly amountOut for exactly amountIn.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type Address, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEVNET_V4_HOOKS } from '../../seeds/devnet/deployUniswapV4.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import type { PoolView } from '../../src/graph/describePool.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import { devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';
import { chainSeeder, startSeededDevnet } from '../helpers/followDevnet.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';
import { v4QuoterQuote } from '../helpers/v4State.ts';

const SHIPPED = join(import.meta.dirname, '..', '..', 'catalog');
const { devnet } = await startSeededDevnet(t.teardown, 'sqs-v4-listed-', { v4: true });
const v4 = devnet.v4!;
const pool = v4.pools.find((p) => p.hooks === DEVNET_V4_HOOKS.ownerFee)!;
const poolId = pool.poolId.toLowerCase();

// The shipped catalogue with the owner-fee hook listed on the devnet's v4 entry.
const catalogDir = mkdtempSync(join(tmpdir(), 'sqs-v4-listed-catalog-'));
t.teardown(() => rmSync(catalogDir, { recursive: true, force: true }));
cpSync(SHIPPED, catalogDir, { recursive: true });
const devnetFile = join(catalogDir, 'devnet.json');
const file = JSON.parse(readFileSync(devnetFile, 'utf8')) as { dexes: { version: string; allowedHooks: string[] }[] };
for (const d of file.dexes) if (d.version === 'v4') d.allowedHooks = [DEVNET_V4_HOOKS.ownerFee];
writeFileSync(devnetFile, JSON.stringify(file, null, 2));
const chain = loadCatalog(catalogDir).chain(devnet.chainId)!;
const { snapshotDir, seedNow } = chainSeeder(t.teardown, devnet.rpcUrl, chain, 'sqs-v4-listed-');
const seeded = await seedNow(true);
const block = BigInt(seeded.blockNumber);

const listed = buildQuoteTestApp({ catalogDir, snapshotDir, env: { RPC_URL_31337: devnet.rpcUrl } });
t.teardown(() => listed.close());
const AUTH = { authorization: `Bearer ${(await listed.keys.create('v4-listed')).key}` };
const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!;
const WBTC = token('WBTC');
const DAI = token('DAI');
// currency0 is WBTC: WBTC -> DAI is zeroForOne.
const zeroForOne = pool.currency0.toLowerCase() === WBTC.address.toLowerCase();
const wallet = devnetWallet(devnet);

t.test('the devnet pool is the WBTC/DAI dynamic-fee pool, the only direct WBTC/DAI pool', async (t) => {
  t.equal(pool.fee, 0x800000, 'dynamic-fee flag');
  t.same(
    [pool.currency0, pool.currency1].map((c) => c.toLowerCase()).sort(),
    [WBTC.address, DAI.address].map((a) => a.toLowerCase()).sort(),
  );
  const direct = seeded.pools.filter(
    (p) =>
      [p.token0, p.token1]
        .map((x) => x.toLowerCase())
        .sort()
        .join() ===
      [WBTC.address, DAI.address]
        .map((a) => a.toLowerCase())
        .sort()
        .join(),
  );
  t.same(
    direct.map((p) => p.address),
    [poolId],
  );
});

t.test('GET /blockchains/pools: active where its hook is listed, inactive in the shipped catalogue', async (t) => {
  const shipped = buildQuoteTestApp({ catalogDir: SHIPPED, snapshotDir });
  t.teardown(() => shipped.close());
  for (const [app, active, label] of [
    [listed, true, 'hook listed'],
    [shipped, false, 'hook not listed'],
  ] as const) {
    const res = await app.request<Answer<PoolView[]>>('GET', `/blockchains/pools?chainId=${devnet.chainId}&dex=uniswap`);
    t.equal(res.status, 200);
    const view = res.body.data!.find((p) => p.pairAddress === poolId);
    t.ok(view, `${label}: the pool is listed`);
    t.equal(view?.isActivePool, active, `${label}: isActivePool ${active}`);
  }
});

t.test('POST /quotes/routes prices it exactly as V4Quoter at the seeded block, both sides', async (t) => {
  for (const [tradeType, amount] of [
    ['exactIn', '0.1'],
    ['exactOut', '5000'],
  ] as const) {
    const res = await listed.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
      body: {
        originChainId: devnet.chainId,
        destinationChainId: devnet.chainId,
        tokenIn: 'WBTC',
        tokenOut: 'DAI',
        amount,
        tradeType,
        recipientAddress: freshAddress('v4 listed routes'),
        maxHops: 1,
        maxSplits: 1,
        gasPriceWei: '0',
      },
      headers: AUTH,
    });
    t.equal(res.status, 200, res.status === 200 ? 'status 200' : JSON.stringify(res.body));
    const route = res.body.data!.find((r) => r.pairAddress === poolId);
    t.ok(route, `${tradeType}: a route through the listed dynamic-fee pool`);
    if (!route) continue;
    const fixed = parseUnits(amount, tradeType === 'exactIn' ? WBTC.decimals : DAI.decimals);
    const chainQuote = await v4QuoterQuote(wallet.client, v4.contracts.v4Quoter, pool, zeroForOne, tradeType, fixed, block);
    t.ok(chainQuote, `${tradeType}: V4Quoter prices ${fixed}`);
    t.equal(tradeType === 'exactIn' ? route.amountIn : route.amountOut, fixed.toString(), `${tradeType}: the fixed side`);
    t.equal(tradeType === 'exactIn' ? route.amountOut : route.amountIn, chainQuote?.amount.toString(), `${tradeType}: = V4Quoter`);
  }
});

t.test('POST /quotes: the Universal Router steps, sent as returned, deliver exactly amountOut for exactly amountIn', async (t) => {
  const sender = privateKeyToAccount(devnet.accounts[3].privateKey);
  const recipient = freshAddress('v4 listed execute');
  const res = await listed.request<Answer<Quote>>('POST', '/quotes', {
    body: {
      originChainId: devnet.chainId,
      destinationChainId: devnet.chainId,
      tokenIn: 'WBTC',
      tokenOut: 'DAI',
      amount: '0.1',
      recipientAddress: recipient,
      sender: sender.address,
      maxHops: 1,
      maxSplits: 1,
      gasPriceWei: '0',
    },
    headers: AUTH,
  });
  t.equal(res.status, 200, res.status === 200 ? 'status 200' : JSON.stringify(res.body));
  const quote = res.body.data!;
  t.equal(quote.route.version, 'v4', 'through the v4 pool');
  const amountIn = BigInt(quote.amountIn);
  const chainQuote = await v4QuoterQuote(wallet.client, v4.contracts.v4Quoter, pool, zeroForOne, 'exactIn', amountIn, block);
  t.equal(quote.amountOut, chainQuote?.amount.toString(), 'priced as V4Quoter prices the listed pool');
  const router = chain.dexes.find((d) => d.version === 'v4')!.universalRouterAddress!.toLowerCase();
  t.equal(quote.steps.at(-1)?.to.toLowerCase(), router, 'the last step calls the Universal Router');
  await fundAccount(devnet.rpcUrl, sender.address, WBTC.address as Address, amountIn);
  const before = await wallet.balanceOf(WBTC.address, sender.address);
  const receipts = await wallet.sendSteps(sender, quote.steps);
  t.strictSame(
    receipts.map((r) => r.status),
    quote.steps.map(() => 'success'),
  );
  t.equal(before - (await wallet.balanceOf(WBTC.address, sender.address)), amountIn, 'the sender spends exactly amountIn');
  t.equal(await wallet.balanceOf(DAI.address, recipient), BigInt(quote.amountOut), 'the recipient receives exactly amountOut');
});
