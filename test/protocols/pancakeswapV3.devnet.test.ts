// PancakeSwap v3 on the devnet (startDevnet({ pancake: true }): the npm PancakeV3Factory, pool code and periphery,
// pools created through our PoolDeployer), priced and followed by the v3 row of the registry and executed through
// v3-periphery's SwapRouter, against the chain itself:
// - the deployment is PancakeSwap's: the factory's fee tiers, every pool at CREATE2(catalogue deployer, salt,
//   catalogue init code hash) as the factory's getPool says, slot0.feeProtocol a uint32 above 255;
// - seeding (seedChains over a copy of catalog/devnet.json with the PancakeSwap DEX added) finds those pools and
//   reads their state as the pool reports it;
// - quoteLadder equals Pancake's QuoterV2 to the wei (amount, initialized ticks crossed) for exact input and exact
//   output, both directions, every pool (the 2500 tier twice), amounts from dust to ones that cross many ticks;
// - swaps through the SwapRouter emit PancakeSwap's Swap (its own topic, protocol fees non-zero); the live follower
//   (ChainFollower) and the v3 applyEvent over the blocks' logs both give exactly what a fresh seed reads;
// - the protocol fee the Swap event states is the step's fee times slot0.feeProtocol's 16-bit share of the input
//   token, per 10,000 (it does not change amounts: the quotes above include it);
// - bestTrade restricted to PancakeSwap v3, steps built and sent with exactly their gasLimit: the recipient gets
//   exactly amountOut (exact input and exact output), the sender spends exactly amountIn.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import t from 'tap';
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadArtifact } from '../../seeds/devnet/artifacts.ts';
import { PANCAKE_ARTIFACT_PATHS, PANCAKE_FEE_TIERS, pancakeDevnetDex } from '../../seeds/devnet/deployPancakeV3.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { computeSwapStep } from '../../src/amm/swapMath.ts';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/amm/tickMath.ts';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { PoolLog } from '../../src/protocols/logWords.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import { uniswapV3 } from '../../src/protocols/uniswapV3/uniswapV3.ts';
import { PANCAKE_V3_SWAP } from '../../src/protocols/uniswapV3/uniswapV3Events.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { buildTradeSteps } from '../../src/tx/buildTradeSteps.ts';
import { artifactAbi, batchingClient, devnetWallet } from '../helpers/devnetWallet.ts';

const POOL_ABI = artifactAbi(PANCAKE_ARTIFACT_PATHS.PancakeV3Pool);
const FACTORY_ABI = artifactAbi(PANCAKE_ARTIFACT_PATHS.PancakeV3Factory);
const QUOTER_ABI = artifactAbi(PANCAKE_ARTIFACT_PATHS.QuoterV2);
const ROUTER_ABI = artifactAbi(PANCAKE_ARTIFACT_PATHS.SwapRouter);
const ERC20_ABI = parseAbi(['function approve(address spender, uint256 amount) returns (bool)']);

const devnet = await startDevnet({ pancake: true });
t.teardown(() => devnet.stop());
const pancake = devnet.pancake!;
const { client, sendSteps, send, balanceOf } = devnetWallet(devnet);
/** The ladder's quotes are independent reads at one block: asked together, one JSON-RPC batch per 100. */
const batching = batchingClient(devnet);

// A copy of the catalogue whose devnet chain also lists the devnet's PancakeSwap v3.
const catalogDir = mkdtempSync(join(tmpdir(), 'sqs-pancake-catalog-'));
const snapshotDir = mkdtempSync(join(tmpdir(), 'sqs-pancake-snap-'));
t.teardown(() => {
  rmSync(catalogDir, { recursive: true, force: true });
  rmSync(snapshotDir, { recursive: true, force: true });
});
cpSync(join(import.meta.dirname, '..', '..', 'catalog'), catalogDir, { recursive: true });
const devnetFile = join(catalogDir, 'devnet.json');
const raw = JSON.parse(readFileSync(devnetFile, 'utf8')) as { dexes: unknown[] };
raw.dexes.push(pancakeDevnetDex());
writeFileSync(devnetFile, JSON.stringify(raw));
const catalog = loadCatalog(catalogDir);
const chain = catalog.chain(devnet.chainId) as CatalogChain;
const dex = chain.dexes.find((d) => d.slug === 'pancakeswap')!;

async function seedNow(): Promise<Snapshot> {
  const report = await seedChains({
    chains: [chain],
    rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
    snapshotDir,
    write: false,
    progress: 'none',
    log: () => undefined,
  });
  return report.chains[0].snapshot!;
}
const pancakePools = (s: Snapshot): SnapshotPoolV3[] =>
  s.pools
    .filter((p): p is SnapshotPoolV3 => p.dex === 'pancakeswap' && p.version === 'v3')
    .sort((a, b) => (a.address < b.address ? -1 : 1));

const start = await seedNow();

t.test("the deployment is PancakeSwap's: fee tiers, CREATE2 from the catalogue's deployer, uint32 feeProtocol", async (t) => {
  for (const [fee, spacing] of PANCAKE_FEE_TIERS) {
    t.equal(
      await client.readContract({
        address: pancake.contracts.factory,
        abi: FACTORY_ABI,
        functionName: 'feeAmountTickSpacing',
        args: [fee],
      }),
      spacing,
    );
  }
  t.equal(dex.poolInitCodeHash, '0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2', "mainnet's init code hash");
  t.equal(keccak256(loadArtifact(PANCAKE_ARTIFACT_PATHS.PancakeV3Pool).bytecode), dex.poolInitCodeHash);
  for (const p of pancake.pools) {
    const salt = keccak256(
      encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [p.token0, p.token1, p.fee]),
    );
    const computed = getContractAddress({
      opcode: 'CREATE2',
      from: dex.v3PoolDeployerAddress as Address,
      salt,
      bytecodeHash: dex.poolInitCodeHash as Hex,
    });
    const got = await client.readContract({
      address: pancake.contracts.factory,
      abi: FACTORY_ABI,
      functionName: 'getPool',
      args: [p.token0, p.token1, p.fee],
    });
    t.equal(got, computed, `pool ${p.fee} at CREATE2(deployer)`);
    const slot0 = (await client.readContract({ address: computed, abi: POOL_ABI, functionName: 'slot0' })) as readonly unknown[];
    t.equal(slot0[5], p.feeProtocol, 'feeProtocol: two 16-bit shares');
    t.ok(p.feeProtocol > 255, 'does not fit a uint8');
    t.equal(await client.readContract({ address: computed, abi: POOL_ABI, functionName: 'factory' }), pancake.contracts.factory);
  }
});

t.test('seeding finds every PancakeSwap pool and reads its state as the pool reports it', async (t) => {
  const seeded = pancakePools(start);
  t.strictSame(
    seeded.map((p) => [p.address, p.fee, p.tickSpacing]),
    [...pancake.pools].sort((a, b) => (a.address < b.address ? -1 : 1)).map((p) => [p.address, p.fee, p.tickSpacing]),
  );
  for (const p of seeded) {
    const address = p.address as Address;
    const slot0 = (await client.readContract({
      address,
      abi: POOL_ABI,
      functionName: 'slot0',
      blockNumber: BigInt(start.blockNumber),
    })) as readonly unknown[];
    const liquidity = await client.readContract({
      address,
      abi: POOL_ABI,
      functionName: 'liquidity',
      blockNumber: BigInt(start.blockNumber),
    });
    t.strictSame([p.sqrtPriceX96, p.tick, p.liquidity], [String(slot0[0]), slot0[1], String(liquidity)], `${p.fee} ${address}`);
    t.ok(p.ticks.length >= 10, 'several ranges');
  }
});

/** Pancake's QuoterV2 for one amount: [amountIn, amountOut, initializedTicksCrossed], or undefined when it reverts. */
async function quoterSays(
  p: SnapshotPoolV3,
  zeroForOne: boolean,
  tradeType: TradeType,
  amount: bigint,
): Promise<[bigint, bigint, number] | undefined> {
  const [tokenIn, tokenOut] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0];
  const exactIn = tradeType === 'exactIn';
  try {
    const { result } = await batching.simulateContract({
      address: pancake.contracts.quoterV2,
      abi: QUOTER_ABI,
      functionName: exactIn ? 'quoteExactInputSingle' : 'quoteExactOutputSingle',
      args: [
        exactIn
          ? { tokenIn, tokenOut, amountIn: amount, fee: p.fee, sqrtPriceLimitX96: 0n }
          : { tokenIn, tokenOut, amount, fee: p.fee, sqrtPriceLimitX96: 0n },
      ],
      blockNumber: BigInt(start.blockNumber),
    });
    const [quoted, , ticks] = result as readonly [bigint, bigint, number, bigint];
    return exactIn ? [amount, quoted, Number(ticks)] : [quoted, amount, Number(ticks)];
  } catch {
    return undefined;
  }
}

t.test("quoteLadder equals Pancake's QuoterV2 to the wei: both directions, exact input and output, every pool", async (t) => {
  let compared = 0;
  let crossing = 0;
  let tier2500 = 0;
  for (const p of pancakePools(start)) {
    const pool = uniswapV3.fromSnapshot(p);
    for (const zeroForOne of [true, false]) {
      for (const tradeType of ['exactIn', 'exactOut'] as const) {
        // The fixed side's pool balance in fractions, dust to most of it: small swaps stay in one range, large ones cross many.
        const side = BigInt(tradeType === 'exactIn' ? (zeroForOne ? p.balance0 : p.balance1) : zeroForOne ? p.balance1 : p.balance0);
        const amounts = [
          1n,
          ...[10n ** 9n, 10n ** 7n, 10n ** 5n, 10n ** 4n, 10n ** 3n, 200n, 40n, 10n, 4n, 2n].map((d) => side / d),
        ].filter((a, i, all) => a > 0n && (i === 0 || a > all[i - 1]));
        const ours = uniswapV3.quoteLadder(pool, zeroForOne, tradeType, amounts);
        const quoted = await Promise.all(amounts.map((amount) => quoterSays(p, zeroForOne, tradeType, amount)));
        for (const [i, amount] of amounts.entries()) {
          const chain = quoted[i];
          const q = ours[i];
          const label = `${p.fee} ${zeroForOne ? '0->1' : '1->0'} ${tradeType} ${amount}`;
          if (!q.ok) {
            // Refused: beyond the known liquidity (the quoter then fills partly or reverts), never a price we give.
            t.ok(chain === undefined || (tradeType === 'exactOut' ? chain[1] !== amount : true), `${label}: refused (${q.code})`);
            continue;
          }
          t.strictSame([q.amountIn, q.amountOut, q.ticksCrossed], chain, label);
          compared++;
          if (q.ticksCrossed > 0) crossing++;
          if (p.fee === 2500) tier2500++;
        }
      }
    }
  }
  t.ok(compared >= 120, `${compared} amounts compared`);
  t.ok(crossing >= 30, `${crossing} of them cross initialized ticks`);
  t.ok(tier2500 >= 50, `${tier2500} on the 2500 tier`);
});

const trader = privateKeyToAccount(devnet.accounts[3].privateKey);

t.test("PancakeSwap's Swap moves the followed state exactly as a fresh seed reads it", async (t) => {
  const [a, b] = pancakePools(start).filter((p) => p.fee === 2500);
  for (const p of [a, b]) {
    for (const token of [p.token0, p.token1]) {
      await fundAccount(devnet.rpcUrl, trader.address, token as Address, BigInt(p.balance0) + BigInt(p.balance1));
      await send(trader, { to: token as Address, data: encodeApprove(pancake.contracts.swapRouter) });
    }
  }
  // The live follower (src/follow), started on the state before the swaps.
  const follower = new ChainFollower(
    { chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger: pino({ level: 'silent' }), follow: false },
    () => {},
  );
  await follower.start();
  t.teardown(() => follower.stop());
  const from = (await client.getBlockNumber()) + 1n;
  // Both directions on both 2500 pools, exact input and exact output, some crossing ticks.
  const swaps: [SnapshotPoolV3, boolean, 'exactInputSingle' | 'exactOutputSingle', bigint][] = [
    [a, true, 'exactInputSingle', BigInt(a.balance0) / 20n],
    [a, false, 'exactOutputSingle', BigInt(a.balance0) / 8n],
    [b, false, 'exactInputSingle', BigInt(b.balance1) / 5n],
    [b, true, 'exactOutputSingle', BigInt(b.balance1) / 50n],
    [a, false, 'exactInputSingle', BigInt(a.balance1) / 1000n],
  ];
  for (const [p, zeroForOne, functionName, amount] of swaps) {
    const [tokenIn, tokenOut] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0];
    const common = { tokenIn, tokenOut, fee: p.fee, recipient: trader.address, deadline: 2n ** 40n, sqrtPriceLimitX96: 0n };
    const params =
      functionName === 'exactInputSingle'
        ? { ...common, amountIn: amount, amountOutMinimum: 0n }
        : { ...common, amountOut: amount, amountInMaximum: maxUint256 };
    const receipt = await send(trader, { to: pancake.contracts.swapRouter, data: encodeRouter(functionName, params) });
    t.equal(receipt.status, 'success', `${functionName} ${p.fee}`);
  }
  const to = await client.getBlockNumber();
  const logs = (await client.request({
    method: 'eth_getLogs',
    params: [
      { address: [a.address as Address, b.address as Address], fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` },
    ],
  })) as (PoolLog & { address: string })[];
  const swapLogs = logs.filter((l) => l.topics[0] === PANCAKE_V3_SWAP);
  t.equal(swapLogs.length, swaps.length, "every swap emits PancakeSwap's Swap topic");
  t.ok(
    swapLogs.every((l) => BigInt(`0x${l.data.slice(2 + 64 * 5, 2 + 64 * 6)}`) + BigInt(`0x${l.data.slice(2 + 64 * 6)}`) > 0n),
    'with a non-zero protocol fee',
  );
  const followed = new Map(pancakePools(start).map((p) => [p.address.toLowerCase(), p]));
  for (const log of logs) {
    const before = followed.get(log.address.toLowerCase())!;
    const outcome = uniswapV3.applyEvent(before, log, { tickWindowWords: start.tickWindowWords });
    if (!outcome.ok) {
      t.fail(`re-read: ${outcome.reason}`);
      return;
    }
    followed.set(log.address.toLowerCase(), outcome.state);
  }
  await follower.step();
  const seeded = await seedNow();
  t.equal(follower.snapshot().blockNumber, seeded.blockNumber, 'the follower is at the head');
  t.same(pancakePools(follower.snapshot()), pancakePools(seeded), 'the follower holds what a fresh seed reads, every PancakeSwap pool');
  const fresh = pancakePools(seeded);
  for (const p of fresh.filter((x) => x.fee === 2500)) {
    const ours = followed.get(p.address.toLowerCase())!;
    t.not(ours.sqrtPriceX96, pancakePools(start).find((x) => x.address === p.address)!.sqrtPriceX96, 'the price moved');
    t.strictSame(uniswapV3.fileState(ours), uniswapV3.fileState(p), `followed ${p.address} equals a fresh seed`);
  }
});

t.test("the Swap event's protocol fee is the fee times slot0's 16-bit share of the input token, per 10,000", async (t) => {
  const fresh = pancakePools(await seedNow()).filter((p) => p.fee === 2500);
  for (const [p, zeroForOne] of [
    [fresh[0], true],
    [fresh[1], false],
  ] as const) {
    const spec = pancake.pools.find((x) => x.address === p.address)!;
    const share = BigInt(zeroForOne ? spec.feeProtocol & 0xffff : spec.feeProtocol >>> 16);
    const [tokenIn, tokenOut] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0];
    const amountIn = BigInt(zeroForOne ? p.balance0 : p.balance1) / 100_000n;
    // One step of the walk, as long as no initialized tick is reached (checked below by the price the event states).
    const step = computeSwapStep(
      BigInt(p.sqrtPriceX96),
      zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n,
      BigInt(p.liquidity),
      amountIn,
      BigInt(p.fee),
    );
    const params = {
      tokenIn,
      tokenOut,
      fee: p.fee,
      recipient: trader.address,
      deadline: 2n ** 40n,
      amountIn,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n,
    };
    const receipt = await send(trader, { to: pancake.contracts.swapRouter, data: encodeRouter('exactInputSingle', params) });
    const log = receipt.logs.find((l) => l.address.toLowerCase() === p.address.toLowerCase() && l.topics[0] === PANCAKE_V3_SWAP)!;
    const words = Array.from({ length: 7 }, (_, i) => BigInt(`0x${log.data.slice(2 + 64 * i, 66 + 64 * i)}`));
    t.equal(words[2], step.sqrtRatioNextX96, 'one step: the price the walk computes');
    const protocolFee = (step.feeAmount * share) / 10_000n;
    t.ok(protocolFee > 0n);
    t.strictSame([words[5], words[6]], zeroForOne ? [protocolFee, 0n] : [0n, protocolFee], `share ${share} of fee ${step.feeAmount}`);
  }
});

t.test('steps through the SwapRouter deliver exactly amountOut, sent with exactly their gasLimit', async (t) => {
  const sender = privateKeyToAccount(devnet.accounts[4].privateKey);
  const recipient = privateKeyToAccount(devnet.accounts[5].privateKey).address;
  const [weth, usdc, wbtc] = ['WETH', 'USDC', 'WBTC'].map((s) => chain.tokens.find((x) => x.symbol === s)!);
  const cases: [string, typeof weth, typeof weth, TradeType, bigint][] = [
    ['exact input WETH -> USDC', weth, usdc, 'exactIn', 40n * 10n ** 18n],
    ['exact output USDC -> WETH', usdc, weth, 'exactOut', 25n * 10n ** 18n],
    ['exact input WBTC -> USDC (two hops)', wbtc, usdc, 'exactIn', 3n * 10n ** 8n],
  ];
  for (const [name, tokenIn, tokenOut, tradeType, amount] of cases) {
    // Each case prices the state it executes on (the cases before it moved the pools).
    const index = new PricingGraph(new PoolGraph([await seedNow()], catalog), catalog).chain(chain.chainId)!;
    const outcome = bestTrade(index, {
      tokenIn: tokenIn.address.toLowerCase(),
      tokenOut: tokenOut.address.toLowerCase(),
      tradeType,
      amount,
      maxHops: 2,
      maxSplits: 2,
      gasPriceWei: 0n,
      allow: (e) => e.dex === 'pancakeswap',
    });
    if (!outcome.ok) {
      t.fail(`${name}: no trade (${outcome.code})`);
      continue;
    }
    const trade = outcome.trade;
    t.ok(
      trade.splits.every(
        (s) => s.route.legs.every((l) => l.dex === 'pancakeswap') && s.route.executor.address === pancake.contracts.swapRouter,
      ),
      `${name}: PancakeSwap pools through its SwapRouter`,
    );
    await fundAccount(devnet.rpcUrl, sender.address, tokenIn.address as Address, trade.amountIn * 2n);
    const steps = buildTradeSteps({
      chain,
      trade,
      tokenIn,
      tokenOut,
      amountOutMinimum: trade.amountOut,
      ...(tradeType === 'exactOut' ? { amountInMaximum: trade.amountIn } : {}),
      recipient,
      wallet: sender.address,
      deadline: Number((await client.getBlock()).timestamp) + 600,
    });
    const [in0, out0] = [await balanceOf(tokenIn.address, sender.address), await balanceOf(tokenOut.address, recipient)];
    await sendSteps(sender, steps);
    const [in1, out1] = [await balanceOf(tokenIn.address, sender.address), await balanceOf(tokenOut.address, recipient)];
    t.strictSame([in0 - in1, out1 - out0], [trade.amountIn, trade.amountOut], `${name}: spent amountIn, received amountOut`);
  }
});

function encodeFunctionDataOf(abi: Abi, functionName: string, args: readonly unknown[]): Hex {
  return encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
}
function encodeApprove(spender: Address): Hex {
  return encodeFunctionDataOf(ERC20_ABI, 'approve', [spender, maxUint256]);
}
function encodeRouter(functionName: string, params: Record<string, unknown>): Hex {
  return encodeFunctionDataOf(ROUTER_ABI, functionName, [params]);
}
