// Balancer v2 steps (src/tx/routers/balancerVault.ts) executed on the devnet's real Vault (startDevnet({ balancer: true })):
// each trade is built from Legs whose amounts come from our math (balancerSwap on readBalancerPools' state at the
// block), which must equal BalancerQueries.querySwap / queryBatchSwap run on the step's own decoded arguments; the
// step's calldata decodes with the Vault ABI of @balancer-labs/v2-deployments and re-encodes to the same bytes. Sent
// exactly as built (each with its gasLimit), the steps spend exactly amountIn and deliver exactly amountOut, and leave
// the sender and the recipient no internal balance in the Vault. A price moved by another account beyond the limit
// makes the swap revert with BAL#507 (SWAP_LIMIT) and nothing delivered. The gasUsed of every case is printed (the
// figures of src/protocols/balancer/balancerGas.ts and GAS.call.BalancerVault come from it).
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { type Address, decodeFunctionData, encodeFunctionData, getAddress, type TransactionReceipt } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { BALANCER_ARTIFACT_PATHS, type DevnetBalancerPool } from '../../../seeds/devnet/deployBalancer.ts';
import { fundAccount } from '../../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../../../seeds/devnet/startDevnet.ts';
import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../../src/catalog/loadCatalog.ts';
import { type BalancerPoolState, balancerSwap } from '../../../src/protocols/balancer/balancerState.ts';
import type { TradeType } from '../../../src/protocols/PoolProtocol.ts';
import { GAS, routeGas, transactionGas } from '../../../src/routing/gasModel.ts';
import type { Leg, Route } from '../../../src/routing/Trade.ts';
import { erc20Abi } from '../../../src/tx/abis.ts';
import { buildTradeSteps } from '../../../src/tx/buildTradeSteps.ts';
import type { Step } from '../../../src/tx/Step.ts';
import { readDevnetBalancerPools } from '../../helpers/balancerDevnet.ts';
import { artifactAbi, devnetWallet, freshAddress, gasPaid } from '../../helpers/devnetWallet.ts';
import { executorOf, tokenOf, tradeOf } from '../../helpers/handTrades.ts';

const devnet = await startDevnet({ balancer: true });
t.teardown(() => devnet.stop());
const bal = devnet.balancer!;
const w = devnetWallet(devnet);
const { client } = w;
const rpc = devnet.rpcUrl;
const VAULT_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.Vault);
const QUERIES_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.BalancerQueries);

// Past the stable pool's amplification ramp (two days from deployment): the amounts no longer depend on the block time.
await jsonRpc(rpc, 'evm_increaseTime', [3 * 86_400]);
await jsonRpc(rpc, 'evm_mine', []);

/** The devnet catalogue chain: its Balancer v2 DEX names the devnet's Vault (checked in the first test). */
const chain = loadCatalog(fileURLToPath(new URL('../../../catalog', import.meta.url))).chain(devnet.chainId) as CatalogChain;
const vault = executorOf(chain, 'BalancerVault');

t.test('the executor is the Balancer DEX Vault', async (t) => {
  t.strictSame(vault, { kind: 'BalancerVault', address: bal.contracts.vault, name: 'Balancer V2 Vault' });
});

const poolNamed = (name: string): DevnetBalancerPool => bal.pools.find((p) => p.name === name)!;

/** One hop of a case: a devnet pool and the tokens (catalogue symbols; WETH where the trade's end is ETH). */
interface Hop {
  readonly pool: string;
  readonly from: string;
  readonly to: string;
}

/** Legs priced by our math on the pools' state at `block`: exact input forward from `amount`, exact output backward. */
function legsOf(
  states: readonly BalancerPoolState[],
  hops: readonly Hop[],
  tradeType: TradeType,
  amount: bigint,
  timestamp: bigint,
): Leg[] {
  const priced = hops.map((h) => ({ h, state: states[bal.pools.indexOf(poolNamed(h.pool))], amountIn: 0n, amountOut: 0n }));
  const order = tradeType === 'exactIn' ? priced : [...priced].reverse();
  let a = amount;
  for (const p of order) {
    const i = p.state.tokens.indexOf(tokenOf(chain, p.h.from).address.toLowerCase());
    const o = p.state.tokens.indexOf(tokenOf(chain, p.h.to).address.toLowerCase());
    const b = balancerSwap(p.state, i, o, tradeType, a, timestamp);
    [p.amountIn, p.amountOut] = tradeType === 'exactIn' ? [a, b] : [b, a];
    a = b;
  }
  return priced.map(
    (p): Leg => ({
      pool: p.state.poolId,
      kind: p.state.kind,
      dex: 'balancer',
      version: 'balancerV2',
      fee: Number(p.state.swapFee / 10n ** 12n),
      tokenIn: tokenOf(chain, p.h.from).address.toLowerCase(),
      tokenOut: tokenOf(chain, p.h.to).address.toLowerCase(),
      amountIn: p.amountIn,
      amountOut: p.amountOut,
      ticksCrossed: 0,
      coldSlots: 0,
      movesTick: false,
    }),
  );
}

/** What BalancerQueries says the step's own call swaps (the step decoded with the Vault ABI): [amountIn, amountOut]. */
async function queried(step: Step): Promise<[bigint, bigint]> {
  const { functionName, args } = decodeFunctionData({ abi: VAULT_ABI, data: step.data });
  if (functionName === 'swap') {
    const [single, funds] = args as [{ kind: number; amount: bigint }, unknown];
    const { result } = await client.simulateContract({
      address: bal.contracts.balancerQueries,
      abi: QUERIES_ABI,
      functionName: 'querySwap',
      args: [single, funds],
    });
    const calculated = result as bigint;
    return single.kind === 0 ? [single.amount, calculated] : [calculated, single.amount];
  }
  const [kind, swaps, assets, funds] = args as [number, unknown[], Address[], unknown];
  const { result } = await client.simulateContract({
    address: bal.contracts.balancerQueries,
    abi: QUERIES_ABI,
    functionName: 'queryBatchSwap',
    args: [kind, swaps, assets, funds],
  });
  const deltas = result as bigint[];
  return [deltas.filter((d) => d > 0n).reduce((s, d) => s + d, 0n), -deltas.filter((d) => d < 0n).reduce((s, d) => s + d, 0n)];
}

/** The Vault's internal balances of `owner` in every token of the devnet's pools (all must stay 0). */
async function internalBalances(owner: Address): Promise<bigint[]> {
  const tokens = [...new Set(bal.pools.flatMap((p) => p.tokens))];
  return (await client.readContract({
    address: bal.contracts.vault,
    abi: VAULT_ABI,
    functionName: 'getInternalBalance',
    args: [owner, tokens],
  })) as bigint[];
}

interface Case {
  readonly name: string;
  readonly tradeType: TradeType;
  /** Catalogue symbols of the trade's ends ('ETH' is native). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Display units of tokenIn (exact input) or tokenOut (exact output). */
  readonly amount: bigint;
  readonly hops: readonly Hop[];
  /** A second route taking 2/5 of the amount (a split: both routes in one batchSwap). */
  readonly split?: readonly Hop[];
}

const E = (symbol: string): bigint => 10n ** BigInt(tokenOf(chain, symbol).decimals);
const CASES: Case[] = [];
for (const tradeType of ['exactIn', 'exactOut'] as const) {
  CASES.push(
    {
      name: `weighted 80UNI-20WETH UNI -> WETH ${tradeType}`,
      tradeType,
      tokenIn: 'UNI',
      tokenOut: 'WETH',
      amount: tradeType === 'exactIn' ? 1_000n * E('UNI') : 2n * E('WETH'),
      hops: [{ pool: '80UNI-20WETH', from: 'UNI', to: 'WETH' }],
    },
    {
      name: `weighted 50WBTC-50USDC USDC -> WBTC ${tradeType}`,
      tradeType,
      tokenIn: 'USDC',
      tokenOut: 'WBTC',
      amount: tradeType === 'exactIn' ? 20_000n * E('USDC') : E('WBTC') / 10n,
      hops: [{ pool: '50WBTC-50USDC', from: 'USDC', to: 'WBTC' }],
    },
    {
      name: `stable USDC-USDT-DAI USDT -> DAI ${tradeType}`,
      tradeType,
      tokenIn: 'USDT',
      tokenOut: 'DAI',
      amount: 50_000n * (tradeType === 'exactIn' ? E('USDT') : E('DAI')),
      hops: [{ pool: 'USDC-USDT-DAI', from: 'USDT', to: 'DAI' }],
    },
    {
      name: `stable with a rate provider USDT-rDAI DAI -> USDT ${tradeType}`,
      tradeType,
      tokenIn: 'DAI',
      tokenOut: 'USDT',
      amount: 30_000n * (tradeType === 'exactIn' ? E('DAI') : E('USDT')),
      hops: [{ pool: 'USDT-rDAI', from: 'DAI', to: 'USDT' }],
    },
    {
      name: `batchSwap WBTC -> USDC -> DAI (weighted, stable) ${tradeType}`,
      tradeType,
      tokenIn: 'WBTC',
      tokenOut: 'DAI',
      amount: tradeType === 'exactIn' ? E('WBTC') / 4n : 10_000n * E('DAI'),
      hops: [
        { pool: '50WBTC-50USDC', from: 'WBTC', to: 'USDC' },
        { pool: 'USDC-USDT-DAI', from: 'USDC', to: 'DAI' },
      ],
    },
    {
      name: `split USDT -> DAI over both stable pools (batchSwap) ${tradeType}`,
      tradeType,
      tokenIn: 'USDT',
      tokenOut: 'DAI',
      amount: 40_000n * (tradeType === 'exactIn' ? E('USDT') : E('DAI')),
      hops: [{ pool: 'USDC-USDT-DAI', from: 'USDT', to: 'DAI' }],
      split: [{ pool: 'USDT-rDAI', from: 'USDT', to: 'DAI' }],
    },
    {
      name: `native ETH in: ETH -> UNI ${tradeType}`,
      tradeType,
      tokenIn: 'ETH',
      tokenOut: 'UNI',
      amount: tradeType === 'exactIn' ? E('WETH') : 500n * E('UNI'),
      hops: [{ pool: '80UNI-20WETH', from: 'WETH', to: 'UNI' }],
    },
    {
      name: `native ETH out: UNI -> ETH ${tradeType}`,
      tradeType,
      tokenIn: 'UNI',
      tokenOut: 'ETH',
      amount: tradeType === 'exactIn' ? 800n * E('UNI') : E('WETH') / 2n,
      hops: [{ pool: '80UNI-20WETH', from: 'UNI', to: 'WETH' }],
    },
  );
}

const sender = privateKeyToAccount(devnet.accounts[1].privateKey);
const mover = privateKeyToAccount(devnet.accounts[2].privateKey);
let deadlineBase = 0n;

/** A case's trade priced at the latest block and its steps (slippage 0: minimum = amountOut, maximum = amountIn). */
async function build(c: Case, recipient: Address, account: PrivateKeyAccount = sender) {
  const block = await client.getBlock();
  deadlineBase = block.timestamp;
  const states = await readDevnetBalancerPools(client, bal, block.number);
  const tokenIn = tokenOf(chain, c.tokenIn);
  const tokenOut = tokenOf(chain, c.tokenOut);
  const second = c.split ? (c.amount * 2n) / 5n : 0n;
  const parts: [readonly Hop[], bigint][] = [
    [c.hops, c.amount - second],
    ...(c.split ? [[c.split, second] as [readonly Hop[], bigint]] : []),
  ];
  const routes = parts.map(([hops, amount]): Route => {
    const legs = legsOf(states, hops, c.tradeType, amount, block.timestamp);
    return {
      legs,
      amountIn: legs[0].amountIn,
      amountOut: legs[legs.length - 1].amountOut,
      executor: vault,
      gas: routeGas(legs, c.tradeType),
    };
  });
  const trade = tradeOf(routes, c.tradeType, { in: c.tokenIn === 'ETH', out: c.tokenOut === 'ETH' });
  const steps = buildTradeSteps({
    chain,
    trade,
    tokenIn,
    tokenOut,
    amountOutMinimum: trade.amountOut,
    ...(c.tradeType === 'exactOut' ? { amountInMaximum: trade.amountIn } : {}),
    recipient,
    wallet: account.address,
    deadline: Number(block.timestamp) + 3_600,
  });
  return { trade, steps, tokenIn, tokenOut };
}

async function fund(token: CatalogToken, account: Address, amount: bigint): Promise<void> {
  if (token.address !== NATIVE_TOKEN_ADDRESS) await fundAccount(rpc, account, token.address as Address, amount);
}

/** gasUsed of each case's swap step, first and second run, for the table printed at the end. */
const gasTable: string[] = [];

for (const c of CASES) {
  t.test(c.name, async (t) => {
    for (const run of ['first', 'later'] as const) {
      const recipient = freshAddress(`balancer ${c.name} ${run}`);
      const { trade, steps, tokenIn, tokenOut } = await build(c, recipient);
      const swap = steps[steps.length - 1];
      // Decodes with the Vault's own ABI and re-encodes to the same bytes.
      const decoded = decodeFunctionData({ abi: VAULT_ABI, data: swap.data });
      t.equal(encodeFunctionData({ abi: VAULT_ABI, functionName: decoded.functionName, args: decoded.args }), swap.data, 're-encodes');
      t.equal(decoded.functionName, c.hops.length === 1 && !c.split ? 'swap' : 'batchSwap');
      t.strictSame(await queried(swap), [trade.amountIn, trade.amountOut], 'our math equals BalancerQueries on the step');
      t.strictSame(
        steps.map((s) => [s.to, s.amount, s.value]),
        [
          ...(c.tokenIn === 'ETH' ? [] : [[getAddress(tokenIn.address), trade.amountIn.toString(), undefined]]),
          [bal.contracts.vault, trade.amountIn.toString(), c.tokenIn === 'ETH' ? trade.amountIn.toString() : undefined],
        ],
      );
      await fund(tokenIn, sender.address, trade.amountIn);
      const [inBefore, outBefore] = await Promise.all([
        w.balanceOf(tokenIn.address, sender.address),
        w.balanceOf(tokenOut.address, recipient),
      ]);
      const receipts = await w.sendSteps(sender, steps);
      const paid = tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid(receipts) : 0n;
      t.equal(inBefore - (await w.balanceOf(tokenIn.address, sender.address)) - paid, trade.amountIn, 'spends exactly amountIn');
      t.equal((await w.balanceOf(tokenOut.address, recipient)) - outBefore, trade.amountOut, 'delivers exactly amountOut');
      t.ok(
        (await internalBalances(sender.address)).every((b) => b === 0n),
        'no internal balance for the sender',
      );
      t.ok(
        (await internalBalances(recipient)).every((b) => b === 0n),
        'no internal balance for the recipient',
      );
      const used = receipts[receipts.length - 1].gasUsed;
      const model = transactionGas(
        'BalancerVault',
        trade.splits.map((x) => x.route.legs),
        c.tokenIn === 'ETH',
        c.tokenOut === 'ETH',
        c.tradeType,
      );
      // The figures' fit (src/protocols/balancer/balancerGas.ts): every shape within ±7.5% of the gas used.
      t.ok(Math.abs(Number(model - used)) <= Number(used) * 0.075, `gasUsed ${used} within 7.5% of the model's ${model}`);
      gasTable.push(
        `${c.name.padEnd(70)} ${run.padEnd(5)} gasUsed ${used} model ${model} (${((Number(model - used) / Number(used)) * 100).toFixed(1)}%)`,
      );
    }
  });
}

t.test('a price moved beyond the limit: BAL#507 and nothing delivered', async (t) => {
  for (const c of CASES.filter((x) => x.hops.length > 1 || x.tokenIn === 'UNI')) {
    const recipient = freshAddress(`balancer moved ${c.name}`);
    const { steps, tokenIn, tokenOut } = await build(c, recipient);
    await fund(tokenIn, sender.address, BigInt(steps[steps.length - 1].amount));
    // Another account trades the same pools the same way first.
    const moved = await build(c, mover.address, mover);
    await fund(moved.tokenIn, mover.address, moved.trade.amountIn);
    await w.sendSteps(mover, moved.steps);
    const before = await w.balanceOf(tokenIn.address, sender.address);
    let receipt: TransactionReceipt | undefined;
    for (const step of steps) receipt = await w.sendStep(sender, step);
    t.equal(receipt!.status, 'reverted', `${c.name}: reverts`);
    const swap = steps[steps.length - 1];
    const reason = await client
      .call({
        account: sender,
        to: swap.to as Address,
        data: swap.data,
        value: swap.value ? BigInt(swap.value) : undefined,
        blockNumber: receipt!.blockNumber - 1n,
      })
      .then(
        () => 'no revert',
        (e: Error) => (/BAL#\d+/.exec(e.message) ?? [e.message])[0],
      );
    t.equal(reason, 'BAL#507', `${c.name}: SWAP_LIMIT`);
    t.equal(await w.balanceOf(tokenOut.address, recipient), 0n, `${c.name}: nothing delivered`);
    const spent = before - (await w.balanceOf(tokenIn.address, sender.address));
    t.equal(spent, tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid([receipt!]) : 0n, `${c.name}: nothing spent but gas`);
  }
});

// The Vault's call apart from its hops: a batchSwap of one hop (hand-encoded with the Vault ABI: the encoder sends one
// hop as swap), whose difference to the two-hop batchSwap above is the other hop's figure.
t.test('gas split: batchSwap of one hop', async (t) => {
  for (const hop of [
    { pool: '50WBTC-50USDC', from: 'WBTC', to: 'USDC', amount: E('WBTC') / 4n },
    { pool: 'USDC-USDT-DAI', from: 'USDC', to: 'DAI', amount: 10_000n * E('USDC') },
  ]) {
    const recipient = freshAddress(`balancer one-hop batch ${hop.pool}`);
    const [tokenIn, tokenOut] = [tokenOf(chain, hop.from), tokenOf(chain, hop.to)];
    await fund(tokenIn, sender.address, hop.amount);
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bal.contracts.vault, hop.amount] });
    await w.send(sender, { to: tokenIn.address as Address, data: approve });
    const block = await client.getBlock();
    const data = encodeFunctionData({
      abi: VAULT_ABI,
      functionName: 'batchSwap',
      args: [
        0,
        [{ poolId: poolNamed(hop.pool).poolId, assetInIndex: 0n, assetOutIndex: 1n, amount: hop.amount, userData: '0x' }],
        [tokenIn.address, tokenOut.address],
        { sender: sender.address, fromInternalBalance: false, recipient, toInternalBalance: false },
        [hop.amount, 0n],
        block.timestamp + 3_600n,
      ],
    });
    const receipt = await w.send(sender, { to: bal.contracts.vault, data }, 1_000_000n);
    t.equal(receipt.status, 'success');
    gasTable.push(`${`batchSwap of one hop ${hop.pool} ${hop.from} -> ${hop.to} exactIn`.padEnd(70)} later gasUsed ${receipt.gasUsed}`);
  }
});

t.test('gas table', async (t) => {
  t.comment(`deadline base ${deadlineBase}; GAS.call.BalancerVault ${GAS.call.BalancerVault}\n${gasTable.join('\n')}`);
  t.pass();
});
