// The routing options and response extensions of both quote endpoints over the shipped catalogue and devnet snapshot
// (real worker pool, no chain): exact 400 bodies for the new options, and the structure every routed answer keeps
// (hop amounts chain into each other, splits add up to the request). The amounts themselves are checked against the
// chain's quoters in test/routing/optimality.devnet.test.ts and executed in the devnet tests of src/tx/routers.
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const q = buildQuoteTestApp({
  catalogDir: fileURLToPath(new URL('../../catalog', import.meta.url)),
  snapshotDir: fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)),
});
t.teardown(() => q.close());
const { key } = await q.keys.create('org-a');
const chain = q.catalog.chain(31337)!;
const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!;
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const body = (a: string, b: string, amount: string, extra: Record<string, unknown> = {}) => ({
  originChainId: 31337,
  destinationChainId: 31337,
  tokenIn: token(a).address,
  tokenOut: token(b).address,
  amount,
  recipientAddress: RECIPIENT,
  ...extra,
});
const ENDPOINTS = [
  ['/quotes/routes', {}],
  ['/quotes', { authorization: `Bearer ${key}` }],
] as const;

t.test('routing options: every problem reported at once, exact messages', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ maxHops: 0 }, 'maxHops: must be between 1 and 3'],
    [{ maxHops: 4, maxSplits: 8 }, 'maxHops: must be between 1 and 3; maxSplits: must be between 1 and 7'],
    [{ maxSplits: 1.5 }, 'maxSplits: must be an integer'],
    [{ gasPriceWei: '1.5' }, 'gasPriceWei: must be a non-negative integer string of wei, such as "1000000000"'],
    [{ gasPriceWei: 7 }, 'gasPriceWei: must be a string'],
    [{ includeDexes: ['uniswap', 'curve'] }, 'includeDexes: "curve" is not a DEX of devnet (31337)'],
    [{ excludeDexes: ['a', 'b'] }, 'excludeDexes: "a", "b" are not DEXes of devnet (31337)'],
    [{ excludeDexes: ['uniswap', 'sushiswap', 'balancer'] }, 'excludeDexes: leaves no DEX of devnet (31337) to route through'],
    [{ includeDexes: 'uniswap' }, 'includeDexes: must be an array'],
    [{ includeDexes: [1] }, 'includeDexes: must be a string'],
    [
      { maxHops: null, amount: '-1' },
      'amount: must be a positive decimal string such as "1.5" (no sign, exponent or spaces); maxHops: must be an integer',
    ],
  ];
  for (const [url, headers] of ENDPOINTS) {
    for (const [extra, message] of cases) {
      const res = await q.request('POST', url, { body: body('WETH', 'USDC', '1', extra), headers });
      t.strictSame([res.status, res.body], [400, { code: 400, message }], `${url} ${JSON.stringify(extra)}`);
    }
  }
});

t.test('no route within the hop limit names the pair, the chain and the limit', async (t) => {
  for (const [url, headers] of ENDPOINTS) {
    const uni = await q.request('POST', url, { body: body('UNI', 'DAI', '1'), headers });
    t.strictSame([uni.status, uni.body], [400, { code: 400, message: 'quote unavailable: no route for UNI/DAI on devnet within 3 hops' }]);
    // AAVE's only pair is AAVE/LINK; LINK's only pool is LINK/WETH: AAVE -> USDC needs three hops.
    const two = await q.request('POST', url, { body: body('AAVE', 'USDC', '1', { maxHops: 2 }), headers });
    t.strictSame(
      [two.status, two.body],
      [400, { code: 400, message: 'quote unavailable: no route for AAVE/USDC on devnet within 2 hops' }],
    );
    const one = await q.request('POST', url, { body: body('LINK', 'USDC', '1', { maxHops: 1 }), headers });
    t.strictSame([one.status, one.body], [400, { code: 400, message: 'quote unavailable: no route for LINK/USDC on devnet within 1 hop' }]);
  }
});

interface Hop {
  dex: string;
  version: string;
  pool: string;
  fee: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
}
interface RoutedAnswer {
  amountIn: string;
  amountOut: string;
  route: { dex: string; name: string; version: string; poolFee: number };
  pairAddress: string;
  paths: { percent: number; amountIn: string; amountOut: string; hops: Hop[] }[];
  gasEstimate: string;
  gasPriceWei: string;
  networkFee: { wei: string; inTokenIn: string | null; inTokenOut: string | null };
  priceImpactBps: number;
}

/** The invariants of a routed answer: paths add up, hops chain, the first pool of the largest split is pairAddress. */
function checkStructure(t: Test, a: RoutedAnswer, tokenIn: string, tokenOut: string, label: string): void {
  t.equal(
    a.paths.reduce((s, p) => s + Math.round(p.percent * 10_000), 0),
    1_000_000,
    `${label}: percents (four decimals) add up to 100`,
  );
  t.equal(
    a.paths.reduce((s, p) => s + BigInt(p.amountIn), 0n),
    BigInt(a.amountIn),
    `${label}: path inputs add up to amountIn`,
  );
  t.equal(
    a.paths.reduce((s, p) => s + BigInt(p.amountOut), 0n),
    BigInt(a.amountOut),
    `${label}: path outputs add up to amountOut`,
  );
  for (const p of a.paths) {
    t.equal(p.hops[0].tokenIn, tokenIn, `${label}: a path starts at tokenIn`);
    t.equal(p.hops[p.hops.length - 1].tokenOut, tokenOut, `${label}: a path ends at tokenOut`);
    t.equal(p.hops[0].amountIn, p.amountIn);
    t.equal(p.hops[p.hops.length - 1].amountOut, p.amountOut);
    for (let i = 1; i < p.hops.length; i++) {
      t.equal(p.hops[i].tokenIn, p.hops[i - 1].tokenOut, `${label}: hops chain by token`);
      t.equal(p.hops[i].amountIn, p.hops[i - 1].amountOut, `${label}: hops chain by amount`);
    }
  }
  const pools = a.paths.flatMap((p) => p.hops.filter((h) => h.dex !== 'wrap').map((h) => h.pool));
  t.equal(new Set(pools).size, pools.length, `${label}: no pool is used twice`);
  t.equal(
    a.pairAddress,
    a.paths[0].hops.find((h) => h.dex !== 'wrap')?.pool ?? chain.wrappedNativeToken,
    `${label}: pairAddress is the largest split's first pool`,
  );
  t.equal(BigInt(a.networkFee.wei), BigInt(a.gasEstimate) * BigInt(a.gasPriceWei), `${label}: networkFee.wei = gasEstimate x gasPriceWei`);
}

t.test('routed answers: two and three hops, splits, native in and out', async (t) => {
  const cases: [string, string, string, Record<string, unknown>][] = [
    ['LINK', 'USDC', '1000', {}],
    ['AAVE', 'USDC', '50', {}],
    ['ETH', 'USDC', '1000', { gasPriceWei: '0' }],
    ['USDC', 'ETH', '2000000', { gasPriceWei: '0' }],
    ['WETH', 'USDC', '1000', { gasPriceWei: '0' }],
  ];
  for (const [a, b, amount, extra] of cases) {
    const res = await q.request<Answer<RoutedAnswer[]>>('POST', '/quotes/routes', { body: body(a, b, amount, extra) });
    t.equal(res.status, 200, `${amount} ${a} -> ${b}`);
    const answers = res.body.data;
    const outs = answers.map((x) => BigInt(x.amountOut));
    t.strictSame(
      outs,
      [...outs].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)),
      'sorted by amountOut, descending',
    );
    for (const answer of answers)
      checkStructure(
        t,
        answer,
        token(a).address,
        token(b).address,
        `${amount} ${a} -> ${b} on ${answer.route.dex} ${answer.route.version}`,
      );
  }
  const link = (await q.request<Answer<RoutedAnswer[]>>('POST', '/quotes/routes', { body: body('LINK', 'USDC', '1000') })).body.data;
  t.equal(link[0].route.name, 'LINK → WETH → USDC on Uniswap V3', 'a one-path trade is named by its tokens');
  const aave = (await q.request<Answer<RoutedAnswer[]>>('POST', '/quotes/routes', { body: body('AAVE', 'USDC', '50', { maxSplits: 1 }) }))
    .body.data;
  t.strictSame(
    aave.map((x) => x.paths[0].hops.length),
    [3],
    'AAVE -> USDC: one three-hop path through SwapRouter02 (Uniswap V2 + V3)',
  );
  t.match(aave[0].route.name, /^AAVE → LINK → WETH → USDC on Uniswap V[23] \+ Uniswap V[23]$/);
  const big = (
    await q.request<Answer<RoutedAnswer[]>>('POST', '/quotes/routes', {
      body: body('WETH', 'USDC', '1000', { gasPriceWei: '0', includeDexes: ['uniswap'] }),
    })
  ).body.data;
  t.ok(
    big.every((x) => x.route.dex === 'uniswap'),
    'includeDexes keeps to the named DEX',
  );
  const split = (
    await q.request<Answer<RoutedAnswer>>('POST', '/quotes', {
      body: body('WETH', 'USDC', '1000', { gasPriceWei: '0' }),
      headers: ENDPOINTS[1][1],
    })
  ).body.data;
  t.ok(split.paths.length > 1, 'POST /quotes: a large WETH -> USDC trade is split');
  t.match(split.route.name, /^[A-Za-z0-9 +]+ \d+(\.\d+)?% \+ .+ (\d+(\.\d+)?|<0\.01)%$/, 'a split trade is named by its DEXes and shares');
});

interface ExactOutAnswer extends RoutedAnswer {
  tradeType: string;
  amountInMaximum: string;
  amountOutMinimum: string;
  slippageBps: number;
}

t.test('exact output: every answer delivers exactly the amount, sorted by amountIn ascending, with its limits', async (t) => {
  const cases: [string, string, string, Record<string, unknown>][] = [
    ['USDC', 'WETH', '100', { gasPriceWei: '0' }],
    ['WETH', 'USDC', '3000000', { gasPriceWei: '0' }],
    ['LINK', 'USDC', '5000', {}],
    ['ETH', 'USDC', '1000', {}],
    ['USDC', 'ETH', '300', { slippageBps: 75 }],
    ['DAI', 'WBTC', '1.5', {}],
  ];
  for (const [a, b, amount, extra] of cases) {
    const res = await q.request<Answer<ExactOutAnswer[]>>('POST', '/quotes/routes', {
      body: body(a, b, amount, { tradeType: 'exactOut', ...extra }),
    });
    t.equal(res.status, 200, `${a} -> exactly ${amount} ${b}`);
    const answers = res.body.data;
    const ins = answers.map((x) => BigInt(x.amountIn));
    t.strictSame(
      ins,
      [...ins].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
      'sorted by amountIn, ascending',
    );
    const wanted = BigInt(Number(amount) * 10 ** token(b).decimals);
    const slippage = BigInt((extra.slippageBps as number | undefined) ?? 50);
    for (const x of answers) {
      const label = `${a} -> ${amount} ${b} on ${x.route.dex} ${x.route.version}`;
      t.strictSame(
        [x.tradeType, x.amountOut, x.amountOutMinimum],
        ['exactOut', wanted.toString(), wanted.toString()],
        `${label}: exactly the amount asked for`,
      );
      t.equal(
        x.amountInMaximum,
        ((BigInt(x.amountIn) * (10_000n + slippage) + 9_999n) / 10_000n).toString(),
        `${label}: amountInMaximum = ceil(amountIn x (10000 + ${slippage}) / 10000)`,
      );
      // Every devnet token has a pool with WETH, so the fee is always priced in tokenIn (never null); in WETH or ETH
      // it is the fee in wei itself, and a zero fee is zero in any token.
      t.match(x.networkFee.inTokenIn, /^[0-9]+$/, `${label}: networkFee.inTokenIn is priced`);
      if (a === 'WETH' || a === 'ETH' || x.networkFee.wei === '0')
        t.equal(x.networkFee.inTokenIn, x.networkFee.wei, `${label}: networkFee.inTokenIn = the fee in wei`);
      checkStructure(t, x, token(a).address, token(b).address, label);
      // One protocol per path: an exact output is never routed through a mixed v2/v3 path.
      for (const p of x.paths)
        t.equal(new Set(p.hops.filter((h) => h.dex !== 'wrap').map((h) => h.version)).size, 1, `${label}: one protocol per path`);
    }
  }
  const best = (
    await q.request<Answer<ExactOutAnswer>>('POST', '/quotes', {
      body: body('WETH', 'USDC', '3000000', { tradeType: 'exactOut', gasPriceWei: '0' }),
      headers: ENDPOINTS[1][1],
    })
  ).body.data;
  t.ok(best.paths.length > 1, 'POST /quotes: a large exact output is split');
  const routes = (
    await q.request<Answer<ExactOutAnswer[]>>('POST', '/quotes/routes', {
      body: body('WETH', 'USDC', '3000000', { tradeType: 'exactOut', gasPriceWei: '0' }),
    })
  ).body.data;
  t.equal(best.amountIn, routes[0].amountIn, 'the best trade is the first route quote');
  const exactIn = (await q.request<Answer<ExactOutAnswer[]>>('POST', '/quotes/routes', { body: body('WETH', 'USDC', '1') })).body.data;
  t.ok(
    exactIn.every((x) => x.tradeType === 'exactIn' && x.amountInMaximum === x.amountIn),
    'exactIn answers echo tradeType "exactIn", amountInMaximum = amountIn',
  );
});

t.test('exact output refusals: no single-protocol path, no route, same chain only', async (t) => {
  for (const [url, headers] of ENDPOINTS) {
    // AAVE's only pair is Uniswap V2 AAVE/LINK and LINK's only pool is v3: every AAVE -> USDC path mixes them.
    const mixed = await q.request('POST', url, { body: body('AAVE', 'USDC', '100', { tradeType: 'exactOut' }), headers });
    t.strictSame(
      [mixed.status, mixed.body],
      [
        400,
        {
          code: 400,
          message:
            'quote unavailable: no route for AAVE/USDC on devnet within 3 hops can deliver exactly 100 USDC: exact output takes paths of one protocol (v2 or v3), and the paths found mix them',
        },
      ],
    );
    const uni = await q.request('POST', url, { body: body('UNI', 'DAI', '1', { tradeType: 'exactOut' }), headers });
    t.strictSame([uni.status, uni.body], [400, { code: 400, message: 'quote unavailable: no route for UNI/DAI on devnet within 3 hops' }]);
    const chainB = q.catalog.chain(31338)!;
    const cross = await q.request('POST', url, {
      body: {
        ...body('USDC', 'USDC', '100', { tradeType: 'exactOut' }),
        destinationChainId: 31338,
        tokenOut: chainB.tokens.find((x) => x.symbol === 'USDC')!.address,
      },
      headers,
    });
    t.strictSame(
      [cross.status, cross.body],
      [
        400,
        {
          code: 400,
          message: 'tradeType: exact output ("exactOut") is same-chain only: originChainId and destinationChainId must be equal',
        },
      ],
      `${url}: cross-chain`,
    );
  }
  // AAVE -> LINK has a one-protocol path (the v2 pair).
  const direct = await q.request('POST', '/quotes/routes', { body: body('AAVE', 'LINK', '100', { tradeType: 'exactOut' }) });
  t.equal(direct.status, 200);
});
