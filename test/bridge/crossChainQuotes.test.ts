// POST /quotes across chains, no chain running: the shipped catalogue (devnet 31337 <-> devnet-b 31338 through Across)
// and the shipped devnet snapshots, with the real pricing workers. Checks the exact 400 bodies of every refusal
// (no bridge, no route for the tokens, amount below the minimum / above the maximum / not covering the fee,
// POST /quotes/routes across chains) and, for the same-asset routes, the amounts worked out by hand from the fee
// terms in catalog/devnet.json and the deposit calldata decoded with the Across artifact's own ABI.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { decodeFunctionData, erc20Abi, getAddress, type Hex, pad } from 'viem';
import { acrossDevnetAddresses } from '../../seeds/devnet/deployAcross.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { artifactAbi } from '../helpers/devnetWallet.ts';
import { checkMeasuredLimit, withoutGasLimit } from '../helpers/measuredLimit.ts';
import { buildQuoteTestApp, type QuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const SPOKE_POOL_ABI = artifactAbi('@across-protocol/contracts/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json');
const CATALOG_DIR = fileURLToPath(new URL('../../catalog', import.meta.url));
const SNAPSHOT_DIR = fileURLToPath(new URL('../../seeds/snapshots', import.meta.url));

const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const UNI = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const RECIPIENT = getAddress('0x00000000000000000000000000000000000000aa');
const WALLET = getAddress('0x00000000000000000000000000000000000000bb');
const SPOKE = acrossDevnetAddresses().spokePool;
const BASE = {
  originChainId: 31337,
  destinationChainId: 31338,
  tokenIn: USDC,
  tokenOut: USDC,
  amount: '100',
  recipientAddress: RECIPIENT,
  walletAddress: WALLET,
};

async function app(catalogDir = CATALOG_DIR): Promise<{ q: QuoteTestApp; headers: Record<string, string> }> {
  const q = buildQuoteTestApp({ catalogDir, snapshotDir: SNAPSHOT_DIR });
  const { key } = await q.keys.create('org-bridge');
  return { q, headers: { authorization: `Bearer ${key}` } };
}

const shipped = await app();
t.teardown(() => shipped.q.close());
const post = (body: unknown, a = shipped) => a.q.request<Answer<Quote>>('POST', '/quotes', { body, headers: a.headers });

/** A catalogue folder copy whose devnet files keep only the listed Across assets, optionally with changed terms. */
function catalogWith(assets: string[], change: (asset: Record<string, unknown>) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-quotes-catalog-'));
  cpSync(CATALOG_DIR, dir, { recursive: true });
  for (const file of ['devnet.json', 'devnet-b.json']) {
    const chain = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { bridges: Array<{ assets: Array<Record<string, unknown>> }> };
    chain.bridges[0].assets = chain.bridges[0].assets.filter((a) => assets.includes(a.asset as string));
    chain.bridges[0].assets.forEach(change);
    writeFileSync(join(dir, file), JSON.stringify(chain));
  }
  return dir;
}

t.test('POST /quotes/routes with different chain ids stays 400', async (t) => {
  const res = await shipped.q.request('POST', '/quotes/routes', { body: BASE });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: 'POST /quotes/routes prices same-chain swaps only: originChainId and destinationChainId must be equal' }],
  );
});

t.test('no bridge between the chains', async (t) => {
  const res = await post({ ...BASE, destinationChainId: 1, tokenOut: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: 'quote unavailable: no bridge connects devnet (31337) to ethereum (1)' }],
  );
  const noAsset = catalogWith([]);
  const a = await app(noAsset);
  t.teardown(async () => {
    await a.q.close();
    rmSync(noAsset, { recursive: true, force: true });
  });
  const res2 = await post(BASE, a);
  t.strictSame(
    [res2.status, res2.body],
    [400, { code: 400, message: 'quote unavailable: no bridge connects devnet (31337) to devnet-b (31338)' }],
    'Across listed but no common asset',
  );
});

t.test('no route for the tokens: every bridgeable asset is refused, each with its reason', async (t) => {
  const res = await post({ ...BASE, tokenOut: UNI });
  t.strictSame(
    [res.status, res.body],
    [
      400,
      {
        code: 400,
        message:
          'quote unavailable: no bridge route from USDC on devnet to UNI on devnet-b (via Across ETH: no route for ETH/UNI on devnet-b within 3 hops; ' +
          'via Across USDC: no route for USDC/UNI on devnet-b within 3 hops; via Across USDT: no route for USDT/UNI on devnet-b within 3 hops)',
      },
    ],
  );
  const res2 = await post({ ...BASE, tokenIn: UNI, amount: '10' });
  t.strictSame(
    [res2.status, res2.body],
    [
      400,
      {
        code: 400,
        message:
          'quote unavailable: no bridge route from UNI on devnet to USDC on devnet-b (via Across ETH: no route for UNI/WETH on devnet within 3 hops; ' +
          'via Across USDC: no route for UNI/USDC on devnet within 3 hops; via Across USDT: no route for UNI/USDT on devnet within 3 hops)',
      },
    ],
  );
});

t.test('amounts outside the bridge terms', async (t) => {
  const usdcOnly = catalogWith(['USDC']);
  const noMin = catalogWith(['USDC'], (a) => {
    delete a.minAmount;
  });
  const a = await app(usdcOnly);
  const b = await app(noMin);
  t.teardown(async () => {
    await Promise.all([a.q.close(), b.q.close()]);
    rmSync(usdcOnly, { recursive: true, force: true });
    rmSync(noMin, { recursive: true, force: true });
  });
  const cases: Array<[typeof a, string, string]> = [
    [
      a,
      '0.999999',
      'quote unavailable: no bridge route from USDC on devnet to USDC on devnet-b (via Across USDC: 0.999999 USDC is below the bridge minimum of 1 USDC from devnet to devnet-b)',
    ],
    [
      a,
      '1000000.000001',
      'quote unavailable: no bridge route from USDC on devnet to USDC on devnet-b (via Across USDC: 1000000.000001 USDC is above the bridge maximum of 1000000 USDC from devnet to devnet-b)',
    ],
    // devnet -> devnet-b USDC: 5 bps + 0.15 USDC (destinations["31338"].fixedFee)
    [
      b,
      '0.15',
      'quote unavailable: no bridge route from USDC on devnet to USDC on devnet-b (via Across USDC: 0.15 USDC does not cover the bridge fee (5 bps + 0.15 USDC) from devnet to devnet-b)',
    ],
  ];
  for (const [x, amount, message] of cases) {
    const res = await post({ ...BASE, amount }, x);
    t.strictSame([res.status, res.body], [400, { code: 400, message }], amount);
  }
  const ok = await post({ ...BASE, amount: '1' }, a);
  t.equal(ok.status, 200, 'exactly the minimum is quoted');
  // 1 x 0.9995 - 0.15 = 0.8495
  t.equal(ok.body.data.amountOut, '849500');
});

/** Decodes a deposit step's calldata with the artifact ABI. */
function depositArgs(data: string): readonly unknown[] {
  const decoded = decodeFunctionData({ abi: SPOKE_POOL_ABI, data: data as Hex });
  t.equal(decoded.functionName, 'depositNow');
  return decoded.args as readonly unknown[];
}
const b32 = (address: string): Hex => pad(getAddress(address), { size: 32 }).toLowerCase() as Hex;

t.test('same asset, USDC -> USDC: approval and deposit on the origin chain, amounts from the fee terms', async (t) => {
  const res = await post(BASE);
  t.equal(res.status, 200);
  const q = res.body.data;
  // 100 USDC x (1 - 5 bps) - 0.15 USDC = 99.8 USDC
  t.match(q, {
    amountIn: '100000000',
    amountOut: '99800000',
    amountOutMinimum: '99800000',
    originChainId: 31337,
    destinationChainId: 31338,
    pairAddress: SPOKE,
  });
  t.strictSame(q.route, { dex: 'across', name: 'Across', fees: '200000', logo: '', version: '', poolFee: 0 });
  t.equal(q.expectedFillTimeSeconds, 6, 'fillTimeSeconds of destinations["31338"]');
  t.strictSame(q.fees?.bridge, { token: q.tokenOut, amount: '200000', feeBps: 5, fixedFee: '0.15' });
  t.equal(q.fees?.originSwap, null);
  t.equal(q.fees?.destinationSwap, null);
  t.match(q.bridge, {
    protocol: 'across',
    asset: 'USDC',
    inputAmount: '100000000',
    outputAmount: '99800000',
    fillRecipient: RECIPIENT,
    originSwap: null,
    destinationSwap: null,
  });
  t.equal(q.steps.length, 2);
  checkMeasuredLimit(t, q.steps[0].gasLimit, 'approve');
  t.strictSame(decodeFunctionData({ abi: erc20Abi, data: q.steps[0].data as Hex }), {
    functionName: 'approve',
    args: [SPOKE, 100_000_000n],
  });
  t.strictSame(withoutGasLimit({ ...q.steps[0], data: '' }), {
    message: 'Approve 100 USDC for Across SpokePool',
    from: WALLET,
    to: USDC,
    data: '',
    amount: '100000000',
    chainId: 31337,
    spender: SPOKE,
  });
  t.match(q.steps[1], {
    message: `Bridge 100 USDC to Devnet B through Across: 99.8 USDC to ${RECIPIENT}`,
    from: WALLET,
    to: SPOKE,
    amount: '100000000',
    chainId: 31337,
  });
  checkMeasuredLimit(t, q.steps[1].gasLimit, 'acrossDepositErc20');
  t.notOk('value' in q.steps[1]);
  const args = depositArgs(q.steps[1].data);
  t.strictSame(
    [args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9], args[10]],
    [b32(WALLET), b32(RECIPIENT), b32(USDC), b32(USDC), 100_000_000n, 99_800_000n, 31338n, `0x${'0'.repeat(64)}`, 10_800, 0, '0x'],
  );
});

t.test('same asset, ETH -> ETH: native value, WETH as input and output token, ETH in the message', async (t) => {
  const res = await post({ ...BASE, tokenIn: ETH, tokenOut: ETH, amount: '1' });
  t.equal(res.status, 200);
  const q = res.body.data;
  // 1 ETH x (1 - 4 bps) - 0.00005 = 0.99955 ETH
  t.match(q, { amountOut: '999550000000000000', amountOutMinimum: '999550000000000000', expectedFillTimeSeconds: 4 });
  t.equal(q.tokenOut.address, ETH);
  t.strictSame(
    q.steps.map((s: { message: string; chainId: number }) => [s.chainId, s.message]),
    [[31337, `Bridge 1 ETH to Devnet B through Across: 0.99955 ETH to ${RECIPIENT}`]],
    'no approval for native input; the recipient receives ETH (the SpokePool unwraps the WETH fill)',
  );
  t.match(q.steps[0], { to: SPOKE, value: '1000000000000000000', amount: '1000000000000000000', chainId: 31337 });
  const args = depositArgs(q.steps[0].data);
  t.strictSame([args[2], args[3], args[4], args[5]], [b32(WETH), b32(WETH), 10n ** 18n, 999_550_000_000_000_000n]);
});

t.test('ETH (ethereum) -> ETH (Base): no pool state needed, the message names ETH at both ends', async (t) => {
  const res = await post({ ...BASE, originChainId: 1, destinationChainId: 8453, tokenIn: ETH, tokenOut: ETH, amount: '1' });
  t.equal(res.status, 200);
  const q = res.body.data;
  // catalog/ethereum.json Across: defaults.feeBps 6, ETH fixedFee 0.0001: 1 x (1 - 6 bps) - 0.0001 = 0.9993 ETH
  t.match(q, { amountOut: '999300000000000000', snapshot: null });
  t.strictSame(
    q.steps.map((s: { message: string; chainId: number }) => [s.chainId, s.message]),
    [[1, `Bridge 1 ETH to Base through Across: 0.9993 ETH to ${RECIPIENT}`]],
  );
});

t.test('ETH -> WETH: the fill pays the wallet native ETH, a destination wrap and hand-over follow', async (t) => {
  const res = await post({ ...BASE, tokenIn: ETH, tokenOut: WETH, amount: '1' });
  t.equal(res.status, 200);
  const q = res.body.data;
  t.match(q, { amountOut: '999550000000000000', amountOutMinimum: '999550000000000000' });
  t.strictSame(
    q.steps.map((s: { message: string; chainId: number }) => [s.chainId, s.message]),
    [
      [31337, `Bridge 1 ETH to Devnet B through Across: 0.99955 ETH to ${WALLET}`],
      [31338, 'Wrap 0.99955 ETH into WETH'],
      [31338, `Send 0.99955 WETH to ${RECIPIENT}`],
    ],
  );
  t.equal(depositArgs(q.steps[0].data)[1], b32(WALLET), 'fill recipient is the wallet');
  t.match(q.bridge?.destinationSwap, { dex: 'wrap', chainId: 31338, amountIn: '999550000000000000', amountOut: '999550000000000000' });
});

t.test('the saved quote is the returned one', async (t) => {
  const res = await post(BASE);
  const saved = await shipped.q.request<Answer<Quote>>('GET', `/quotes/${res.body.data.quoteId}`, { headers: shipped.headers });
  t.strictSame(saved.body.data, res.body.data);
});

t.test('the bridgeable asset giving the most output wins', async (t) => {
  const dirs = ['ETH', 'USDC', 'USDT'].map((asset) => ({ asset, dir: catalogWith([asset]) }));
  const apps = await Promise.all(dirs.map(async ({ asset, dir }) => ({ asset, dir, a: await app(dir) })));
  t.teardown(async () => {
    await Promise.all(apps.map(({ a }) => a.q.close()));
    for (const { dir } of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const requests = [
    { ...BASE, tokenIn: ETH, tokenOut: USDC, amount: '2' },
    {
      ...BASE,
      tokenIn: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
      tokenOut: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
      amount: '0.5',
    }, // WBTC -> DAI
    { ...BASE, tokenIn: USDC, tokenOut: ETH, amount: '5000' },
  ];
  for (const body of requests) {
    const single = await Promise.all(apps.map(async ({ asset, a }) => ({ asset, res: await post(body, a) })));
    const priced = single
      .filter((s) => s.res.status === 200)
      .map((s) => ({ asset: s.asset, amountOut: BigInt(s.res.body.data.amountOut) }));
    t.ok(priced.length >= 2, `${priced.length} assets can carry ${body.amount} ${body.tokenIn} -> ${body.tokenOut}`);
    const best = priced.reduce((x, y) => (y.amountOut > x.amountOut ? y : x));
    const res = await post(body);
    t.equal(res.status, 200);
    t.strictSame(
      [res.body.data.bridge?.asset, res.body.data.amountOut],
      [best.asset, best.amountOut.toString()],
      `chosen: ${best.asset} among ${priced.map((p) => `${p.asset} ${p.amountOut}`).join(', ')}`,
    );
  }
});

t.test('bridge quotes: tokens by symbol on each chain, EIP-55 checksums (issue 23)', async (t) => {
  const same = (q: Quote) => [q.amountIn, q.amountOut, q.amountOutMinimum, q.tokenIn, q.tokenOut, q.route, q.bridge];
  const byAddress = await post(BASE);
  const bySymbol = await post({ ...BASE, tokenIn: 'USDC', tokenOut: 'usdc' });
  t.equal(bySymbol.status, 200, bySymbol.body.message);
  t.strictSame(same(bySymbol.body.data), same(byAddress.body.data), 'USDC -> usdc is the USDC -> USDC quote');
  const native = await post({ ...BASE, tokenIn: 'eth', tokenOut: 'ETH', amount: '1' });
  // 1 ETH x (1 - 4 bps) - 0.00005 = 0.99955 ETH, as by address above.
  t.strictSame(
    [native.status, native.body.data.tokenIn.address, native.body.data.tokenOut.address, native.body.data.amountOut],
    [200, ETH, ETH, '999550000000000000'],
    'the native symbol is the native asset on both chains',
  );

  const refused = async (body: unknown, message: string) => t.strictSame((await post(body)).body, { code: 400, message });
  await refused(
    { ...BASE, tokenOut: 'USDX' },
    `tokenOut: "USDX" is not a token of chain devnet-b (31338): did you mean USDC (${USDC}) or USDT (0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0)?`,
  );
  await refused({ ...BASE, tokenIn: 'WEHT' }, `tokenIn: "WEHT" is not a token of chain devnet (31337): did you mean WETH (${WETH})?`);
  // USDC's address with the case of its last letter changed; the anvil account with its last character changed.
  const usdcTypo = '0xe7f1725E7734CE288F8367e1Bb143E90bb3f0512';
  const recipientTypo = '0x70997970C51812dc3A010C7d01b50e0d17dc79C9';
  await refused(
    { ...BASE, tokenOut: usdcTypo, recipientAddress: recipientTypo },
    `recipientAddress: ${recipientTypo} fails its EIP-55 checksum: check the address for a typo; tokenOut: ${usdcTypo} fails its EIP-55 checksum: check the address for a typo`,
  );
});

// maxPriceImpactBps on a bridge quote (issue 23 item 4) bounds each of its swaps. 0.5 WBTC -> DAI swaps before the
// bridge (into the asset) and after it; with a bound of 0 every corridor's swap before the bridge is refused, each at
// the impact the same swap has as a same-chain quote on devnet.
t.test('maxPriceImpactBps: a bridge route whose swap exceeds it is refused, naming the swap', async (t) => {
  const WBTC = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
  const DAI = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9';
  const USDT_DEVNET = shipped.q.catalog.chain(31337)!.tokens.find((tk) => tk.symbol === 'USDT')!.address;
  const body = { ...BASE, tokenIn: WBTC, tokenOut: DAI, amount: '0.5' };
  const allowed = await post({ ...body, maxPriceImpactBps: 10000 });
  t.equal(allowed.status, 200);
  t.ok(Array.isArray(allowed.body.data.warnings), 'a bridge quote carries warnings');
  const impacts: string[] = [];
  for (const [asset, token] of [
    ['ETH', WETH],
    ['USDC', USDC],
    ['USDT', USDT_DEVNET],
  ]) {
    const same = await post({
      ...BASE,
      destinationChainId: 31337,
      tokenIn: WBTC,
      tokenOut: token,
      amount: '0.5',
      maxPriceImpactBps: 10000,
    });
    t.equal(same.status, 200, `WBTC -> ${asset} on devnet`);
    impacts.push(
      `via Across ${asset}: price impact ${(same.body.data.priceImpactBps ?? 0) / 100}% on the swap before the bridge (devnet) exceeds maxPriceImpactBps 0%`,
    );
  }
  const refused = await post({ ...body, maxPriceImpactBps: 0 });
  t.strictSame(
    [refused.status, refused.body],
    [400, { code: 400, message: `quote unavailable: no bridge route from WBTC on devnet to DAI on devnet-b (${impacts.join('; ')})` }],
  );
});

t.test('a bridge quote refreshes like a same-chain one; its network fee change is null; its status needs RPC URLs', async (t) => {
  const old = (await post(BASE)).body.data;
  const res = await shipped.q.request<Answer<Quote>>('POST', `/quotes/${old.quoteId}/refresh`, { headers: shipped.headers });
  t.equal(res.status, 200);
  const fresh = res.body.data;
  // 100 USDC x (1 - 5 bps) - 0.15 USDC = 99.8 USDC again: nothing moved.
  t.strictSame(
    [fresh.amountOut, fresh.slippageSource, fresh.refreshedFrom, fresh.changes, fresh.warnings],
    ['99800000', 'request', old.quoteId, { amountIn: '0', amountOut: '0', networkFeeWei: null }, []],
  );
  const status = await shipped.q.request('GET', `/quotes/${old.quoteId}/status?txHash=0x${'ab'.repeat(32)}`, { headers: shipped.headers });
  t.strictSame([status.status, status.body], [400, { code: 400, message: 'status needs an RPC URL for chain 31337 (RPC_URL_31337)' }]);
});

t.test('sender without RPC URLs: the steps approve as without a sender, and ALLOWANCE_NOT_READ names the origin chain', async (t) => {
  const without = (await post(BASE)).body.data;
  const res = await post({ ...BASE, walletAddress: undefined, sender: WALLET });
  t.equal(res.status, 200, res.body.message);
  t.strictSame(
    [res.body.data.steps.map((s) => [s.chainId, s.message, s.data]), res.body.data.warnings],
    [
      without.steps.map((s) => [s.chainId, s.message, s.data]),
      [
        {
          code: 'ALLOWANCE_NOT_READ',
          message: `the allowances of ${WALLET} were not read: no RPC URL for chain 31337 (RPC_URL_31337); the steps approve as they do without a sender`,
        },
      ],
    ],
  );
});
