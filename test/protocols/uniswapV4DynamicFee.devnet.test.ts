import { pino } from 'pino';
import t, { type Test } from 'tap';
import { encodeAbiParameters, encodeFunctionData, type Hex, pad, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEVNET_V4_HOOKS, type DevnetV4Pool, devnetOwnerFeeHookAbi, V4_DEPLOYER_INDEX } from '../../seeds/devnet/deployUniswapV4.ts';
import { devnetAccount } from '../../seeds/devnet/devnetAddresses.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { uniswapV4 } from '../../src/protocols/uniswapV4/uniswapV4.ts';
import { applyV4Event, V4_SWAP } from '../../src/protocols/uniswapV4/uniswapV4Events.ts';
import { batchingClient, devnetWallet } from '../helpers/devnetWallet.ts';
import { chainSeeder } from '../helpers/followDevnet.ts';
import { v4QuoterQuote } from '../helpers/v4State.ts';

const devnet = await startDevnet({ v4: true });
t.teardown(() => devnet.stop());
const v4 = devnet.v4!;
const { client, send } = devnetWallet(devnet);
/** The ladders' quotes are independent reads at one block: asked together, one JSON-RPC batch per 100. */
const batching = batchingClient(devnet);
const owner = privateKeyToAccount(devnetAccount(V4_DEPLOYER_INDEX).privateKey);
const pool: DevnetV4Pool = v4.pools.find((p) => p.hooks === DEVNET_V4_HOOKS.ownerFee)!;
const poolId = pool.poolId.toLowerCase();
const hook = DEVNET_V4_HOOKS.ownerFee.toLowerCase();

// The devnet catalogue lists no hook: here its v4 entry lists the owner-fee hook.
const catalog = loadCatalog();
const shipped = catalog.chain(devnet.chainId)!;
const chain: CatalogChain = {
  ...shipped,
  dexes: shipped.dexes.map((d) => (d.version === 'v4' ? { ...d, allowedHooks: [DEVNET_V4_HOOKS.ownerFee] } : d)),
};
const listed = { allowedHooks: new Set([hook]) };
const { snapshotDir, seedNow } = chainSeeder((fn) => t.teardown(fn), devnet.rpcUrl, chain, 'sqs-dynfee-');
const stateIn = (s: Snapshot) => s.pools.find((p) => p.address === poolId) as SnapshotPoolV4;

/** Amounts of a side with `decimals`: 1, 3 and 7 per decade from 10^(decimals-4) to past the pool's liquidity. */
const amountsOf = (decimals: number): bigint[] =>
  Array.from({ length: 9 }, (_, k) => 10n ** BigInt(decimals - 4 + k)).flatMap((d) => [d, 3n * d, 7n * d]);
const DECIMALS: Record<string, number> = {};

/** The ladder on `state` against V4Quoter at `block`, both directions and trade types; returns how many amounts were priced. */
async function quotesMatch(t: Test, state: SnapshotPoolV4, block: bigint, label: string): Promise<number> {
  const priced = uniswapV4.fromSnapshot(state, listed);
  t.equal(priced.refusal, undefined, `${label}: the listed pool is priced`);
  let ok = 0;
  for (const zeroForOne of [true, false]) {
    for (const tradeType of ['exactIn', 'exactOut'] as TradeType[]) {
      const fixed = (tradeType === 'exactIn') === zeroForOne ? pool.currency0 : pool.currency1;
      const amounts = amountsOf(DECIMALS[fixed]);
      const ladder = uniswapV4.quoteLadder(priced, zeroForOne, tradeType, amounts);
      const chainQuotes = await Promise.all(
        amounts.map((amount) => v4QuoterQuote(batching, v4.contracts.v4Quoter, pool, zeroForOne, tradeType, amount, block)),
      );
      for (const [i, amount] of amounts.entries()) {
        const chainQuote = chainQuotes[i];
        const ours = ladder[i];
        const name = `${label} ${zeroForOne ? '0->1' : '1->0'} ${tradeType} ${amount}`;
        if (chainQuote === undefined) t.match(ours, { ok: false, code: 'INSUFFICIENT_LIQUIDITY' }, `${name}: both refuse`);
        else if (tradeType === 'exactIn' && chainQuote.amount === 0n) t.match(ours, { ok: false, code: 'AMOUNT_TOO_SMALL' }, name);
        else {
          t.equal(ours.ok ? (tradeType === 'exactIn' ? ours.amountOut : ours.amountIn) : ours.reason, chainQuote.amount, name);
          ok++;
        }
      }
    }
  }
  return ok;
}

const DECIMALS_ABI = [{ type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] }] as const;
for (const c of [pool.currency0, pool.currency1])
  DECIMALS[c] = await client.readContract({ address: c, abi: DECIMALS_ABI, functionName: 'decimals' });

await seedNow(true);
const follower = new ChainFollower(
  { chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger: pino({ level: 'silent' }), follow: false, undoDepth: 8 },
  () => undefined,
);
await follower.start();
t.teardown(() => follower.stop());

t.test('refused unless listed, and listed only without beforeSwap', async (t) => {
  const state = stateIn(follower.snapshot());
  t.same([state.fee, state.lpFee, state.hooks], [0x800000, 3000, DEVNET_V4_HOOKS.ownerFee], 'seeded: dynamic-fee flag, lpFee 0.3%');
  t.equal(
    uniswapV4.fromSnapshot(state).refusal,
    `v4 pool ${poolId} has a dynamic fee and its hook is not in the chain's allowedHooks`,
    'the shipped devnet catalogue lists no hook: refused',
  );
  const other = v4.pools.find((p) => p.hooks === DEVNET_V4_HOOKS.dynamicFee)!;
  const overriding = follower.snapshot().pools.find((p) => p.address === other.poolId.toLowerCase()) as SnapshotPoolV4;
  t.equal(
    uniswapV4.fromSnapshot(overriding, { allowedHooks: new Set([other.hooks.toLowerCase()]) }).refusal,
    `v4 pool ${overriding.address} has a dynamic fee its hook can override at each swap (beforeSwap)`,
    'DynamicFeesTestHook (beforeSwap) is refused even when listed',
  );
  t.equal(uniswapV4.rereadEachBlock!(state, listed), true, 'the listed pool is re-read at every block');
});

t.test('the ladder equals V4Quoter before and after the owner changes the fee; the follower re-reads it', async (t) => {
  const before = follower.snapshot();
  const priced = await quotesMatch(t, stateIn(before), BigInt(before.blockNumber), 'fee 3000');
  t.ok(priced >= 40, `${priced} amounts priced at fee 3000`);
  const receipt = await send(owner, {
    to: DEVNET_V4_HOOKS.ownerFee,
    data: encodeFunctionData({
      abi: devnetOwnerFeeHookAbi,
      functionName: 'setFee',
      args: [
        { currency0: pool.currency0, currency1: pool.currency1, fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks },
        12_345,
      ],
    }),
  });
  t.equal(receipt.status, 'success', 'the owner sets the fee to 1.2345%');
  t.equal(receipt.logs.length, 0, 'updateDynamicLPFee emits no event');
  await follower.step();
  const live = follower.snapshot();
  const seeded = await seedNow();
  t.equal(live.blockNumber, seeded.blockNumber, 'the follower is at the head');
  t.same(stateIn(live), stateIn(seeded), 'the followed pool equals a fresh seed after a fee change with no event');
  t.same(live.pools, seeded.pools, 'so does every pool');
  t.equal(stateIn(live).lpFee, 12_345, 'the followed lpFee is the new fee');
  const after = await quotesMatch(t, stateIn(live), BigInt(live.blockNumber), 'fee 12345');
  t.ok(after >= 40, `${after} amounts priced at fee 12345`);
});

t.test("a Swap whose fee is not the followed one is a re-read; the followed one's is applied", async (t) => {
  const state = stateIn(follower.snapshot());
  const word = (x: bigint): Hex => pad(`0x${BigInt.asUintN(256, x).toString(16)}`, { size: 32 });
  const swapLog = (fee: number) => ({
    address: v4.contracts.poolManager,
    topics: [V4_SWAP, poolId, pad(zeroAddress, { size: 32 })] as Hex[],
    data: encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'bytes32' }, { type: 'uint24' }],
      [word(-1000n), word(990n), BigInt(state.sqrtPriceX96), BigInt(state.liquidity), word(BigInt(state.tick)), fee],
    ),
  });
  t.same(applyV4Event(state, swapLog(3000), { tickWindowWords: follower.snapshot().tickWindowWords }), {
    ok: false,
    reason: 'swap fee 3000 is not the followed fee 12345',
  });
  t.match(applyV4Event(state, swapLog(12_345), { tickWindowWords: follower.snapshot().tickWindowWords }), { ok: true });
});

t.test('the re-read-each-block pool is read at every block: a new fee in each of consecutive blocks, none with its events', async (t) => {
  const key = { currency0: pool.currency0, currency1: pool.currency1, fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks };
  t.equal(uniswapV4.rereadEachBlock!(stateIn(follower.snapshot()), listed), true, 'the pool is marked');
  for (const fee of [500, 0, 77_777]) {
    const receipt = await send(owner, {
      to: DEVNET_V4_HOOKS.ownerFee,
      data: encodeFunctionData({ abi: devnetOwnerFeeHookAbi, functionName: 'setFee', args: [key, fee] }),
    });
    t.equal(receipt.logs.length, 0, `fee ${fee}: set with no event`);
    await follower.step();
    const live = follower.snapshot();
    t.equal(BigInt(live.blockNumber), receipt.blockNumber, `fee ${fee}: the follower applied that block alone`);
    t.equal(stateIn(live).lpFee, fee, `fee ${fee}: the followed lpFee is the block's`);
  }
  const seeded = await seedNow();
  t.same(follower.snapshot().pools, seeded.pools, 'every pool equals a fresh seed after the three blocks');
});
