// Balancer v2 through the service's own seams on the devnet's Balancer (startDevnet({ balancer: true })):
// - seeding (seedChains with the devnet catalogue's balancer/balancerV2 entry) finds exactly the 4 devnet pools from
//   the Vault's TokensRegistered logs, each one N-token record whose state equals readBalancerPools at the snapshot's
//   block (amplification and rates taken as a swap in that block takes them);
// - the route search's pricing (pricing graph pair views, findRoutes, toPricedPath, pricePath) gives, for every
//   ordered token pair of every pool, exact input and exact output at several sizes, the amount
//   BalancerQueries.querySwap gives at that block, to the wei;
// - two pair views of one pool are one pool: no path uses the same poolId twice;
// - the Vault executor (src/tx/routers/balancerVault.ts) runs Balancer-only routes: bestTrade returns them, and where
//   a Balancer route gives more than the Uniswap pools the best trade goes through Balancer; a path mixing Balancer and
//   Uniswap pools has no single executor: it is a route of stages (exact input only; UNI trades only on Balancer, so
//   UNI -> USDC for an exact output is NO_EXACT_OUTPUT_ROUTE);
// - POST /quotes end to end on a snapshot seeded from the devnet, the Uniswap DEXes excluded: single hop, exact input
//   and exact output, on a weighted and a stable pool; amountOut (exact input) / amountIn (exact output) equal
//   BalancerQueries.querySwap on chain, and the steps sent exactly as returned (each with its gasLimit) spend exactly
//   amountIn, deliver exactly amountOut and leave nothing in the Vault's internal balances; splits across the Vault and
//   a Uniswap router (exact input and output) and a path of stages (the Vault, then the Uniswap V3 router: the second
//   step spends the first's minimum, the wallet keeps the rest) likewise, exactly, with nothing left with the routers;
//   paths of stages with a native end too: ETH in (the first stage's Uniswap router wraps the step's value, exactly
//   amountIn) and ETH out (the last stage's router unwraps to the recipient), the sender's ETH spent net of gas.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type Address, decodeFunctionResult, encodeFunctionData, getAddress, type Hex, parseUnits, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { BALANCER_ARTIFACT_PATHS } from '../../seeds/devnet/deployBalancer.ts';
import { MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { multicallBatched } from '../../src/chain/multicallBatched.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { balancerV2 } from '../../src/protocols/balancer/balancerV2.ts';
import { readBalancerPools } from '../../src/protocols/balancer/readBalancerPools.ts';
import { balancerRecord, type SnapshotPoolBalancer, tradeableIndices } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import { ampAt } from '../../src/protocols/balancerStable/stableMath.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { executorsFor } from '../../src/routing/executors.ts';
import { findRoutes } from '../../src/routing/findRoutes.ts';
import { pricePath, toPricedPath } from '../../src/routing/priceRoutes.ts';
import { artifactAbi, devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const devnet = await startDevnet({ balancer: true });
t.teardown(() => devnet.stop());
const bal = devnet.balancer!;
const wallet = devnetWallet(devnet);
const { client } = wallet;
const catalog = loadCatalog(join(ROOT, 'catalog'));
const chain = catalog.chain('devnet')!;
const QUERIES_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.BalancerQueries);

const dir = mkdtempSync(join(tmpdir(), 'balancer-seed-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const report = await seedChains({
  chains: [chain],
  rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
  snapshotDir: dir,
  write: false,
  progress: 'none',
  log: () => {},
});
const snapshot = report.chains[0].snapshot!;
const block = BigInt(snapshot.blockNumber);
const seeded = snapshot.pools.filter((p): p is SnapshotPoolBalancer => p.version === 'balancerV2');

t.test('seeding finds the 4 devnet pools, state equal to readBalancerPools at the block', async (t) => {
  t.same(
    seeded.map((p) => p.address).sort(),
    bal.pools.map((p) => p.poolId.toLowerCase()).sort(),
    'one record per devnet pool, named by its poolId',
  );
  const { timestamp } = await client.getBlock({ blockNumber: block });
  const states = await readBalancerPools(
    client,
    { blockNumber: block, vault: bal.contracts.vault },
    bal.pools.map((p) => ({ address: p.address, poolId: p.poolId, kind: p.kind === 'weighted' ? 'balancerWeighted' : 'balancerStable' })),
    (calls) => multicallBatched(client, { multicall3: MULTICALL3_ADDRESS, blockNumber: block, batchSize: 100, concurrency: 1 }, calls),
  );
  bal.pools.forEach((p, i) => {
    const s = states[i];
    if (typeof s === 'string') throw new Error(`${p.name}: ${s}`);
    const ampUpdating = s.kind === 'balancerStable' && timestamp < s.amp.endTime;
    const expected = balancerRecord(
      s,
      { dex: 'balancer', vault: bal.contracts.vault, factory: p.factory, timestamp, ampUpdating },
      s.kind === 'balancerStable' ? ampAt(s.amp, timestamp) : undefined,
    );
    const got = seeded.find((x) => x.address === p.poolId.toLowerCase());
    t.same(got, expected, `${p.name}: the seeded record`);
    t.equal(balancerV2.checkSnapshot(got!), undefined, `${p.name}: passes checkSnapshot`);
  });
  const rated = seeded.filter((p) => balancerV2.rereadEachBlock!(p)).map((p) => p.address);
  const expectRated = bal.pools.filter((p) => p.rateProviders.some((r) => r !== zeroAddress) || p.name === 'USDC-USDT-DAI');
  t.same(
    rated.sort(),
    expectRated.map((p) => p.poolId.toLowerCase()).sort(),
    'the rate-provided and the ramping pool are re-read each block',
  );
});

/** BalancerQueries.querySwap at the snapshot's block (undefined: it reverts). */
async function querySwap(
  poolId: Hex,
  assetIn: string,
  assetOut: string,
  tradeType: TradeType,
  amount: bigint,
): Promise<bigint | undefined> {
  const data = encodeFunctionData({
    abi: QUERIES_ABI,
    functionName: 'querySwap',
    args: [
      { poolId, kind: tradeType === 'exactIn' ? 0 : 1, assetIn: assetIn as Address, assetOut: assetOut as Address, amount, userData: '0x' },
      { sender: zeroAddress, fromInternalBalance: false, recipient: zeroAddress, toInternalBalance: false },
    ],
  });
  try {
    const { data: ret } = await client.call({ to: bal.contracts.balancerQueries, data, blockNumber: block });
    return decodeFunctionResult({ abi: QUERIES_ABI, functionName: 'querySwap', data: ret as Hex }) as bigint;
  } catch {
    return undefined;
  }
}

const graph = new PoolGraph([snapshot], catalog);
const index = pricingGraphOf(graph, catalog).chain(chain.chainId)!;

t.test('route pricing through each pair view equals querySwap to the wei', async (t) => {
  let cases = 0;
  for (const p of seeded) {
    const traded = tradeableIndices(p);
    for (const i of traded)
      for (const j of traded) {
        if (i === j) continue;
        const [tokenIn, tokenOut] = [p.tokens[i], p.tokens[j]];
        const paths = findRoutes(index, tokenIn, tokenOut, { maxHops: 1, allow: (e) => e.address === p.address });
        t.equal(paths.length, 1, `${p.address.slice(0, 10)} ${tokenIn.slice(0, 8)}->${tokenOut.slice(0, 8)}: one path`);
        const priced = toPricedPath(index, paths[0])!;
        for (const tradeType of ['exactIn', 'exactOut'] as const) {
          const balance = BigInt(p.balances[tradeType === 'exactIn' ? i : j]);
          const amounts = [balance / 10n ** 7n, balance / 1000n, balance / 20n, balance / 5n].filter((a) => a > 0n);
          const quotes = pricePath(priced, tradeType, amounts);
          for (const [k, amount] of amounts.entries()) {
            const q = quotes[k];
            const oracle = await querySwap(p.address as Hex, tokenIn, tokenOut, tradeType, amount);
            const ours = q.ok ? (tradeType === 'exactIn' ? q.legs[0].amountOut : q.legs[0].amountIn) : undefined;
            t.equal(ours, oracle, `${p.poolKind} ${tradeType} ${amount}: ${ours} = querySwap ${oracle}`);
            if (q.ok) t.match(q.legs[0], { pool: p.address, version: 'balancerV2', dex: 'balancer', kind: p.poolKind });
            cases++;
          }
        }
      }
  }
  t.ok(cases >= 80, `${cases} cases`);
});

t.test('two pair views of one pool are one pool in a path', async (t) => {
  const usdc = chain.tokens.find((x) => x.symbol === 'USDC')!.address.toLowerCase();
  const dai = chain.tokens.find((x) => x.symbol === 'DAI')!.address.toLowerCase();
  const paths = findRoutes(index, usdc, dai, { maxHops: 3, allow: (e) => e.version === 'balancerV2', maxRoutes: 100 });
  t.ok(paths.length >= 2, `${paths.length} Balancer paths USDC -> DAI`);
  for (const path of paths) {
    const ids = path.pools.map((e) => e.address);
    t.equal(new Set(ids).size, ids.length, `${ids.map((a) => a.slice(0, 10)).join(' > ')}: no pool twice`);
  }
});

t.test('Balancer-only routes run on the Vault: bestTrade returns them, the best trade takes them where they give more', async (t) => {
  const usdc = chain.tokens.find((x) => x.symbol === 'USDC')!.address.toLowerCase();
  const dai = chain.tokens.find((x) => x.symbol === 'DAI')!.address.toLowerCase();
  const request = {
    tokenIn: usdc,
    tokenOut: dai,
    tradeType: 'exactIn' as const,
    amount: 10n ** 9n,
    maxHops: 2,
    maxSplits: 3,
    gasPriceWei: 0n,
  };
  const balancerOnly = bestTrade(index, { ...request, allow: (e) => e.version === 'balancerV2' });
  t.ok(balancerOnly.ok, 'a route through the Balancer pools alone');
  if (!balancerOnly.ok) return;
  const legs = balancerOnly.trade.splits.flatMap((s) => s.route.legs);
  t.ok(legs.length > 0 && legs.every((l) => l.version === 'balancerV2'), 'every leg is Balancer');
  t.ok(
    balancerOnly.trade.splits.every((s) => s.route.executor.kind === 'BalancerVault'),
    'each route is run by the Vault',
  );
  // A path mixing Balancer and Uniswap pools has no single executor (the Vault runs Balancer pools only): it runs as
  // stages, exact input only.
  const uni = chain.tokens.find((x) => x.symbol === 'UNI')!.address.toLowerCase();
  const mixed = {
    ...request,
    tokenIn: uni,
    tokenOut: usdc,
    amount: 10n ** 21n,
    maxHops: 3,
    maxSplits: 1,
    handoverSlippageBps: 50,
    allow: () => true,
  };
  const staged = bestTrade(index, mixed);
  t.strictSame(
    staged.ok && staged.trade.splits.map((s) => s.route.stages?.map((x) => [x.executor.kind, x.legs])),
    [
      [
        ['BalancerVault', 1],
        ['SwapRouter02', 1],
      ],
    ],
    'UNI -> USDC: the Vault, then SwapRouter02',
  );
  t.strictSame(bestTrade(index, { ...mixed, tradeType: 'exactOut' }), { ok: false, code: 'NO_EXACT_OUTPUT_ROUTE' }, 'no exact output');
  t.same(
    executorsFor(chain, [
      { dex: 'balancer', version: 'balancerV2' },
      { dex: 'uniswap', version: 'v3' },
    ]),
    [],
    'mixed path: no executor',
  );
  // Per pair: the best trade over all pools gives at least the Balancer-only and the Uniswap-only trades, takes
  // Balancer legs where Balancer alone gives more than Uniswap alone, and never mixes the two in one route.
  let balancerBest = 0;
  for (const [from, to, amount] of [
    ['USDC', 'DAI', 10n ** 9n],
    ['WBTC', 'USDC', 5n * 10n ** 6n],
    ['USDC', 'USDT', 10n ** 10n],
    ['UNI', 'WETH', 10n ** 20n],
  ] as const) {
    const pair = {
      ...request,
      tokenIn: chain.tokens.find((x) => x.symbol === from)!.address.toLowerCase(),
      tokenOut: chain.tokens.find((x) => x.symbol === to)!.address.toLowerCase(),
      amount,
    };
    const b = bestTrade(index, { ...pair, allow: (e) => e.version === 'balancerV2' });
    const u = bestTrade(index, { ...pair, allow: (e) => e.version !== 'balancerV2' });
    const all = bestTrade(index, { ...pair, allow: () => true });
    t.ok(b.ok && all.ok, `${from} -> ${to}: a Balancer-only trade and a trade over all pools`);
    if (!b.ok || !all.ok) continue;
    const uniswapOut = u.ok ? u.trade.amountOut : 0n;
    const best = b.trade.amountOut > uniswapOut ? b.trade.amountOut : uniswapOut;
    t.ok(
      all.trade.amountOut >= best,
      `${from} -> ${to}: all ${all.trade.amountOut} >= Balancer ${b.trade.amountOut}, Uniswap ${uniswapOut}`,
    );
    const legs = all.trade.splits.flatMap((s) => s.route.legs);
    if (b.trade.amountOut > uniswapOut) {
      balancerBest++;
      t.ok(
        legs.some((l) => l.version === 'balancerV2'),
        `${from} -> ${to}: Balancer gives more, the best trade goes through it`,
      );
    }
    for (const split of all.trade.splits)
      t.equal(new Set(split.route.legs.map((l) => l.version === 'balancerV2')).size, 1, `${from} -> ${to}: no route mixes them`);
  }
  t.ok(balancerBest >= 1, `${balancerBest} pairs where Balancer gives more than Uniswap`);
});

t.test('POST /quotes through Balancer pools on the devnet: exact amounts on chain, steps sent as returned', async (t) => {
  // Past the stable pool's amplification ramp (two days from deployment): a quote priced at the snapshot's block and
  // its swap in a later block then see the same amplification.
  await jsonRpc(devnet.rpcUrl, 'evm_increaseTime', [3 * 86_400]);
  await jsonRpc(devnet.rpcUrl, 'evm_mine', []);
  const catalogDir = join(ROOT, 'catalog');
  const quoteDir = mkdtempSync(join(tmpdir(), 'balancer-quotes-'));
  t.teardown(() => rmSync(quoteDir, { recursive: true, force: true }));
  const reseed = () =>
    seedChains({
      chains: [chain],
      rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
      snapshotDir: quoteDir,
      write: true,
      progress: 'none',
      log: () => {},
    });
  await reseed();
  // The service's clock is the chain's (three days ahead of the host's here): the steps' deadline is the chain's time.
  let chainNow = 0;
  const q = buildQuoteTestApp({ catalogDir, snapshotDir: quoteDir, env: { RPC_URL_31337: devnet.rpcUrl }, now: () => chainNow });
  t.teardown(() => q.close());
  const AUTH = { authorization: `Bearer ${(await q.keys.create('balancer')).key}` };
  const sender = privateKeyToAccount(devnet.accounts[3].privateKey);
  const symbol = (s: string) => chain.tokens.find((x) => x.symbol === s)!;
  const VAULT_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.Vault);
  const internal = async (owner: Address): Promise<bigint[]> =>
    (await client.readContract({
      address: bal.contracts.vault,
      abi: VAULT_ABI,
      functionName: 'getInternalBalance',
      args: [owner, [...new Set(bal.pools.flatMap((p) => p.tokens))]],
    })) as bigint[];
  const cases = [
    { pool: '50WBTC-50USDC', from: 'WBTC', to: 'USDC', tradeType: 'exactIn', amount: '0.05' },
    { pool: '50WBTC-50USDC', from: 'USDC', to: 'WBTC', tradeType: 'exactOut', amount: '0.02' },
    { pool: 'USDC-USDT-DAI', from: 'USDC', to: 'DAI', tradeType: 'exactIn', amount: '1234.5' },
    { pool: 'USDC-USDT-DAI', from: 'USDC', to: 'USDT', tradeType: 'exactOut', amount: '777' },
    // DAI is worth more in the rate-provided pool (its provider's rate above 1): of the two stable pools, the quote takes it.
    { pool: 'USDT-rDAI', from: 'DAI', to: 'USDT', tradeType: 'exactOut', amount: '777' },
    // Splits across the Balancer pool and the Uniswap pools of one pair: a Vault step and a Uniswap router step, each
    // with its own approval and its share of the minimum (the chain is the oracle: exact balances after the steps).
    { pool: undefined, from: 'USDC', to: 'DAI', tradeType: 'exactIn', amount: '300000' },
    { pool: undefined, from: 'USDC', to: 'DAI', tradeType: 'exactOut', amount: '300000' },
    // A path no single router runs: UNI -> WETH on the Balancer 80/20 pool (the Vault), then WETH -> USDC on Uniswap
    // (its router), two steps in one trade, the second spending the first's minimum at the request's slippage.
    { pool: undefined, from: 'UNI', to: 'USDC', tradeType: 'exactIn', amount: '1000', staged: ['Balancer V2 Vault', 'Uniswap V3 router'] },
    // Native ends of a path of stages: ETH in, wrapped by the Uniswap router that runs the first stage (the step's
    // value is the amount), the Vault then swaps the token handed over for USDT; DAI in on the Vault, then the Uniswap
    // router's stage unwraps its WETH to the recipient as ETH.
    { pool: undefined, from: 'ETH', to: 'USDT', tradeType: 'exactIn', amount: '10', staged: ['Uniswap V3 router', 'Balancer V2 Vault'] },
    { pool: undefined, from: 'DAI', to: 'ETH', tradeType: 'exactIn', amount: '1000', staged: ['Balancer V2 Vault', 'Uniswap V3 router'] },
    // Paths of stages as parts of a split (found on this state): beside routes of one call, each its own steps, its
    // last step enforcing its share of the quote's minimum; ETH in, ETH out and ERC-20 ends.
    { pool: undefined, from: 'ETH', to: 'USDT', tradeType: 'exactIn', amount: '1000', stagedSplit: true },
    { pool: undefined, from: 'DAI', to: 'ETH', tradeType: 'exactIn', amount: '1000000', stagedSplit: true },
    { pool: undefined, from: 'WBTC', to: 'DAI', tradeType: 'exactIn', amount: '10', stagedSplit: true },
  ] as const;
  /**
   * What the routers a quote's steps call hold: ETH, and (the Vault aside: it holds its pools' tokens, and what it
   * keeps for the sender is its internal balance, checked apart) every token along the quote's paths.
   */
  const heldBy = (routers: readonly string[], quote: Quote) => async (): Promise<bigint[]> => {
    const tokens = [...new Set(quote.paths!.flatMap((p) => p.hops.flatMap((h) => [h.tokenIn, h.tokenOut])))];
    const vault = (r: string) => r.toLowerCase() === bal.contracts.vault.toLowerCase();
    return Promise.all(
      routers.flatMap((r) => [NATIVE_TOKEN_ADDRESS, ...(vault(r) ? [] : tokens)].map((x) => wallet.balanceOf(x, r as Address))),
    );
  };
  // Each case on the state the test started from (the split and staged cases are found on it).
  let start = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot', []);
  for (const c of cases) {
    await jsonRpc(devnet.rpcUrl, 'evm_revert', [start]);
    start = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot', []);
    const staged = 'staged' in c ? c.staged : undefined;
    const stagedSplit = 'stagedSplit' in c;
    // The snapshot as the chain is now.
    await reseed();
    q.reload();
    chainNow = Number((await client.getBlock()).timestamp) * 1000;
    const tokenIn = symbol(c.from);
    const tokenOut = symbol(c.to);
    const recipient = freshAddress(`balancer quote ${c.pool} ${c.from} ${c.to} ${c.tradeType}`);
    const res = await q.request<Answer<Quote>>('POST', '/quotes', {
      body: {
        originChainId: 31337,
        destinationChainId: 31337,
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        amount: c.amount,
        tradeType: c.tradeType,
        recipientAddress: recipient,
        sender: sender.address,
        maxHops: 1,
        ...(c.pool ? { maxSplits: 1, excludeDexes: ['uniswap', 'sushiswap'] } : { maxSplits: 3 }),
        ...(staged ? { maxHops: 3, maxSplits: 1, slippageBps: 100 } : {}),
        ...(stagedSplit ? { maxHops: 3, maxSplits: 3, slippageBps: 100 } : {}),
      },
      headers: AUTH,
    });
    t.equal(res.status, 200, `${c.pool} ${c.tradeType}: ${res.status === 200 ? 'quoted' : JSON.stringify(res.body)}`);
    if (res.status !== 200) continue;
    const quote = res.body.data as Quote;
    const amountIn = BigInt(quote.amountIn);
    const amountOut = BigInt(quote.amountOut);
    const given = parseUnits(c.amount, (c.tradeType === 'exactIn' ? tokenIn : tokenOut).decimals);
    t.equal(c.tradeType === 'exactIn' ? amountIn : amountOut, given, 'the amount asked');
    const swaps = quote.steps.filter((s) => s.spender === undefined);
    const routers = [...new Set(swaps.map((s) => s.to))];
    const path = quote.paths![0];
    const stages = path.stages ?? [];
    const minimum = BigInt(quote.amountOutMinimum);
    // Every path of stages: each step spends the one before's minimum; the last one's minimum is the path's share of
    // the quote's (the whole of it for a path alone: floor(minimum x path output / amountOut), the rounding's few wei to
    // the largest).
    for (const [k, p] of quote.paths!.entries()) {
      if (!p.stages) continue;
      t.equal(
        p.stages.reduce((n, s) => n + s.hops, 0),
        p.hops.filter((h) => h.dex !== 'wrap').length,
        `staged path ${k}: the stages take every hop`,
      );
      for (const [i, s] of p.stages.entries()) {
        const next = p.stages[i + 1];
        if (!next) {
          const share = (minimum * BigInt(p.amountOut)) / amountOut;
          const least = BigInt(s.amountOutMinimum);
          t.ok(
            least >= share && least - share < BigInt(quote.paths!.length),
            `staged path ${k}: the last step's minimum ${least} is its share of the quote's (${share})`,
          );
          if (quote.paths!.length === 1) t.equal(least, minimum, "staged: the last step's minimum is the quote's");
          continue;
        }
        t.equal(BigInt(s.amountOutMinimum), (BigInt(s.amountOut) * 9_900n) / 10_000n, `staged path ${k}: step ${i} keeps to 1% slippage`);
        t.equal(
          BigInt(s.kept),
          BigInt(s.amountOut) - BigInt(s.amountOutMinimum),
          `staged path ${k}: the wallet keeps the rest of step ${i}`,
        );
        t.equal(next.tokenIn, s.tokenOut, `staged path ${k}: step ${i + 1} spends what step ${i} delivers`);
        t.equal(next.amountIn, s.amountOutMinimum, `staged path ${k}: step ${i + 1} spends step ${i}'s minimum`);
      }
    }
    if (stagedSplit) {
      const staging = quote.paths!.filter((p) => p.stages);
      t.ok(
        staging.length >= 1 && quote.paths!.length > staging.length,
        `split ${c.from} -> ${c.to}: ${staging.length} of ${quote.paths!.length} paths in stages`,
      );
      t.ok(swaps.length > staging.reduce((n, p) => n + p.stages!.length, 0), 'split: a swap step per stage, and the other paths their own');
    }
    if (staged) {
      t.strictSame(
        stages.map((s) => [s.name, s.router]),
        staged.map((name, i) => [name, routers[i]]),
        `staged ${c.from} -> ${c.to}: ${staged.join(', then ')}, one swap step each`,
      );
      t.equal(routers.length, staged.length, 'staged: one swap step per stage');
      if (c.from === 'UNI')
        t.strictSame(
          stages.map((s) => [s.hops, s.tokenIn, s.tokenOut]),
          [
            [1, tokenIn.address, symbol('WETH').address],
            [1, symbol('WETH').address, tokenOut.address],
          ],
          'staged: the Vault swaps UNI for WETH, then the Uniswap V3 router WETH for USDC',
        );
      if (c.from === 'UNI') t.equal(path.hops[1].amountIn, stages[0].amountOutMinimum, 'staged: the second hop shows what it spends');
    } else if (!c.pool) {
      const versions = new Set(quote.paths!.flatMap((p) => p.hops.map((h) => h.version)));
      t.ok(versions.has('balancerV2') && versions.size > 1, `${c.tradeType} split: Balancer and Uniswap pools (${[...versions]})`);
      t.ok(
        routers.length >= 2 && routers.some((r) => r.toLowerCase() === bal.contracts.vault.toLowerCase()),
        `${c.tradeType} split: one swap step per executor (${routers.join(', ')})`,
      );
    }
    const held = heldBy(routers, quote);
    const heldBefore = await held();
    const head = (await client.getBlockNumber()) as bigint;
    t.ok(
      quote.steps.every((s) => s.gasLimit !== undefined),
      'every step carries its gasLimit',
    );
    const name = `${c.pool ?? (staged ? 'staged' : stagedSplit ? 'staged split' : 'split')} ${c.from} -> ${c.to} ${c.tradeType}`;
    // What the wallet keeps of each token handed over between stages, over every path.
    const kept = new Map<string, bigint>();
    for (const p of quote.paths!)
      for (const s of p.stages?.slice(0, -1) ?? []) kept.set(s.tokenOut, (kept.get(s.tokenOut) ?? 0n) + BigInt(s.kept));
    const handovers = [...kept].map(([token, k]) => ({ token, kept: k }));
    const handoverBefore = await Promise.all(handovers.map((h) => wallet.balanceOf(h.token, sender.address)));
    await fundAccount(devnet.rpcUrl, sender.address, tokenIn.address as Address, BigInt(quote.amountInMaximum));
    const { receipts, spent, received } = await wallet.sendTrade(sender, quote.steps, {
      tokenIn: tokenIn.address,
      tokenOut: tokenOut.address,
      recipient,
    });
    t.equal(spent, amountIn, `${name}: the sender spent exactly amountIn (gas aside)`);
    t.equal(received, amountOut, `${name}: the recipient received exactly amountOut`);
    t.ok(received >= BigInt(quote.amountOutMinimum), `${name}: at least the quote's minimum`);
    t.equal(
      quote.steps.reduce((v, s) => v + BigInt(s.value ?? 0), 0n),
      tokenIn.address === NATIVE_TOKEN_ADDRESS ? amountIn : 0n,
      `${name}: the steps send amountIn as value exactly when the input is ETH`,
    );
    t.strictSame(await held(), heldBefore, `${name}: no token left with the routers or the Vault`);
    for (const [i, h] of handovers.entries())
      t.equal(
        (await wallet.balanceOf(h.token, sender.address)) - handoverBefore[i],
        h.kept,
        `${name}: the wallet keeps exactly the stages' output of ${h.token} beyond their minimums`,
      );
    const gasUsed = receipts.reduce((g, r) => g + r.gasUsed, 0n);
    t.comment(`${name}: gasEstimate ${quote.gasEstimate}, gasUsed ${gasUsed} over ${receipts.length} steps`);
    t.ok(
      (await internal(sender.address)).every((b) => b === 0n),
      'no internal balance left to the sender',
    );
    t.ok(
      (await internal(recipient)).every((b) => b === 0n),
      'no internal balance left to the recipient',
    );
    if (!c.pool) continue;
    const pool = bal.pools.find((p) => p.name === c.pool)!;
    t.equal(quote.pairAddress, pool.poolId.toLowerCase(), `${c.pool} ${c.tradeType}: through that pool`);
    t.strictSame(routers, [getAddress(bal.contracts.vault)], 'the swap step calls the Vault');
    const onChain = await (async () => {
      const data = encodeFunctionData({
        abi: QUERIES_ABI,
        functionName: 'querySwap',
        args: [
          {
            poolId: pool.poolId,
            kind: c.tradeType === 'exactIn' ? 0 : 1,
            assetIn: tokenIn.address as Address,
            assetOut: tokenOut.address as Address,
            amount: c.tradeType === 'exactIn' ? amountIn : amountOut,
            userData: '0x',
          },
          { sender: zeroAddress, fromInternalBalance: false, recipient: zeroAddress, toInternalBalance: false },
        ],
      });
      const { data: ret } = await client.call({ to: bal.contracts.balancerQueries, data, blockNumber: head });
      return decodeFunctionResult({ abi: QUERIES_ABI, functionName: 'querySwap', data: ret as Hex }) as bigint;
    })();
    t.equal(c.tradeType === 'exactIn' ? amountOut : amountIn, onChain, `${c.pool} ${c.tradeType}: the quote = querySwap`);
  }
});
