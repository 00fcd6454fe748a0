// FOLLOW=true, as operators run it: the service process (`node --import ./src/loader/register.js src/index.ts`) follows a devnet mined on
// demand while other accounts trade. After every block, once the API reports that block, each route of
// POST /quotes/routes (one pool per DEX deployment: priced in the API thread) equals the chain's QuoterV2 /
// Router02.getAmountsOut at that block, and a multi-hop quote (priced by a worker, which received the same block) equals
// MixedRouteQuoterV1 on its path. A quote taken at the head executes right away and
// delivers exactly amountOut. /readyz reports the chain current; /metrics counts the followed blocks.
import t from 'tap';
import { type Address, concatHex, type Hex, numberToHex, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import type { Step } from '../../src/tx/Step.ts';
import { freshAddress } from '../helpers/devnetWallet.ts';
import { startFollowDevnet, startFollowingServer } from '../helpers/followDevnet.ts';

const MIXED_QUOTER_ABI = parseAbi([
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] v3SqrtPriceX96AfterList, uint32[] v3InitializedTicksCrossedList, uint256 v3SwapTicksCrossed)',
]);
const BLOCKS = 6;

const net = await startFollowDevnet((fn) => t.teardown(fn), 29);
const { devnet, chain, trader, token, chainQuote } = net;
const { client, balanceOf, sendSteps } = net.wallet;

const { server, key } = await startFollowingServer((fn) => t.teardown(fn), net, 'follow-embedded');

interface RouteView {
  amountOut: string;
  snapshot: { blockNumber: number };
  paths: { hops: { dex: string; version: string; pool: string; fee: number; tokenIn: string; tokenOut: string }[] }[];
  steps?: Step[];
}

async function post(
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: RouteView[] & RouteView }> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: RouteView[] & RouteView };
  return { status: res.status, data: json.data };
}

const request = (a: string, b: string, amount: string, extra: Record<string, unknown> = {}) => ({
  originChainId: chain.chainId,
  destinationChainId: chain.chainId,
  tokenIn: token(a).address,
  tokenOut: token(b).address,
  amount,
  recipientAddress: freshAddress('follow-embedded'),
  ...extra,
});

/** Polls POST /quotes/routes until the API prices on `block`. */
async function routesAt(block: number, body: Record<string, unknown>): Promise<RouteView[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await post('/quotes/routes', body);
    if (res.status === 200 && res.data[0].snapshot.blockNumber >= block) return res.data;
    if (Date.now() > deadline) throw new Error(`the API did not reach block ${block}: ${JSON.stringify(res.data).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The chain's quote of a multi-hop path at a block (MixedRouteQuoterV1 takes v2 hops as fee 0x800000). */
async function chainPath(hops: RouteView['paths'][number]['hops'], amountIn: bigint, blockNumber: bigint): Promise<bigint> {
  const parts: Hex[] = [hops[0].tokenIn as Hex];
  for (const h of hops) parts.push(numberToHex(h.version === 'v2' ? 0x800000 : h.fee, { size: 3 }), h.tokenOut as Hex);
  const { result } = await client.simulateContract({
    address: devnet.addresses.contracts.mixedRouteQuoterV1 as Address,
    abi: MIXED_QUOTER_ABI,
    functionName: 'quoteExactInput',
    args: [concatHex(parts), amountIn],
    blockNumber,
  });
  return result[0];
}

t.test('after every block of trading, quotes at the head equal the chain at that block', async (t) => {
  const amount = '3.5';
  const amountIn = 3_500_000_000_000_000_000n;
  for (let b = 0; b < BLOCKS; b++) {
    const block = await net.tradeBlock(5);
    const routes = await routesAt(block, request('WETH', 'USDC', amount, { maxHops: 1, maxSplits: 1 }));
    t.equal(routes[0].snapshot.blockNumber, block, `block ${block}: the API prices on the new head`);
    for (const r of routes) {
      const hop = r.paths[0].hops[0];
      t.equal(
        BigInt(r.amountOut),
        await chainQuote(hop, amountIn, BigInt(block)),
        `block ${block}: ${hop.dex} ${hop.version} ${hop.fee} equals the chain`,
      );
    }
    // LINK has only its WETH pool: LINK -> USDC is two hops, searched by a pricing worker on its own replica. Kept to
    // Uniswap's pools, which one router runs in one call and MixedRouteQuoterV1 prices whole: a path that goes on
    // through SushiSwap's or Balancer's pools is executed as stages (Route.stages), its hand-over priced at the first
    // stage's minimum.
    const [twoHop] = await routesAt(block, request('LINK', 'USDC', '40', { maxSplits: 1, excludeDexes: ['sushiswap', 'balancer'] }));
    const hops = twoHop!.paths[0].hops;
    t.ok(hops.length >= 2, `block ${block}: LINK -> USDC through ${hops.length} pools`);
    t.equal(
      BigInt(twoHop!.amountOut),
      await chainPath(hops, 40n * 10n ** 18n, BigInt(block)),
      `block ${block}: the worker-priced multi-hop route equals MixedRouteQuoterV1`,
    );
  }
});

t.test('a quote taken at the head executes right away and delivers exactly amountOut', async (t) => {
  const sender = privateKeyToAccount(devnet.accounts[7].privateKey);
  await trader.rpc('evm_setAutomine', [true]);
  await fundAccount(devnet.rpcUrl, sender.address, token('WETH').address as Address, 10n ** 19n);
  const recipient = freshAddress('follow-embedded-exec');
  const block = Number(await client.getBlockNumber());
  await routesAt(block, request('WETH', 'USDC', '1'));
  const created = await post(
    '/quotes',
    { ...request('WETH', 'USDC', '2.25'), recipientAddress: recipient, walletAddress: sender.address, maxHops: 1, maxSplits: 1 },
    { authorization: `Bearer ${key}` },
  );
  t.equal(created.status, 200, 'quote created');
  t.equal(created.data.snapshot.blockNumber, block, 'priced on the head');
  const before = await balanceOf(token('USDC').address, recipient);
  await sendSteps(sender, created.data.steps!);
  t.equal(
    (await balanceOf(token('USDC').address, recipient)) - before,
    BigInt(created.data.amountOut),
    'the recipient received exactly amountOut',
  );
});

t.test('/readyz reports the followed chain current, /metrics counts its blocks', async (t) => {
  // The last test's transactions mined blocks: the readings below are taken once the API serves the head.
  await routesAt(Number(await client.getBlockNumber()), request('WETH', 'USDC', '1'));
  const ready = await fetch(`${server.url}/readyz`);
  const body = (await ready.json()) as { data: { checks: Record<string, { ok: boolean; detail: string }> } };
  t.equal(ready.status, 200);
  t.ok(body.data.checks.liveState!.ok);
  t.match(
    body.data.checks.liveState!.detail,
    new RegExp(`^chain ${chain.chainId}: block \\d+ of \\d+ \\(0 behind\\), current as of \\d+\\.\\d s ago$`),
  );
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const blocks = Number(new RegExp(`follow_blocks_total\\{chain_id="${chain.chainId}"\\} (\\d+)`).exec(metrics)?.[1]);
  t.ok(blocks >= BLOCKS, `follow_blocks_total counts the followed blocks (${blocks})`);
  t.match(metrics, new RegExp(`follow_lag_blocks\\{chain_id="${chain.chainId}"\\} 0`));
});
