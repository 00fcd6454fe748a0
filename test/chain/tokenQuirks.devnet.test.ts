// The token quirks that break a plain approve + swap, executed on a devnet: the standard deployment plus
// seeds/devnet/deployQuirkTokens.ts (RUSD: Tether's approval rule, catalogued so; QUSD: the same rule, not catalogued; DTT: DeflatingERC20, 1% burnt per transfer, with
// a v2 and a v3 pool; MIS: 8 decimals catalogued as 18; WRONG: catalogued as "RIGHT"), a catalogue folder of the
// test's own (quirkCatalog), seeded into a temporary snapshot folder, and the app with a real pricing pool over both.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { encodeFunctionData, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployQuirkTokens, quirkCatalog } from '../../seeds/devnet/deployQuirkTokens.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import type { Step } from '../../src/tx/Step.ts';
import { artifactAbi, devnetWallet } from '../helpers/devnetWallet.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');
const resetAbi = parseAbi([
  'function mint(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function allowance(address, address) view returns (uint256)',
]);

const devnet = await startDevnet();
t.teardown(() => devnet.stop());
const quirks = await deployQuirkTokens(devnet.rpcUrl);
const { RUSD, QUSD, DTT, MIS, WRONG } = quirks.tokens;
const c = devnet.addresses.contracts;
const WETH = devnet.addresses.tokens.WETH;
const catalogDir = mkdtempSync(join(tmpdir(), 'quirk-catalog-'));
const snapshotDir = mkdtempSync(join(tmpdir(), 'quirk-snapshots-'));
t.teardown(() => rmSync(catalogDir, { recursive: true, force: true }));
t.teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));
writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(quirkCatalog(quirks)));

const { client, balanceOf, send, sendSteps } = devnetWallet(devnet);
const wallet = privateKeyToAccount(devnet.accounts[7].privateKey);

// Seed before anything moves the pools, so the quote prices on the chain's state.
const chain = loadCatalog(catalogDir).chain(31337)!;
const seeded = await seedChains({ chains: [chain], rpcUrls: new Map([[31337, devnet.rpcUrl]]), snapshotDir, progress: 'none' });
const report = seeded.chains[0];
const q = buildQuoteTestApp({ catalogDir, snapshotDir });
t.teardown(() => q.close());
const AUTH = { authorization: `Bearer ${(await q.keys.create('quirks')).key}` };
const request = (tokenIn: string, tokenOut: string, amount: string) => ({
  originChainId: 31337,
  destinationChainId: 31337,
  tokenIn,
  tokenOut,
  amount,
  recipientAddress: wallet.address,
});

t.test('seeding: DTT measured at 1% buy and sell fee and its v2 and v3 pools left out; MIS and WRONG reported and left out', async (t) => {
  t.equal(report.status, 'seeded');
  t.same(
    report.excludedTokens.map((e) => ({ ...e })),
    [
      {
        address: DTT,
        reason: 'transferFee',
        detail: 'it takes a fee on transfer: 1% of a transfer out of a pool (buy), 1% of a transfer into one (sell)',
        buyFeeBps: 100,
        sellFeeBps: 100,
        pools: [quirks.v2Pairs.DTT, quirks.dttV3Pool],
      },
      { address: MIS, reason: 'metadata', detail: 'decimals() is 8 on chain, 18 in the catalogue', pools: [] },
      { address: WRONG, reason: 'metadata', detail: 'symbol() is "WRONG" on chain, "RIGHT" in the catalogue', pools: [] },
    ].sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1)),
  );
  const pools = report.snapshot!.pools;
  for (const token of [DTT, MIS, WRONG])
    t.notOk(
      pools.some((p) => p.token0 === token || p.token1 === token),
      `no pool of ${token}`,
    );
  t.ok(
    pools.some((p) => p.address === quirks.v2Pairs.RUSD),
    'the RUSD/WETH pair is seeded',
  );
  t.same(report.snapshot!.excludedTokens, report.excludedTokens, 'recorded in the snapshot');

  // The oracle for the fee: DeflatingERC20 burns value / 100 of every transfer, so a pair holding DTT pays out 1% less
  // than it sends. Router02's plain swap (which trusts the amount sent) reverts on such a token.
  const [, quoted] = (await client.readContract({
    address: c.uniswapV2Router02,
    abi: V2_ROUTER_ABI,
    functionName: 'getAmountsOut',
    args: [10n ** 18n, [WETH, DTT]],
  })) as bigint[];
  const dttBefore = await balanceOf(DTT, wallet.address);
  await send(wallet, {
    to: WETH,
    data: encodeFunctionData({ abi: parseAbi(['function deposit() payable']), functionName: 'deposit' }),
    value: 10n ** 18n,
  });
  await send(wallet, {
    to: WETH,
    data: encodeFunctionData({ abi: resetAbi, functionName: 'approve', args: [c.uniswapV2Router02, 10n ** 18n] }),
  });
  const swap = await send(wallet, {
    to: c.uniswapV2Router02,
    data: encodeFunctionData({
      abi: V2_ROUTER_ABI,
      functionName: 'swapExactTokensForTokens',
      args: [10n ** 18n, 0n, [WETH, DTT], wallet.address, 2n ** 40n],
    }),
  });
  t.equal(swap.status, 'success');
  t.equal(
    (await balanceOf(DTT, wallet.address)) - dttBefore,
    quoted! - quoted! / 100n,
    'a buy delivers getAmountsOut less 1%: a quote would under-deliver',
  );
});

t.test('quotes for DTT, MIS and RIGHT are refused with the reason; nothing is priced through them', async (t) => {
  const block = report.blockNumber;
  const cases: [string, string, string][] = [
    [
      DTT,
      WETH,
      `tokenIn: DTT (${DTT}) is not quoted on devnet: it takes a fee on transfer: 1% of a transfer out of a pool (buy), 1% of a transfer into one (sell) (seeding run at block ${block})`,
    ],
    [
      WETH,
      DTT,
      `tokenOut: DTT (${DTT}) is not quoted on devnet: it takes a fee on transfer: 1% of a transfer out of a pool (buy), 1% of a transfer into one (sell) (seeding run at block ${block})`,
    ],
    [
      MIS,
      WETH,
      `tokenIn: MIS (${MIS}) is not quoted on devnet: decimals() is 8 on chain, 18 in the catalogue (seeding run at block ${block})`,
    ],
    [
      WETH,
      WRONG,
      `tokenOut: RIGHT (${WRONG}) is not quoted on devnet: symbol() is "WRONG" on chain, "RIGHT" in the catalogue (seeding run at block ${block})`,
    ],
  ];
  for (const [tokenIn, tokenOut, message] of cases) {
    for (const path of ['/quotes', '/quotes/routes']) {
      const res = await q.request('POST', path, { body: request(tokenIn, tokenOut, '1'), headers: AUTH });
      t.same([res.status, res.body], [400, { code: 400, message }], `${path} ${message.slice(0, 30)}`);
    }
  }
});

t.test(
  'seeding: the approval probe finds the reset rule of RUSD (catalogued) and QUSD (not catalogued), and of no other token',
  async (t) => {
    t.same(
      report.snapshot!.approvalResetTokens,
      [RUSD, QUSD].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)),
    );
    t.ok(
      report.snapshot!.pools.some((p) => p.address === quirks.v2Pairs.QUSD),
      'the QUSD/WETH pair is seeded',
    );
    // The oracle: on the chain, a second non-zero approve reverts for both tokens and not for WETH.
    const owner = privateKeyToAccount(devnet.accounts[8].privateKey);
    for (const [token, reverts] of [
      [RUSD, true],
      [QUSD, true],
      [WETH, false],
    ] as const) {
      const approve = (amount: bigint) =>
        send(
          owner,
          { to: token, data: encodeFunctionData({ abi: resetAbi, functionName: 'approve', args: [c.uniswapV2Router02, amount] }) },
          200_000n,
        );
      t.equal((await approve(1n)).status, 'success', `${token}: approve from 0`);
      t.equal((await approve(2n)).status, reverts ? 'reverted' : 'success', `${token}: approve over an allowance of 1`);
    }
  },
);

t.test('GET /blockchains/tokens: the left-out tokens not quotable with the reason, the reset rule where the chain showed it', async (t) => {
  const res = await q.request<Answer<unknown>>('GET', '/blockchains/tokens?chainId=31337');
  const data = res.body.data as Record<string, unknown>[];
  const of = (address: string) => data.find((x) => x.address === address);
  const token = (address: string, symbol: string, name: string, slug: string, decimals: number) => ({
    address,
    symbol,
    name,
    slug,
    decimals,
    logo: '',
    blockchainId: 31337,
  });
  t.same(of(MIS), {
    ...token(MIS, 'MIS', 'Mismatched Decimals', 'mis', 18),
    quotable: false,
    reason: 'decimals() is 8 on chain, 18 in the catalogue',
  });
  t.same(of(WRONG), {
    ...token(WRONG, 'RIGHT', 'Wrong Symbol', 'right', 18),
    quotable: false,
    reason: 'symbol() is "WRONG" on chain, "RIGHT" in the catalogue',
  });
  t.same(of(DTT), {
    ...token(DTT, 'DTT', 'Deflating Test Token', 'dtt', 18),
    quotable: false,
    reason: 'it takes a fee on transfer: 1% of a transfer out of a pool (buy), 1% of a transfer into one (sell)',
  });
  t.same(of(RUSD), { ...token(RUSD, 'RUSD', 'Reset USD', 'reset-usd', 6), approvalReset: true });
  t.same(of(QUSD), { ...token(QUSD, 'QUSD', 'Quiet Reset USD', 'quiet-reset-usd', 6), approvalReset: true });
  const chains = await q.request<Answer<unknown>>('GET', '/blockchains?chainId=31337');
  t.same((chains.body.data as { tokens: unknown[] }[])[0].tokens, data, 'the same tokens embedded in GET /blockchains');
});

for (const [symbol, token] of [
  ['RUSD', RUSD],
  ['QUSD', QUSD],
] as const) {
  t.test(
    `approval reset (${symbol}, ${symbol === 'RUSD' ? 'catalogue flag' : 'found by seeding'}): a wallet with a leftover allowance executes the quote (approve 0, approve, swap) and receives amountOut`,
    async (t) => {
      const amount = 250n * 10n ** 6n;
      await send(wallet, { to: token, data: encodeFunctionData({ abi: resetAbi, functionName: 'mint', args: [wallet.address, amount] }) });
      const res = await q.request<Answer<Quote>>('POST', '/quotes', { body: request(token, WETH, '250'), headers: AUTH });
      t.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
      const quote = res.body.data as {
        amountOut: string;
        tokenIn: { approvalReset?: boolean };
        route: { dex: string; version: string };
        steps: Step[];
      };
      t.equal(quote.tokenIn.approvalReset, true, 'the quote says the token needs the reset');
      t.same([quote.route.dex, quote.route.version], ['uniswap', 'v2'], `the only ${symbol} pool: Uniswap V2`);
      const router = c.uniswapV2Router02;
      t.same(
        quote.steps.map((s) => [s.message, s.to, s.spender, s.amount]),
        [
          [`Reset the ${symbol} allowance of Uniswap V2 router to 0`, token, router, '0'],
          [`Approve 250 ${symbol} for Uniswap V2 router`, token, router, '250000000'],
          [`Swap 250 ${symbol} for WETH on Uniswap V2`, router, undefined, '250000000'],
        ],
      );

      // A leftover allowance from an earlier quote; with it, approving the amount directly reverts (the token's rule).
      await send(wallet, { to: token, data: encodeFunctionData({ abi: resetAbi, functionName: 'approve', args: [router, 1n] }) });
      t.equal(await client.readContract({ address: token, abi: resetAbi, functionName: 'allowance', args: [wallet.address, router] }), 1n);
      const direct = await send(wallet, { to: token, data: quote.steps[1].data }, 200_000n);
      t.equal(direct.status, 'reverted', 'approve(router, amount) over a leftover allowance reverts');

      const before = await balanceOf(WETH, wallet.address);
      const receipts = await sendSteps(wallet, quote.steps);
      t.same(
        receipts.map((r) => r.status),
        ['success', 'success', 'success'],
      );
      t.equal((await balanceOf(WETH, wallet.address)) - before, BigInt(quote.amountOut), 'received exactly amountOut');
      t.equal(await balanceOf(token, wallet.address), 0n);
    },
  );
}
