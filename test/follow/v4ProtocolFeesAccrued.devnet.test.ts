// The PoolManager's protocolFeesAccrued is per currency: a swap paying a protocol fee into USDC on the devnet's
// WETH/USDC pool makes it non-zero for every pool of USDC. The followed record (SnapshotPoolV4.protocolFeesAccruedSet)
// must equal a fresh seed after each block, the chain's protocolFeesAccrued(currency) the oracle, including on a pool
// no log of the block names (the native ETH/USDC pool, given a protocol fee here): PoolBook's spread (v4AccruedState.spread);
// and a collectProtocolFees, which emits no event, through the follower's read at every block (v4AccruedState.reread).
import { pino } from 'pino';
import t from 'tap';
import { type Address, encodeFunctionData, maxUint256, parseAbi, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadArtifact } from '../../seeds/devnet/artifacts.ts';
import { V4_DEPLOYER_INDEX, v4DevnetAddresses } from '../../seeds/devnet/deployUniswapV4.ts';
import { devnetAccount, devnetAddresses } from '../../seeds/devnet/devnetAddresses.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/amm/tickMath.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { protocolFeeOf } from '../../src/protocols/uniswapV4/v4Fees.ts';
import { devnetWallet } from '../helpers/devnetWallet.ts';
import { chainSeeder } from '../helpers/followDevnet.ts';

const KEY = 'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }';
const PM = parseAbi([
  KEY,
  'function setProtocolFee(PoolKey key, uint24 newProtocolFee)',
  'function protocolFeesAccrued(address currency) view returns (uint256)',
  'function collectProtocolFees(address recipient, address currency, uint256 amount) returns (uint256)',
]);
const SWAP = parseAbi([
  KEY,
  'struct SwapParams { bool zeroForOne; int256 amountSpecified; uint160 sqrtPriceLimitX96; }',
  'struct TestSettings { bool takeClaims; bool settleUsingBurn; }',
  'function swap(PoolKey key, SwapParams params, TestSettings settings, bytes hookData) payable returns (int256)',
]);
const ERC20 = parseAbi(['function approve(address, uint256) returns (bool)']);

const devnet = await startDevnet({ v4: true });
t.teardown(() => devnet.stop());
const { client, wallet, send } = devnetWallet(devnet);
const { contracts, pools } = v4DevnetAddresses();
const pm = contracts.poolManager;
const usdc = devnetAddresses().tokens.USDC;
const weth = devnetAddresses().tokens.WETH;
const keyOf = ({ currency0, currency1, fee, tickSpacing, hooks }: (typeof pools)[number]) => ({
  currency0,
  currency1,
  fee,
  tickSpacing,
  hooks,
});
const wethPool = pools.find((p) => p.protocolFee !== 0 && [p.currency0, p.currency1].includes(weth))!;
const nativePool = pools.find((p) => p.currency0 === zeroAddress && p.currency1 === usdc && p.hooks === zeroAddress)!;
const controller = privateKeyToAccount(devnetAccount(V4_DEPLOYER_INDEX).privateKey);
const trader = privateKeyToAccount(generatePrivateKey());

t.test('protocolFeesAccrued followed across the pools of a currency equals a fresh seed', async (t) => {
  const catalog = loadCatalog();
  const chain = catalog.chain(devnet.chainId)!;
  const { snapshotDir, seedNow } = chainSeeder((fn) => t.teardown(fn), devnet.rpcUrl, chain, 'sqs-follow-v4-accrued-');
  await seedNow(true);
  const follower = new ChainFollower(
    { chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger: pino({ level: 'silent' }), follow: false, undoDepth: 8 },
    () => undefined,
  );
  await follower.start();
  const accrued = async (currency: Address): Promise<boolean> =>
    (await client.readContract({ address: pm, abi: PM, functionName: 'protocolFeesAccrued', args: [currency] })) !== 0n;
  const followedPool = (id: string): SnapshotPoolV4 =>
    follower.snapshot().pools.find((p) => p.address === id.toLowerCase()) as SnapshotPoolV4;
  const stepAndCompare = async (what: string): Promise<void> => {
    await follower.step();
    const seeded = await seedNow();
    const live = follower.snapshot();
    t.equal(live.blockNumber, seeded.blockNumber, `${what}: the follower is at the head`);
    t.same(live.pools, seeded.pools, `${what}: the followed state equals a fresh seed`);
  };

  const wethUsdcIn = wethPool.currency0 === usdc;
  t.same(
    followedPool(wethPool.poolId).protocolFeesAccruedSet,
    [await accrued(wethPool.currency0), await accrued(wethPool.currency1)],
    'seeded: the WETH/USDC pool records both currencies as the chain has them',
  );
  t.equal(await accrued(usdc), false, 'no protocol fee has accrued in USDC yet');
  t.equal(followedPool(nativePool.poolId).protocolFeesAccruedSet, undefined, 'a pool without a protocol fee records none');

  // The native ETH/USDC pool gets a protocol fee: ProtocolFeeUpdated makes the follower read its currencies' accruals.
  const fee = (300 << 12) | 300;
  const set = await send(controller, {
    to: pm,
    data: encodeFunctionData({ abi: PM, functionName: 'setProtocolFee', args: [keyOf(nativePool), fee] }),
  });
  t.equal(set.status, 'success', 'the controller sets a protocol fee on the native ETH/USDC pool');
  await stepAndCompare('protocol fee turned on');
  t.same(followedPool(nativePool.poolId).protocolFeesAccruedSet, [await accrued(zeroAddress), false], 'its record is read');

  // A swap paying USDC into the WETH/USDC pool: protocolFeesAccrued[USDC] becomes non-zero for the native pool too.
  const swapper = await (async () => {
    const { abi, bytecode } = loadArtifact('@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json');
    const hash = await wallet.deployContract({ account: controller, chain: wallet.chain, abi, bytecode, args: [pm] });
    return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
  })();
  await fundAccount(devnet.rpcUrl, trader.address, NATIVE_TOKEN_ADDRESS, 10n ** 21n);
  await fundAccount(devnet.rpcUrl, trader.address, usdc, 10n ** 12n);
  await send(trader, { to: usdc, data: encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [swapper, maxUint256] }) });
  /** An exact-input swap of `amount` on the WETH/USDC pool through PoolSwapTest. */
  const swapExactIn = (zeroForOne: boolean, amount: bigint) =>
    send(trader, {
      to: swapper,
      data: encodeFunctionData({
        abi: SWAP,
        functionName: 'swap',
        args: [
          keyOf(wethPool),
          { zeroForOne, amountSpecified: -amount, sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n },
          { takeClaims: false, settleUsingBurn: false },
          '0x',
        ],
      }),
    });
  const swap = await swapExactIn(wethUsdcIn, 10n ** 9n);
  t.equal(swap.status, 'success', '1,000 USDC swapped into the WETH/USDC pool');
  t.equal(await accrued(usdc), true, 'the chain: protocolFeesAccrued[USDC] is non-zero');
  await stepAndCompare('a swap accrued a protocol fee in USDC');
  t.equal(
    followedPool(nativePool.poolId).protocolFeesAccruedSet?.[1],
    true,
    'the native ETH/USDC pool, which no log of the block names, records USDC as accrued',
  );

  // WETH in, small amounts: the protocol fee owed is floor(paid x fee / 1e6) per step. Below 1e6 nothing accrues; from
  // 1e6 to 1e6 x (most steps) the event cannot tell (a re-read); each time the chain says what accrued.
  const wethIn = wethPool.currency0 === weth;
  const pips = BigInt(protocolFeeOf(wethPool.protocolFee, wethIn));
  await fundAccount(devnet.rpcUrl, trader.address, weth, 10n ** 20n);
  await send(trader, { to: weth, data: encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [swapper, maxUint256] }) });
  const swapWeth = async (amount: bigint): Promise<void> => {
    const receipt = await swapExactIn(wethIn, amount);
    t.equal(receipt.status, 'success', `${amount} wei of WETH swapped in`);
  };
  const rereadsBefore = follower.metrics.rereads;
  await swapWeth(999_999n / pips);
  t.equal(await accrued(weth), false, 'the chain: paid x fee below 1e6 accrues nothing');
  await stepAndCompare('a swap too small to owe a protocol fee');
  t.equal(follower.metrics.rereads, rereadsBefore, 'known from the event alone (no re-read)');
  await swapWeth(1_500_000n / pips);
  t.equal(await accrued(weth), true, 'the chain: a one-step swap with paid x fee = 1.5e6 accrues one wei');
  await stepAndCompare('a small swap the event cannot tell about');
  t.equal(follower.metrics.rereads, rereadsBefore + 1, 'the pool was re-read');
  t.same(followedPool(wethPool.poolId).protocolFeesAccruedSet, [true, true], 'both WETH/USDC currencies are recorded as accrued');

  // The controller collects every USDC accrued: no event says so; the follower reads the recorded currencies each block.
  const collect = await send(controller, {
    to: pm,
    data: encodeFunctionData({ abi: PM, functionName: 'collectProtocolFees', args: [controller.address, usdc, 0n] }),
  });
  t.equal(collect.status, 'success', 'the controller collects the USDC protocol fees');
  t.equal(await accrued(usdc), false, 'the chain: protocolFeesAccrued[USDC] is zero again');
  await stepAndCompare('protocol fees collected');
  const usdcSide = (p: (typeof pools)[number]): boolean | undefined =>
    followedPool(p.poolId).protocolFeesAccruedSet?.[p.currency0 === usdc ? 0 : 1];
  t.same([usdcSide(wethPool), usdcSide(nativePool)], [false, false], 'both pools record USDC as not accrued');
});
