// The quote endpoints end to end on a real chain: anvil with the real Uniswap contracts (seeds/devnet), seeded into
// a temporary snapshot folder, the app built over catalog/ and that folder with a real Piscina pricing pool, the
// in-memory quote store and the file key store in a temporary DATA_DIR.
//
// Each case starts from the deployed state (evm_snapshot / evm_revert) and runs on the state it was seeded from: seed -> reload graph (API process and workers) -> quote -> compare
// with the chain's own quoters at that state -> execute. The oracles are the chain's QuoterV2.quoteExactInputSingle
// (every v3 pool of the pair, every fee tier the factory has a pool for) and UniswapV2Router02.getAmountsOut (every
// v2 DEX with a pair), read just before the steps are sent; the recipient must receive exactly the quoted amountOut.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { type Address, getAddress, parseAbi, parseUnits, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import type { Step } from '../../src/tx/Step.ts';
import { unlessReverted } from '../helpers/contractRevert.ts';
import { freshAddress as addressFor, artifactAbi, devnetWallet, gasPaid } from '../helpers/devnetWallet.ts';
import { poolSwapSteps } from '../helpers/poolSwapSteps.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';
import { warmPools } from '../helpers/warmPools.ts';

const QUOTER_V2_ABI = artifactAbi('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json');
const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');
const V2_FACTORY_ABI = parseAbi(['function getPair(address, address) view returns (address)']);
const V3_FACTORY_ABI = parseAbi(['function getPool(address, address, uint24) view returns (address)']);
/** TickMath.sol MIN_SQRT_RATIO / MAX_SQRT_RATIO: QuoterV2's default price limits are these +1 / -1. */
const MIN_SQRT_RATIO = 4295128739n;
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

const devnet = await startDevnet();
t.teardown(() => devnet.stop());
const snapshotDir = mkdtempSync(join(tmpdir(), 'sqs-quote-snapshots-'));
t.teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));
const q = buildQuoteTestApp({ catalogDir: fileURLToPath(new URL('../../catalog', import.meta.url)), snapshotDir });
t.teardown(() => q.close());
const orgA = await q.keys.create('org-a');
const orgB = await q.keys.create('org-b');
const AUTH = { authorization: `Bearer ${orgA.key}` };

const CHAIN = q.catalog.chain(devnet.chainId) as CatalogChain;
const WETH = getAddress(CHAIN.wrappedNativeToken);
const token = (symbol: string): CatalogToken => CHAIN.tokens.find((x) => x.symbol === symbol) as CatalogToken;
const poolSide = (address: string): Address => (address === NATIVE_TOKEN_ADDRESS ? WETH : getAddress(address));

const { client, balanceOf, sendStep, sendSteps } = devnetWallet(devnet);
const sender = privateKeyToAccount(devnet.accounts[5].privateKey);
const mover = privateKeyToAccount(devnet.accounts[6].privateKey);

/** A fresh address with no balance of anything, one per label. */
const freshAddress = (label: string): Address => addressFor(`quotes-devnet:${label}`);

/** Gives `account` `amount` of a token (ether through anvil_setBalance, adding to the balance). */
async function fund(account: Address, t: CatalogToken, amount: bigint): Promise<void> {
  await fundAccount(devnet.rpcUrl, account, t.address as Address, amount);
}

// A second after the pools' liquidity: a first swap lands in a later block, writing what a first swap writes (not
// more: the quotes' deadlines follow the wall clock).
await jsonRpc(devnet.rpcUrl, 'evm_increaseTime', [1]);
await jsonRpc(devnet.rpcUrl, 'evm_mine', []);
let baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');

/** Puts the chain back to the state right after deployment (every case starts from the same pools). */
async function freshState(): Promise<void> {
  if (!(await jsonRpc<boolean>(devnet.rpcUrl, 'evm_revert', [baseline]))) throw new Error('evm_revert failed');
  baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
}

/** Seeds the devnet's current state into the snapshot folder and makes the app (and its workers) serve it. */
async function seedAndReload(): Promise<void> {
  const report = await seedChains({
    chains: [CHAIN],
    rpcUrls: new Map([[devnet.chainId, devnet.rpcUrl]]),
    snapshotDir,
    progress: 'none',
    log: () => undefined,
  });
  const [one] = report.chains;
  if (one?.status !== 'seeded') throw new Error(`seeding failed: ${one?.reason}`);
  q.reload();
}

/** One pool's answer from the chain's own quoter. `filled` is false when QuoterV2 stopped at the default price limit. */
interface ChainQuote {
  readonly dex: string;
  readonly version: 'v2' | 'v3';
  readonly fee: number;
  readonly pool: Address;
  readonly amountOut: bigint;
  readonly filled: boolean;
  readonly ticksCrossed: number;
}

/** Every pool of the pair on every DEX of the chain, found through the factories, priced by QuoterV2 / getAmountsOut. */
async function chainQuotes(tokenIn: CatalogToken, tokenOut: CatalogToken, amountIn: bigint): Promise<ChainQuote[]> {
  const a = poolSide(tokenIn.address);
  const b = poolSide(tokenOut.address);
  const out: ChainQuote[] = [];
  for (const dex of CHAIN.dexes) {
    if (dex.version === 'v2') {
      const pool = await client.readContract({
        address: dex.v2FactoryAddress as Address,
        abi: V2_FACTORY_ABI,
        functionName: 'getPair',
        args: [a, b],
      });
      if (pool === zeroAddress) continue;
      const amounts = (await client.readContract({
        address: dex.v2RouterAddress as Address,
        abi: V2_ROUTER_ABI,
        functionName: 'getAmountsOut',
        args: [amountIn, [a, b]],
      })) as readonly bigint[];
      out.push({ dex: dex.slug, version: 'v2', fee: dex.feeBps * 100, pool, amountOut: amounts[1], filled: true, ticksCrossed: 0 });
      continue;
    }
    for (const fee of dex.feeTiers) {
      const pool = await client.readContract({
        address: dex.v3FactoryAddress as Address,
        abi: V3_FACTORY_ABI,
        functionName: 'getPool',
        args: [a, b, fee],
      });
      if (pool === zeroAddress) continue;
      // A revert means the pool cannot swap this way at all (e.g. its price already sits at the limit: SPL); any
      // other failure (RPC, ABI) is the test's and is rethrown.
      const simulated = await unlessReverted(
        () =>
          client.simulateContract({
            address: dex.v3QuoterAddress as Address,
            abi: QUOTER_V2_ABI,
            functionName: 'quoteExactInputSingle',
            args: [{ tokenIn: a, tokenOut: b, amountIn, fee, sqrtPriceLimitX96: 0n }],
          }),
        undefined,
      );
      if (simulated === undefined) {
        out.push({ dex: dex.slug, version: 'v3', fee, pool, amountOut: 0n, filled: false, ticksCrossed: 0 });
        continue;
      }
      const [amountOut, sqrtPriceAfter, ticksCrossed] = simulated.result as readonly [bigint, bigint, number, bigint];
      const limit = BigInt(a) < BigInt(b) ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
      out.push({
        dex: dex.slug,
        version: 'v3',
        fee,
        pool,
        amountOut,
        filled: sqrtPriceAfter !== limit,
        ticksCrossed: Number(ticksCrossed),
      });
    }
  }
  return out;
}

/** The best pool among those that fill the whole amount (ties: lower pool address, as documented by the service). */
function best(quotes: readonly ChainQuote[]): ChainQuote {
  const filled = quotes.filter((x) => x.filled && x.amountOut > 0n);
  if (filled.length === 0) throw new Error('no pool on chain fills this amount');
  return filled.reduce((m, x) =>
    x.amountOut > m.amountOut || (x.amountOut === m.amountOut && x.pool.toLowerCase() < m.pool.toLowerCase()) ? x : m,
  );
}

interface QuoteCase {
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Display units, as a client sends it. */
  readonly amount: string;
  /** The version that wins on this devnet at this amount (checked against the chain, so the case list covers both). */
  readonly winner: 'v2' | 'v3';
  /** Minimum initialized ticks the winning v3 swap crosses (QuoterV2's initializedTicksCrossed). */
  readonly minTicks?: number;
}

const CASES: readonly QuoteCase[] = [
  // v3, ERC-20 -> ERC-20, across decimals, amounts that cross several initialized ticks.
  { tokenIn: 'USDC', tokenOut: 'WBTC', amount: '1000000', winner: 'v3', minTicks: 5 }, // 6 -> 8
  { tokenIn: 'WBTC', tokenOut: 'USDC', amount: '20.12345678', winner: 'v3', minTicks: 5 }, // 8 -> 6
  { tokenIn: 'DAI', tokenOut: 'USDC', amount: '1000000.000000000000000001', winner: 'v3', minTicks: 3 }, // 18 -> 6
  { tokenIn: 'WETH', tokenOut: 'WBTC', amount: '150', winner: 'v3', minTicks: 2 }, // 18 -> 8
  { tokenIn: 'USDC', tokenOut: 'USDT', amount: '1000000.5', winner: 'v3', minTicks: 2 }, // 6 -> 6
  { tokenIn: 'USDC', tokenOut: 'WBTC', amount: '1000', winner: 'v3' }, // inside one tick range
  // v3, native in / native out.
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '1500', winner: 'v3', minTicks: 5 },
  { tokenIn: 'USDT', tokenOut: 'ETH', amount: '500000', winner: 'v3', minTicks: 3 },
  { tokenIn: 'ETH', tokenOut: 'DAI', amount: '200', winner: 'v3', minTicks: 5 },
  { tokenIn: 'DAI', tokenOut: 'ETH', amount: '600000', winner: 'v3', minTicks: 5 },
  // v2 (SushiSwap's and Uniswap's Router02), ERC-20 -> ERC-20, native in, native out.
  { tokenIn: 'WETH', tokenOut: 'DAI', amount: '1', winner: 'v2' },
  { tokenIn: 'DAI', tokenOut: 'WETH', amount: '1000', winner: 'v2' },
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '0.1', winner: 'v2' },
  { tokenIn: 'ETH', tokenOut: 'DAI', amount: '1.5', winner: 'v2' },
  { tokenIn: 'DAI', tokenOut: 'ETH', amount: '1000.123', winner: 'v2' },
];

/**
 * Routing limited to one pool of the pair, ranked by gross output (the behaviour these cases were written for), at
 * any price impact: the large cases cross many ticks on purpose, well above the default maxPriceImpactBps (15%).
 */
const SINGLE_POOL = { maxHops: 1, maxSplits: 1, gasPriceWei: '0', maxPriceImpactBps: 10000 } as const;

const label = (c: Pick<QuoteCase, 'tokenIn' | 'tokenOut' | 'amount'>): string => `${c.amount} ${c.tokenIn} -> ${c.tokenOut}`;

/** POST /quotes from the sender's wallet to a fresh recipient; returns the quote and the recipient. */
async function postQuote(c: Pick<QuoteCase, 'tokenIn' | 'tokenOut' | 'amount'>, recipient: Address, extra: Record<string, unknown> = {}) {
  const res = await q.request<Answer<Quote>>('POST', '/quotes', {
    headers: AUTH,
    body: {
      originChainId: devnet.chainId,
      destinationChainId: devnet.chainId,
      tokenIn: token(c.tokenIn).address,
      tokenOut: token(c.tokenOut).address,
      amount: c.amount,
      recipientAddress: recipient,
      walletAddress: sender.address,
      // Single-pool behaviour, ranked by gross output: what these cases compare with the chain's best pool.
      ...SINGLE_POOL,
      ...extra,
    },
  });
  if (res.status !== 200) throw new Error(`POST /quotes ${res.status}: ${res.text}`);
  return res.body.data;
}

let savedQuote: { quoteId: string } | undefined;
const winners = new Set<string>();

/** Gas estimate against the gas the chain used: within ±5% (the gas model's bound, on never-traded and traded pools). */
function checkGas(t: Test, quote: { gasEstimate?: string }, receipts: readonly { gasUsed: bigint }[]): void {
  const used = receipts.reduce((sum, r) => sum + r.gasUsed, 0n);
  t.ok(quote.gasEstimate !== undefined, 'the quote states its gas estimate');
  const off = Number(((BigInt(quote.gasEstimate ?? '0') - used) * 10_000n) / used) / 100;
  t.ok(Math.abs(off) <= 5, `gasEstimate ${quote.gasEstimate} within 5% of the ${used} used (${off}%), each step sent with its gasLimit`);
}

/** The state the cases run on: the deployed pools, never traded (cold), or after every pool was traded (warm). */
let phase: 'cold' | 'warm' = 'cold';

for (const c of CASES) quoteCase(c, 'cold');

function quoteCase(c: QuoteCase, pools: 'cold' | 'warm'): void {
  t.test(
    `POST /quotes ${label(c)} (${pools} pools): the chain's best pool, executed, the recipient receives exactly amountOut`,
    async (t) => {
      if (phase !== pools) throw new Error(`the pools are ${phase}, the case wants them ${pools}`);
      const tokenIn = token(c.tokenIn);
      const tokenOut = token(c.tokenOut);
      const amountIn = parseUnits(c.amount, tokenIn.decimals);
      const recipient = freshAddress(label(c));
      await freshState();
      await fund(sender.address, tokenIn, amountIn);
      await seedAndReload();

      const quote = await postQuote(c, recipient);
      const onChain = await chainQuotes(tokenIn, tokenOut, amountIn);
      const top = best(onChain);
      t.equal(
        BigInt(quote.amountOut),
        top.amountOut,
        `amountOut = max over ${onChain.map((x) => `${x.dex} ${x.version}${x.version === 'v3' ? `/${x.fee}` : ''} ${x.amountOut}${x.filled ? '' : ' (partial)'}`).join(', ')}`,
      );
      t.strictSame(
        { dex: quote.route.dex, version: quote.route.version, poolFee: quote.route.poolFee, pairAddress: quote.pairAddress },
        { dex: top.dex, version: top.version, poolFee: top.fee, pairAddress: top.pool },
        "the route is the chain's best pool",
      );
      t.equal(top.version, c.winner, `the ${c.winner} pool wins at this amount`);
      winners.add(`${top.version}:${c.tokenIn === 'ETH' ? 'native-in' : c.tokenOut === 'ETH' ? 'native-out' : 'erc20'}`);
      if (c.minTicks !== undefined)
        t.ok(top.ticksCrossed >= c.minTicks, `the swap crosses ${top.ticksCrossed} initialized ticks (>= ${c.minTicks})`);
      t.strictSame(
        [quote.amountIn, quote.amountOutMinimum, quote.slippageBps, quote.walletAddress, quote.recipientAddress, quote.status],
        [amountIn.toString(), ((top.amountOut * 9_950n) / 10_000n).toString(), 50, sender.address, recipient, 'pending'],
      );
      t.equal(
        quote.steps.length,
        tokenIn.address === NATIVE_TOKEN_ADDRESS ? 1 : 2,
        tokenIn.address === NATIVE_TOKEN_ADDRESS ? 'one swap step with value' : 'approval, then swap',
      );

      const recipientBefore = await balanceOf(tokenOut.address, recipient);
      const senderBefore = await balanceOf(tokenIn.address, sender.address);
      const receipts = await sendSteps(sender, quote.steps);
      t.equal(
        (await balanceOf(tokenOut.address, recipient)) - recipientBefore,
        BigInt(quote.amountOut),
        'the recipient received exactly amountOut',
      );
      const spent = senderBefore - (await balanceOf(tokenIn.address, sender.address));
      t.equal(
        spent,
        amountIn + (tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid(receipts) : 0n),
        'the sender spent exactly amountIn (plus gas when it is ether)',
      );
      checkGas(t, quote, receipts);
      savedQuote ??= quote;
    },
  );
}

t.test('the cases cover v2 and v3 winners, ERC-20 -> ERC-20, native in and native out', async (t) => {
  t.strictSame([...winners].sort(), ['v2:erc20', 'v2:native-in', 'v2:native-out', 'v3:erc20', 'v3:native-in', 'v3:native-out']);
});

t.test('GET /quotes/:quoteId: the saved quote for its organization, 404 for another or an unknown id', async (t) => {
  const id = savedQuote!.quoteId;
  const mine = await q.request('GET', `/quotes/${id}`, { headers: AUTH });
  t.strictSame([mine.status, mine.body], [200, { code: 200, message: 'quote fetched successfully', data: savedQuote }]);
  const theirs = await q.request('GET', `/quotes/${id}`, { headers: { 'x-api-key': orgB.key } });
  t.strictSame([theirs.status, theirs.body], [404, { code: 404, message: `quote ${id} not found` }]);
  const unknown = '00000000-0000-4000-8000-000000000000';
  const missing = await q.request('GET', `/quotes/${unknown}`, { headers: AUTH });
  t.strictSame([missing.status, missing.body], [404, { code: 404, message: `quote ${unknown} not found` }]);
});

t.test('wrap and unwrap quotes execute 1:1', async (t) => {
  await freshState();
  await seedAndReload();
  const wrapTo = freshAddress('wrap');
  const wrap = await postQuote({ tokenIn: 'ETH', tokenOut: 'WETH', amount: '3.000000000000000123' }, wrapTo);
  t.strictSame([wrap.amountIn, wrap.amountOut, wrap.route.dex], ['3000000000000000123', '3000000000000000123', 'wrap']);
  await sendSteps(sender, wrap.steps);
  t.equal(await balanceOf(WETH, wrapTo), 3_000_000_000_000_000_123n, 'the recipient holds exactly the wrapped amount');

  const unwrapTo = freshAddress('unwrap');
  await fund(sender.address, token('WETH'), 2_000_000_000_000_000_001n);
  const unwrap = await postQuote({ tokenIn: 'WETH', tokenOut: 'ETH', amount: '2.000000000000000001' }, unwrapTo);
  t.strictSame([unwrap.amountIn, unwrap.amountOut, unwrap.route.dex], ['2000000000000000001', '2000000000000000001', 'wrap']);
  const wethBefore = await balanceOf(WETH, sender.address);
  await sendSteps(sender, unwrap.steps);
  t.equal(
    await balanceOf(NATIVE_TOKEN_ADDRESS, unwrapTo),
    2_000_000_000_000_000_001n,
    'the recipient received exactly the unwrapped ether',
  );
  t.equal(wethBefore - (await balanceOf(WETH, sender.address)), 2_000_000_000_000_000_001n);
});

/** Quotes whose price another trader moves before they are sent: the swap must revert and pay nothing. */
const MOVED: readonly QuoteCase[] = [
  { tokenIn: 'USDC', tokenOut: 'WBTC', amount: '200000', winner: 'v3' },
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '100', winner: 'v3' },
  { tokenIn: 'DAI', tokenOut: 'ETH', amount: '1000', winner: 'v2' },
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '0.1', winner: 'v2' },
];

for (const c of MOVED) {
  t.test(`POST /quotes ${label(c)}: reverts on chain (amountOutMinimum) once another trader moved the price`, async (t) => {
    const tokenIn = token(c.tokenIn);
    const tokenOut = token(c.tokenOut);
    const amountIn = parseUnits(c.amount, tokenIn.decimals);
    const recipient = freshAddress(`moved ${label(c)}`);
    await freshState();
    await fund(sender.address, tokenIn, amountIn);
    await fund(mover.address, tokenIn, amountIn * 10n);
    await seedAndReload();
    const quote = await postQuote(c, recipient);
    t.equal(quote.route.version, c.winner);
    t.equal(
      BigInt(quote.amountOut),
      best(await chainQuotes(tokenIn, tokenOut, amountIn)).amountOut,
      'the quote was exact when it was made',
    );

    // Another trader swaps 10x the amount the same way on the same pool first.
    const block = await client.getBlock();
    const index = new PricingGraph(new PoolGraph(loadSnapshots(snapshotDir).snapshots, q.catalog), q.catalog).chain(devnet.chainId)!;
    const moveSteps = poolSwapSteps(index, (e) => e.address === quote.pairAddress, {
      chain: CHAIN,
      tokenIn,
      tokenOut,
      amountIn: amountIn * 10n,
      account: mover.address,
      deadline: Number(block.timestamp) + 300,
    });
    await sendSteps(mover, moveSteps);
    const requoted = (await chainQuotes(tokenIn, tokenOut, amountIn)).find((x) => x.pool === quote.pairAddress)!;
    t.ok(
      requoted.amountOut < BigInt(quote.amountOutMinimum),
      `the pool now gives ${requoted.amountOut} < amountOutMinimum ${quote.amountOutMinimum}`,
    );

    const swap = quote.steps[quote.steps.length - 1] as Step;
    if (quote.steps.length === 2) t.equal((await sendStep(sender, quote.steps[0])).status, 'success', 'the approval still goes through');
    const reason = quote.route.version === 'v2' ? 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT' : 'Too little received';
    const value = swap.value === undefined ? undefined : BigInt(swap.value);
    await t.rejects(
      client.estimateGas({ account: sender, to: swap.to, data: swap.data, value }),
      { message: new RegExp(reason) },
      `simulation reverts: ${reason}`,
    );
    const before = await balanceOf(tokenOut.address, recipient);
    // Sent with the quote's own gasLimit, as a wallet would: it reverts on its minimum, well inside that limit.
    const receipt = await sendStep(sender, swap);
    t.equal(receipt.status, 'reverted', 'the mined swap transaction reverted');
    t.ok(receipt.gasUsed < BigInt(swap.gasLimit!), `on its minimum, not out of gas (${receipt.gasUsed} of ${swap.gasLimit})`);
    t.equal(await balanceOf(tokenOut.address, recipient), before, 'the recipient got nothing');
  });
}

/** Route-quote cases: pairs with pools on several DEX deployments, including a v3 tier that cannot fill the amount. */
const ROUTES: readonly Pick<QuoteCase, 'tokenIn' | 'tokenOut' | 'amount'>[] = [
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '100' },
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '0.1' },
  { tokenIn: 'USDC', tokenOut: 'DAI', amount: '100000' },
  { tokenIn: 'DAI', tokenOut: 'ETH', amount: '600000' },
  { tokenIn: 'USDC', tokenOut: 'WBTC', amount: '3000000' }, // both v3 tiers run out of liquidity: only Uniswap v2 is left
];

t.test('POST /quotes/routes: one entry per DEX deployment with a pool, sorted, each the chain quoter for its best pool', async (t) => {
  await freshState();
  await seedAndReload();
  for (const c of ROUTES) {
    const tokenIn = token(c.tokenIn);
    const tokenOut = token(c.tokenOut);
    const amountIn = parseUnits(c.amount, tokenIn.decimals);
    const res = await q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
      body: {
        originChainId: devnet.chainId,
        destinationChainId: devnet.chainId,
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        amount: c.amount,
        recipientAddress: freshAddress('routes'),
        ...SINGLE_POOL,
      },
    });
    t.equal(res.status, 200, label(c));
    const onChain = await chainQuotes(tokenIn, tokenOut, amountIn);
    const deployments = [...new Set(onChain.map((x) => `${x.dex}/${x.version}`))];
    // A deployment none of whose pools can fill the amount has no entry (issue 5: such a pool is not acceptable).
    const expected = deployments
      .filter((d) => onChain.some((x) => `${x.dex}/${x.version}` === d && x.filled && x.amountOut > 0n))
      .map((d) => best(onChain.filter((x) => `${x.dex}/${x.version}` === d)))
      .sort((a, b) => (a.amountOut > b.amountOut ? -1 : a.amountOut < b.amountOut ? 1 : 0));
    const got = (
      res.body.data as {
        route: { dex: string; version: string; poolFee: number };
        pairAddress: string;
        amountOut: string;
        amountIn: string;
      }[]
    ).map((r) => ({
      dex: r.route.dex,
      version: r.route.version,
      fee: r.route.poolFee,
      pool: r.pairAddress,
      amountOut: BigInt(r.amountOut),
      amountIn: r.amountIn,
    }));
    t.strictSame(
      got,
      expected.map((x) => ({
        dex: x.dex,
        version: x.version,
        fee: x.fee,
        pool: x.pool,
        amountOut: x.amountOut,
        amountIn: amountIn.toString(),
      })),
      `${label(c)}: ${expected.length} of ${deployments.length} deployments (${onChain.filter((x) => !x.filled).length} partial-fill pools left out)`,
    );
  }
});

/** One pool's input for an exact output, from the chain's own quoter; null when the pool cannot deliver it all. */
interface ChainInput {
  readonly dex: string;
  readonly version: 'v2' | 'v3';
  readonly fee: number;
  readonly pool: Address;
  readonly amountIn: bigint | null;
}

/**
 * Every pool of the pair priced for an exact output by the chain: QuoterV2.quoteExactOutputSingle (which reverts when
 * the pool cannot deliver the whole amount) and each v2 DEX's UniswapV2Router02.getAmountsIn (reverts likewise).
 */
async function chainInputs(tokenIn: CatalogToken, tokenOut: CatalogToken, amountOut: bigint): Promise<ChainInput[]> {
  const a = poolSide(tokenIn.address);
  const b = poolSide(tokenOut.address);
  const out: ChainInput[] = [];
  for (const dex of CHAIN.dexes) {
    if (dex.version === 'v2') {
      const pool = await client.readContract({
        address: dex.v2FactoryAddress as Address,
        abi: V2_FACTORY_ABI,
        functionName: 'getPair',
        args: [a, b],
      });
      if (pool === zeroAddress) continue;
      // getAmountsIn reverts for an output the pair cannot give (null); any other failure is rethrown.
      const amounts = await unlessReverted(
        () =>
          client.readContract({
            address: dex.v2RouterAddress as Address,
            abi: V2_ROUTER_ABI,
            functionName: 'getAmountsIn',
            args: [amountOut, [a, b]],
          }) as Promise<readonly bigint[]>,
        null,
      );
      const amountIn = amounts === null ? null : amounts[0];
      out.push({ dex: dex.slug, version: 'v2', fee: dex.feeBps * 100, pool, amountIn });
      continue;
    }
    for (const fee of dex.feeTiers) {
      const pool = await client.readContract({
        address: dex.v3FactoryAddress as Address,
        abi: V3_FACTORY_ABI,
        functionName: 'getPool',
        args: [a, b, fee],
      });
      if (pool === zeroAddress) continue;
      // QuoterV2 reverts when the pool cannot deliver the whole output (null); any other failure is rethrown.
      const simulated = await unlessReverted(
        () =>
          client.simulateContract({
            address: dex.v3QuoterAddress as Address,
            abi: QUOTER_V2_ABI,
            functionName: 'quoteExactOutputSingle',
            args: [{ tokenIn: a, tokenOut: b, amount: amountOut, fee, sqrtPriceLimitX96: 0n }],
          }),
        null,
      );
      const amountIn = simulated === null ? null : (simulated.result as readonly [bigint])[0];
      out.push({ dex: dex.slug, version: 'v3', fee, pool, amountIn });
    }
  }
  return out;
}

const EXACT_OUTPUT: readonly Pick<QuoteCase, 'tokenIn' | 'tokenOut' | 'amount'>[] = [
  { tokenIn: 'USDC', tokenOut: 'WBTC', amount: '12.5' }, // 6 -> 8, several ticks
  { tokenIn: 'WBTC', tokenOut: 'USDC', amount: '50000.5' }, // 8 -> 6
  { tokenIn: 'USDC', tokenOut: 'DAI', amount: '250000.000000000000000001' }, // 6 -> 18
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '1500' }, // native in
  { tokenIn: 'ETH', tokenOut: 'USDC', amount: '150' },
  { tokenIn: 'USDT', tokenOut: 'ETH', amount: '100' }, // native out
  { tokenIn: 'DAI', tokenOut: 'ETH', amount: '0.3' },
  { tokenIn: 'WETH', tokenOut: 'DAI', amount: '2000' },
];
const exactOutWinners = new Set<string>();

for (const c of EXACT_OUTPUT) exactOutputCase(c, 'cold');

// The same executions on pools traded before (as every pool of a live chain is): each pool traded both ways, then
// every case again from that state.
t.test('every pool traded both ways: the cases run again on traded pools', async (t) => {
  await freshState();
  const swapped = await warmPools(
    devnet.rpcUrl,
    devnetWallet(devnet),
    q.catalog,
    CHAIN,
    privateKeyToAccount(devnet.accounts[7].privateKey),
    1, // a second on, not an hour: the quotes' deadlines follow the wall clock
  );
  t.ok(swapped >= 40, `${swapped} warm-up swaps`);
  baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
  phase = 'warm';
});
for (const c of CASES) quoteCase(c, 'warm');
for (const c of EXACT_OUTPUT) exactOutputCase(c, 'warm');

function exactOutputCase(c: Pick<QuoteCase, 'tokenIn' | 'tokenOut' | 'amount'>, pools: 'cold' | 'warm'): void {
  t.test(
    `POST /quotes exact output ${c.tokenIn} -> exactly ${c.amount} ${c.tokenOut} (${pools} pools): the chain's cheapest pool, executed, exactly amountOut for exactly amountIn`,
    async (t) => {
      if (phase !== pools) throw new Error(`the pools are ${phase}, the case wants them ${pools}`);
      const tokenIn = token(c.tokenIn);
      const tokenOut = token(c.tokenOut);
      const amountOut = parseUnits(c.amount, tokenOut.decimals);
      const recipient = freshAddress(`exact output ${c.tokenIn} ${c.amount} ${c.tokenOut}`);
      await freshState();
      await seedAndReload();
      const quote = await postQuote(c, recipient, { tradeType: 'exactOut' });
      const onChain = await chainInputs(tokenIn, tokenOut, amountOut);
      const able = onChain.filter((x) => x.amountIn !== null);
      t.ok(able.length > 0, `the chain prices the output on ${able.length} of ${onChain.length} pools`);
      const top = able.reduce((m, x) => (x.amountIn! < m.amountIn! ? x : m));
      t.equal(
        BigInt(quote.amountIn),
        top.amountIn,
        `amountIn = min over ${onChain.map((x) => `${x.dex} ${x.version}${x.version === 'v3' ? `/${x.fee}` : ''} ${x.amountIn ?? 'refused'}`).join(', ')}`,
      );
      t.strictSame(
        [quote.route.dex, quote.route.version, quote.pairAddress],
        [top.dex, top.version, top.pool],
        "the route is the chain's cheapest pool",
      );
      exactOutWinners.add(`${top.version}:${c.tokenIn === 'ETH' ? 'native-in' : c.tokenOut === 'ETH' ? 'native-out' : 'erc20'}`);
      const maximum = (top.amountIn! * 10_050n + 9_999n) / 10_000n;
      t.strictSame(
        [quote.tradeType, quote.amountOut, quote.amountOutMinimum, quote.amountInMaximum],
        ['exactOut', amountOut.toString(), amountOut.toString(), maximum.toString()],
      );
      await fund(sender.address, tokenIn, maximum);
      const recipientBefore = await balanceOf(tokenOut.address, recipient);
      const senderBefore = await balanceOf(tokenIn.address, sender.address);
      const receipts = await sendSteps(sender, quote.steps);
      t.equal((await balanceOf(tokenOut.address, recipient)) - recipientBefore, amountOut, 'the recipient received exactly amountOut');
      const spent = senderBefore - (await balanceOf(tokenIn.address, sender.address));
      t.equal(
        spent,
        top.amountIn! + (tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid(receipts) : 0n),
        'the sender spent exactly amountIn (native: the rest of amountInMaximum came back, to the wei net of gas)',
      );
      checkGas(t, quote, receipts);
    },
  );
}

t.test('the exact-output cases cover v2 and v3 winners, ERC-20, native in and native out', async (t) => {
  t.strictSame([...exactOutWinners].sort(), ['v2:erc20', 'v2:native-in', 'v2:native-out', 'v3:erc20', 'v3:native-in', 'v3:native-out']);
});

t.test('POST /quotes exact output larger than every pool can give: 400, and the chain refuses it on every pool too', async (t) => {
  await freshState();
  await seedAndReload();
  const onChain = await chainInputs(token('USDC'), token('WBTC'), parseUnits('1000', 8));
  t.ok(onChain.length >= 3 && onChain.every((x) => x.amountIn === null), `${onChain.length} pools, every one refuses`);
  const res = await q.request<Answer<Quote>>('POST', '/quotes', {
    headers: AUTH,
    body: {
      originChainId: devnet.chainId,
      destinationChainId: devnet.chainId,
      tokenIn: token('USDC').address,
      tokenOut: token('WBTC').address,
      amount: '1000',
      recipientAddress: freshAddress('too much'),
      tradeType: 'exactOut',
    },
  });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: 'quote unavailable: no route for USDC/WBTC on devnet has the liquidity to deliver exactly 1000 WBTC' }],
  );
});
