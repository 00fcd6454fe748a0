// Route optimality against the chain itself: on a fresh devnet with Uniswap v4 and Balancer v2 (seeded into a
// temporary snapshot), every simple path of up to three pools between two tokens — enumerated here by brute force over
// every pool of the snapshot (each Balancer pool once per pair of its tokens, never twice in a path), not by
// src/routing — is priced by the contracts at the snapshot's block: BalancerQueries.queryBatchSwap (Balancer paths, as
// the Vault's batchSwap executes them), QuoterV2.quoteExactInput (v3 paths), the DEX's
// Router02.getAmountsOut (v2 paths), MixedRouteQuoterV1.quoteExactInput (Uniswap v2 + v3 paths, as SwapRouter02
// executes them), V4Quoter.quoteExactInput (v4 paths) and, for a path mixing v4 with Uniswap's v2/v3 (as the
// Universal Router executes it), each hop on chain in turn by its protocol's quoter, fed the previous hop's output.
// Pools with a hook are left out (the devnet's two hooked pools are those the service must refuse).
// With gasPriceWei 0 and one split, bestTrade's output equals the best of them to the wei; with splits it is never
// less, and on a large WETH -> USDC trade strictly more. Balancer pools are the best single path in some cases of each
// trade type, among them a stable pool taking more than 29% of its balance in (as far as the route search's float
// curves of Balancer pools once reached: a bound there must not rule the path out) and, for exact output, a weighted
// pool asked for more than 30% of its balance in (past what an exact input may give it, as far as the exact-output
// curve of the pool runs), and amounts run from a cent to that.
// Exact output likewise: every path a router executes for an exact output (one protocol; v2 pairs of one DEX) is
// priced backwards by QuoterV2.quoteExactOutput (reversed packed path), V4Quoter.quoteExactOutput (v4 paths, through
// the Universal Router) or the DEX's Router02.getAmountsIn; with one
// split bestTrade's amountIn equals the cheapest, with splits it is never more, and on a large output strictly less.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { type Address, encodePacked, type Hex, parseUnits, zeroAddress } from 'viem';
import { BALANCER_ARTIFACT_PATHS } from '../../seeds/devnet/deployBalancer.ts';
import { V4_ARTIFACT_PATHS } from '../../seeds/devnet/deployUniswapV4.ts';
import { devnetAddresses } from '../../seeds/devnet/devnetAddresses.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { CatalogToken } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { tradeableIndices } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { isContractRevert } from '../helpers/contractRevert.ts';
import { artifactAbi, batchingClient } from '../helpers/devnetWallet.ts';

const QUOTER_V2_ABI = artifactAbi('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json');
const MIXED_QUOTER_ABI = artifactAbi(
  '@uniswap/swap-router-contracts/artifacts/contracts/lens/MixedRouteQuoterV1.sol/MixedRouteQuoterV1.json',
);
const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');
const V4_QUOTER_ABI = artifactAbi(V4_ARTIFACT_PATHS.V4Quoter);
const QUERIES_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.BalancerQueries);
/** MixedRouteQuoterV1 marks a v2 hop of a packed path with this fee value (Constants.sol). */
const V2_FLAG = 8388608;

const devnet = await startDevnet({ v4: true, balancer: true });
if (!devnet.v4 || !devnet.balancer) throw new Error('startDevnet({ v4: true, balancer: true }) returned no v4 or Balancer deployment');
const balancerQueries = devnet.balancer.contracts.balancerQueries;
const v4Quoter = devnet.v4.contracts.v4Quoter;
t.teardown(() => devnet.stop());
const snapshotDir = mkdtempSync(join(tmpdir(), 'sqs-optimality-'));
t.teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));
const catalog = loadCatalog(fileURLToPath(new URL('../../catalog', import.meta.url)));
const chain = catalog.chain(devnet.chainId)!;
const report = await seedChains({
  chains: [chain],
  rpcUrls: new Map([[devnet.chainId, devnet.rpcUrl]]),
  snapshotDir,
  progress: 'none',
  log: () => undefined,
});
if (report.chains[0]?.status !== 'seeded') throw new Error('seeding failed');
const [snapshot] = loadSnapshots(snapshotDir).snapshots;
// Every read at the snapshot's block (a stable pool's amplification ramps with the block's timestamp).
const blockNumber = BigInt(snapshot!.blockNumber);
const index = new PricingGraph(new PoolGraph([snapshot!], catalog), catalog).chain(devnet.chainId)!;
// Only reads follow (no transaction): every path of a case is priced by the chain at once, in JSON-RPC batches.
const client = batchingClient(devnet);
const addresses = devnetAddresses();
const token = (symbol: string): CatalogToken => chain.tokens.find((x) => x.symbol === symbol)!;

/** Each pool with the token pairs it trades: a Balancer pool every pair of its tradeable tokens. */
const pairs = snapshot!.pools.map((p): [SnapshotPool, [string, string][]] => {
  if (p.version !== 'balancerV2') return [p, [[p.token0.toLowerCase(), p.token1.toLowerCase()]]];
  const traded = tradeableIndices(p).map((i) => p.tokens[i]);
  return [p, traded.flatMap((x, i) => traded.slice(i + 1).map((y): [string, string] => [x, y]))];
});

/** Every simple path of 1..3 pools from a to b over all pools of the snapshot (brute force). */
function allPaths(a: string, b: string): { pools: SnapshotPool[]; tokens: string[] }[] {
  const out: { pools: SnapshotPool[]; tokens: string[] }[] = [];
  const walk = (at: string, pools: SnapshotPool[], tokens: string[]) => {
    if (at === b) return void out.push({ pools: [...pools], tokens: [...tokens] });
    if (pools.length === 3) return;
    for (const [p, traded] of pairs) {
      if (p.version === 'v4' && p.hooks !== zeroAddress) continue;
      if (pools.includes(p)) continue;
      for (const [x, y] of traded) {
        if (x !== at && y !== at) continue;
        const next = x === at ? y : x;
        if (tokens.includes(next)) continue;
        walk(next, [...pools, p], [...tokens, next]);
      }
    }
  };
  walk(a, [], [a]);
  return out;
}

/** V4Quoter's PathKeys for a v4 path: each hop's other currency (exact input: its output; exact output: its input). */
function v4PathKeys(pools: readonly SnapshotPool[], tokens: readonly string[], exactIn: boolean) {
  return pools.map((p, i) => {
    const v4 = p as SnapshotPoolV4;
    return { intermediateCurrency: tokens[exactIn ? i + 1 : i], fee: v4.fee, tickSpacing: v4.tickSpacing, hooks: v4.hooks, hookData: '0x' };
  });
}

/** V4Quoter's amount for a v4 path: the output of an exact input, or the input of an exact output. */
async function v4Quote(pools: readonly SnapshotPool[], tokens: readonly string[], amount: bigint, exactIn: boolean): Promise<bigint> {
  const { result } = await client.simulateContract({
    address: v4Quoter,
    abi: V4_QUOTER_ABI,
    functionName: exactIn ? 'quoteExactInput' : 'quoteExactOutput',
    args: [{ exactCurrency: tokens[exactIn ? 0 : tokens.length - 1], path: v4PathKeys(pools, tokens, exactIn), exactAmount: amount }],
    gas: 1_000_000_000n,
    blockNumber,
  });
  return (result as readonly [bigint])[0];
}

/**
 * BalancerQueries.queryBatchSwap for a path of Balancer pools, as the Vault's batchSwap runs it: the output of an
 * exact input (GIVEN_IN, hops in order), or the input of an exact output (GIVEN_OUT, hops from the last).
 */
async function balancerQuote(pools: readonly SnapshotPool[], tokens: readonly string[], amount: bigint, exactIn: boolean): Promise<bigint> {
  const hops = pools.map((p, i) => ({
    poolId: p.address as Hex,
    assetInIndex: BigInt(i),
    assetOutIndex: BigInt(i + 1),
    amount: 0n,
    userData: '0x' as Hex,
  }));
  const swaps = exactIn ? hops : hops.reverse();
  swaps[0].amount = amount;
  const { result } = await client.simulateContract({
    address: balancerQueries,
    abi: QUERIES_ABI,
    functionName: 'queryBatchSwap',
    args: [
      exactIn ? 0 : 1,
      swaps,
      tokens,
      { sender: zeroAddress, fromInternalBalance: false, recipient: zeroAddress, toInternalBalance: false },
    ],
    blockNumber,
  });
  const deltas = result as readonly bigint[];
  return exactIn ? -deltas[tokens.length - 1] : deltas[0];
}

/** Deployments whose pools the devnet's Universal Router swaps in one path (its own v4 and Uniswap's v2/v3 factories). */
const UNIVERSAL_ROUTER_KINDS = new Set(['uniswap/v2', 'uniswap/v3', 'uniswap/v4']);

/** One hop's output on chain, by its protocol's quoter: v2 Router02.getAmountsOut, QuoterV2, V4Quoter. */
async function hopOutput(pool: SnapshotPool, tokenIn: string, tokenOut: string, amountIn: bigint): Promise<bigint> {
  if (pool.version === 'v4') return v4Quote([pool], [tokenIn, tokenOut], amountIn, true);
  if (pool.version === 'v2') {
    const dex = chain.dexes.find((d) => d.slug === pool.dex && d.version === 'v2')!;
    const amounts = (await client.readContract({
      address: dex.v2RouterAddress as Address,
      abi: V2_ROUTER_ABI,
      functionName: 'getAmountsOut',
      args: [amountIn, [tokenIn, tokenOut]],
      blockNumber,
    })) as bigint[];
    return amounts[1];
  }
  const { result } = await client.simulateContract({
    address: addresses.contracts.quoterV2,
    abi: QUOTER_V2_ABI,
    functionName: 'quoteExactInput',
    args: [encodePacked(['address', 'uint24', 'address'], [tokenIn as Address, pool.fee, tokenOut as Address]), amountIn],
    gas: 1_000_000_000n,
    blockNumber,
  });
  return (result as readonly [bigint])[0];
}

/** The chain's output for a path, through the contract that prices it; undefined when no single router executes it. */
async function chainOutput(path: { pools: SnapshotPool[]; tokens: string[] }, amountIn: bigint): Promise<bigint | undefined> {
  const kinds = new Set(path.pools.map((p) => `${p.dex}/${p.version}`));
  const tokens = path.tokens as Address[];
  const packed = (fee: (p: SnapshotPool) => number): Hex =>
    encodePacked(
      path.pools.flatMap(() => ['address', 'uint24'] as const).concat('address') as ('address' | 'uint24')[],
      path.pools.flatMap((p, i) => [tokens[i], fee(p)] as const).concat(tokens[tokens.length - 1]) as (Address | number)[],
    );
  try {
    if (path.pools.every((p) => p.version === 'balancerV2')) return await balancerQuote(path.pools, tokens, amountIn, true);
    if (kinds.size === 1 && path.pools[0].version === 'v2') {
      const dex = chain.dexes.find((d) => d.slug === path.pools[0].dex && d.version === 'v2')!;
      const amounts = (await client.readContract({
        address: dex.v2RouterAddress as Address,
        abi: V2_ROUTER_ABI,
        functionName: 'getAmountsOut',
        args: [amountIn, tokens],
        blockNumber,
      })) as bigint[];
      return amounts[amounts.length - 1];
    }
    if (kinds.size === 1 && path.pools[0].version === 'v4') return await v4Quote(path.pools, tokens, amountIn, true);
    if (kinds.size === 1) {
      const { result } = await client.simulateContract({
        address: addresses.contracts.quoterV2,
        abi: QUOTER_V2_ABI,
        functionName: 'quoteExactInput',
        args: [packed((p) => p.fee), amountIn],
        gas: 1_000_000_000n,
        blockNumber,
      });
      return (result as readonly [bigint])[0];
    }
    if ([...kinds].every((k) => k === 'uniswap/v2' || k === 'uniswap/v3')) {
      const { result } = await client.simulateContract({
        address: addresses.contracts.mixedRouteQuoterV1,
        abi: MIXED_QUOTER_ABI,
        functionName: 'quoteExactInput',
        args: [packed((p) => (p.version === 'v2' ? V2_FLAG : p.fee)), amountIn],
        gas: 1_000_000_000n,
        blockNumber,
      });
      return (result as readonly [bigint])[0];
    }
    if ([...kinds].every((k) => UNIVERSAL_ROUTER_KINDS.has(k))) {
      // v4 mixed with Uniswap's v2/v3 (the Universal Router): hop by hop, each fed the previous hop's output.
      let amount = amountIn;
      for (const [i, pool] of path.pools.entries()) {
        amount = await hopOutput(pool, tokens[i], tokens[i + 1], amount);
        if (amount === 0n) return 0n;
      }
      return amount;
    }
  } catch (e) {
    if (isContractRevert(e)) return 0n; // the contract refuses the amount (not enough liquidity on the path)
    throw e;
  }
  return undefined;
}

/**
 * The chain's input for an exact output along a path, through the contract that prices it backwards; undefined when
 * no router executes the path for an exact output (mixed protocols, v2 pairs of two DEXes), null when the contract
 * refuses the amount (the path cannot deliver it).
 */
async function chainInput(path: { pools: SnapshotPool[]; tokens: string[] }, amountOut: bigint): Promise<bigint | null | undefined> {
  const kinds = new Set(path.pools.map((p) => `${p.dex}/${p.version}`));
  if (kinds.size > 1) return undefined;
  const tokens = path.tokens as Address[];
  try {
    if (path.pools[0].version === 'balancerV2') return await balancerQuote(path.pools, tokens, amountOut, false);
    if (path.pools[0].version === 'v2') {
      const dex = chain.dexes.find((d) => d.slug === path.pools[0].dex && d.version === 'v2')!;
      const amounts = (await client.readContract({
        address: dex.v2RouterAddress as Address,
        abi: V2_ROUTER_ABI,
        functionName: 'getAmountsIn',
        args: [amountOut, tokens],
        blockNumber,
      })) as bigint[];
      return amounts[0];
    }
    if (path.pools[0].version === 'v4') return await v4Quote(path.pools, tokens, amountOut, false);
    const reversed = [...tokens].reverse();
    const fees = path.pools.map((p) => p.fee).reverse();
    const packed = encodePacked(
      reversed.flatMap((_, i) => (i === 0 ? ['address'] : ['uint24', 'address'])) as ('address' | 'uint24')[],
      reversed.flatMap((x, i) => (i === 0 ? [x] : [fees[i - 1], x])) as (Address | number)[],
    );
    const { result } = await client.simulateContract({
      address: addresses.contracts.quoterV2,
      abi: QUOTER_V2_ABI,
      functionName: 'quoteExactOutput',
      args: [packed, amountOut],
      gas: 1_000_000_000n,
    });
    return (result as readonly [bigint])[0];
  } catch (e) {
    if (isContractRevert(e)) return null; // the path cannot deliver the amount
    throw e;
  }
}

const EXACT_OUTPUT_CASES: [string, string, string][] = [
  ['WETH', 'USDC', '3000'],
  ['WETH', 'USDC', '3000000'],
  ['USDC', 'WETH', '80'],
  ['WBTC', 'DAI', '100000'],
  ['DAI', 'WBTC', '1.5'],
  ['USDT', 'DAI', '300000'],
  ['LINK', 'USDC', '5000'],
  ['USDC', 'LINK', '1000'],
  ['USDC', 'USDT', '700000'],
  ['AAVE', 'LINK', '100'],
  // Pairs with v4 pools (and v3, v2 beside them).
  ['DAI', 'USDC', '50000'],
  ['DAI', 'USDT', '100000'],
  ['USDT', 'WETH', '5'],
  ['USDC', 'WBTC', '0.5'],
  // Pairs with Balancer pools (and Uniswap pools beside them), up to beyond 29% of the stable pools' balances.
  ['USDC', 'USDT', '0.01'],
  ['USDC', 'USDT', '400000'],
  ['DAI', 'USDC', '350000'],
  ['USDT', 'DAI', '450000'],
  ['WETH', 'UNI', '20000'],
  ['USDC', 'WBTC', '2'],
];

/**
 * Cases whose best single path over the Uniswap pools (by the chain) uses a v4 pool, by trade type: the v4 pools must
 * matter somewhere.
 */
const v4Best = { exactIn: 0, exactOut: 0 };
/**
 * Likewise for Balancer pools, cases where the best path's first pool is a stable pool taking > 29% of its balance in,
 * and exact-output cases where it is a weighted pool asked for more than 30% of its balance in (past what an exact
 * input may give it: the route search's exact-output curve of the pool runs that far, docs/balancer.md).
 */
const balancerBest = { exactIn: 0, exactOut: 0, stableBeyond: 0, weightedBeyond: 0 };

/** Whether a path goes through a Balancer pool. */
const isBalancer = (path: { pools: SnapshotPool[] }) => path.pools.some((p) => p.version === 'balancerV2');

/** Whether a path's first hop is a Balancer pool of `kind` and `amountIn` is more than `percent`% of its balance of the token in. */
function balancerBeyond(
  path: { pools: SnapshotPool[]; tokens: string[] },
  amountIn: bigint,
  kind: 'balancerStable' | 'balancerWeighted',
  percent: bigint,
): boolean {
  const p = path.pools[0];
  if (p.version !== 'balancerV2' || p.poolKind !== kind) return false;
  return amountIn * 100n > percent * BigInt(p.balances[p.tokens.indexOf(path.tokens[0])]);
}
const stableBeyond = (path: { pools: SnapshotPool[]; tokens: string[] }, amountIn: bigint) =>
  balancerBeyond(path, amountIn, 'balancerStable', 29n);

for (const [a, b, amount] of EXACT_OUTPUT_CASES) {
  t.test(`${a} -> exactly ${amount} ${b}: bestTrade against every exact-output path priced by the chain`, async (t) => {
    const tokenIn = token(a);
    const tokenOut = token(b);
    const amountOut = parseUnits(amount, tokenOut.decimals);
    const paths = allPaths(tokenIn.address.toLowerCase(), tokenOut.address.toLowerCase());
    let cheapest: bigint | undefined;
    let cheapestV4 = false;
    let cheapestUniswap: bigint | undefined;
    let cheapestPath: { pools: SnapshotPool[]; tokens: string[] } | undefined;
    let priced = 0;
    const inputs = await Promise.all(paths.map((path) => chainInput(path, amountOut)));
    for (const [i, path] of paths.entries()) {
      const input = inputs[i];
      if (input === undefined) continue;
      priced++;
      if (input !== null && (cheapest === undefined || input < cheapest)) {
        cheapest = input;
        cheapestPath = path;
      }
      // Whether v4 pools matter is asked of the Uniswap pools alone (Balancer's stable pools beat them on some pairs).
      if (input !== null && !isBalancer(path) && (cheapestUniswap === undefined || input < cheapestUniswap)) {
        cheapestUniswap = input;
        cheapestV4 = path.pools.some((p) => p.version === 'v4');
      }
    }
    if (cheapestV4) v4Best.exactOut++;
    if (cheapestPath && isBalancer(cheapestPath)) balancerBest.exactOut++;
    if (cheapestPath && cheapest !== undefined && stableBeyond(cheapestPath, cheapest)) balancerBest.stableBeyond++;
    if (cheapestPath && cheapest !== undefined && balancerBeyond(cheapestPath, cheapest, 'balancerWeighted', 30n))
      balancerBest.weightedBeyond++;
    t.ok(
      priced > 0 && cheapest !== undefined,
      `${priced} of ${paths.length} paths execute an exact output and were priced by the chain; the cheapest asks ${cheapest}`,
    );
    const request = {
      tokenIn: tokenIn.address.toLowerCase(),
      tokenOut: tokenOut.address.toLowerCase(),
      tradeType: 'exactOut' as const,
      amount: amountOut,
      maxHops: 3,
      gasPriceWei: 0n,
      allow: () => true,
    };
    const single = bestTrade(index, { ...request, maxSplits: 1 });
    t.equal(single.ok ? single.trade.amountIn : single.code, cheapest, 'one split: the cheapest path, to the wei');
    t.equal(single.ok ? single.trade.amountOut : 0n, amountOut, 'delivering exactly the amount asked for');
    const split = bestTrade(index, { ...request, maxSplits: 5 });
    t.ok(
      split.ok && split.trade.amountIn <= cheapest! && split.trade.amountOut === amountOut,
      `splits: ${split.ok ? split.trade.amountIn : split.code} <= ${cheapest}, for exactly ${amountOut}`,
    );
    if (amount === '3000000') {
      t.ok(
        split.ok && split.trade.splits.length > 1 && split.trade.amountIn < cheapest!,
        `the large exact output is split and needs less than every single path (${split.ok ? cheapest! - split.trade.amountIn : ''} less)`,
      );
    }
  });
}

const CASES: [string, string, string][] = [
  ['WETH', 'USDC', '1'],
  ['WETH', 'USDC', '1000'],
  ['USDC', 'WETH', '250000'],
  ['WBTC', 'DAI', '2'],
  ['DAI', 'WBTC', '100000'],
  ['USDT', 'DAI', '300000'],
  ['LINK', 'USDC', '5000'],
  ['USDC', 'LINK', '20000'],
  ['AAVE', 'USDC', '200'],
  ['USDT', 'AAVE', '5000'],
  ['AAVE', 'WBTC', '100'],
  ['USDC', 'USDT', '700000'],
  // Pairs with v4 pools (and v3, v2 beside them), several amounts.
  ['DAI', 'USDC', '1000'],
  ['DAI', 'USDC', '150000'],
  ['DAI', 'USDT', '100000'],
  ['USDT', 'WETH', '10000'],
  ['USDT', 'WETH', '300000'],
  ['WBTC', 'USDT', '1'],
  ['LINK', 'USDC', '300'],
  ['WETH', 'USDC', '30'],
  // Pairs with Balancer pools (and Uniswap pools beside them), from a cent to beyond 29% of the stable pools' balances.
  ['USDC', 'USDT', '0.01'],
  ['DAI', 'USDT', '0.01'],
  ['USDC', 'USDT', '5000'],
  ['USDC', 'USDT', '400000'],
  ['USDC', 'DAI', '350000'],
  ['DAI', 'USDC', '600000'],
  ['USDT', 'DAI', '450000'],
  ['UNI', 'WETH', '1000'],
  ['UNI', 'WETH', '30000'],
  ['WETH', 'UNI', '40'],
  ['WBTC', 'USDC', '3'],
  ['USDC', 'WBTC', '150000'],
];

for (const [a, b, amount] of CASES) {
  t.test(`${amount} ${a} -> ${b}: bestTrade against every path priced by the chain`, async (t) => {
    const tokenIn = token(a);
    const tokenOut = token(b);
    const amountIn = parseUnits(amount, tokenIn.decimals);
    const paths = allPaths(tokenIn.address.toLowerCase(), tokenOut.address.toLowerCase());
    let best = 0n;
    let bestV4 = false;
    let bestUniswap = 0n;
    let bestPath: { pools: SnapshotPool[]; tokens: string[] } | undefined;
    let priced = 0;
    const outs = await Promise.all(paths.map((path) => chainOutput(path, amountIn)));
    for (const [i, path] of paths.entries()) {
      const out = outs[i];
      if (out === undefined) continue;
      priced++;
      if (out > best) {
        best = out;
        bestPath = path;
      }
      if (out > bestUniswap && !isBalancer(path)) {
        bestUniswap = out;
        bestV4 = path.pools.some((p) => p.version === 'v4');
      }
    }
    if (bestV4) v4Best.exactIn++;
    if (bestPath && isBalancer(bestPath)) balancerBest.exactIn++;
    if (bestPath && stableBeyond(bestPath, amountIn)) balancerBest.stableBeyond++;
    t.ok(priced > 0 && best > 0n, `${priced} of ${paths.length} paths have a router and were priced by the chain; the best gives ${best}`);
    const request = {
      tokenIn: tokenIn.address.toLowerCase(),
      tokenOut: tokenOut.address.toLowerCase(),
      tradeType: 'exactIn' as const,
      amount: amountIn,
      maxHops: 3,
      gasPriceWei: 0n,
      allow: () => true,
    };
    const single = bestTrade(index, { ...request, maxSplits: 1 });
    t.equal(single.ok ? single.trade.amountOut : 0n, best, 'one split: the best path, to the wei');
    const split = bestTrade(index, { ...request, maxSplits: 5 });
    t.ok(split.ok && split.trade.amountOut >= best, `splits: ${split.ok ? split.trade.amountOut : split.code} >= ${best}`);
    if (a === 'WETH' && amount === '1000') {
      t.ok(
        split.ok && split.trade.splits.length > 1 && split.trade.amountOut > best,
        'the large WETH -> USDC trade is split and beats every single path',
      );
    }
  });
}

t.test('v4 pools are the best single path in some cases of each trade type', async (t) => {
  t.ok(v4Best.exactIn > 0, `exact input: ${v4Best.exactIn} of ${CASES.length} cases`);
  t.ok(v4Best.exactOut > 0, `exact output: ${v4Best.exactOut} of ${EXACT_OUTPUT_CASES.length} cases`);
});

t.test('Balancer pools are the best single path in some cases of each trade type, a stable one beyond 29% of its balance', async (t) => {
  t.ok(balancerBest.exactIn > 0, `exact input: ${balancerBest.exactIn} of ${CASES.length} cases`);
  t.ok(balancerBest.exactOut > 0, `exact output: ${balancerBest.exactOut} of ${EXACT_OUTPUT_CASES.length} cases`);
  t.ok(balancerBest.stableBeyond > 0, `a stable pool taking more than 29% of its balance in: ${balancerBest.stableBeyond} cases`);
  t.ok(
    balancerBest.weightedBeyond > 0,
    `an exact output asking a weighted pool for more than 30% of its balance in: ${balancerBest.weightedBeyond} cases`,
  );
});
