// The v4 PoolSource on the devnet's Uniswap v4 (startDevnet({ v4: true })): its creation rule finds every pool the
// PoolManager initialised from the Initialize logs (poolId = keccak256(abi.encode(key)) computed here, the key's
// fee, tick spacing and hooks), keeps only pools of catalogued currencies (native ETH as currency 0x0), and its
// state reads (PoolManager extsload through Multicall3, seeding's phases) equal StateView's at the same block:
// slot0, liquidity, every initialized tick's liquidityNet in the window, which fee growth slots are set. The ladder
// priced from the seeded state equals V4Quoter for a few amounts.
import t from 'tap';
import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256, parseAbi, toHex, zeroAddress } from 'viem';
import { V4_ARTIFACT_PATHS } from '../../seeds/devnet/deployUniswapV4.ts';
import { devnetAddresses, MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { multicallBatched } from '../../src/chain/multicallBatched.ts';
import type { PoolLog } from '../../src/protocols/logWords.ts';
import { type PoolToRead, STATE_PHASES } from '../../src/protocols/PoolSource.ts';
import { uniswapV4 } from '../../src/protocols/uniswapV4/uniswapV4.ts';
import type { FollowedPoolV4 } from '../../src/protocols/uniswapV4/uniswapV4Events.ts';
import { uniswapV4Source } from '../../src/protocols/uniswapV4/uniswapV4Source.ts';
import { artifactAbi, devnetWallet } from '../helpers/devnetWallet.ts';
import { readV4State } from '../helpers/v4State.ts';

const WINDOW_WORDS = 16;
const FEE_GROWTH_ABI = parseAbi([
  'function getFeeGrowthGlobals(bytes32 poolId) view returns (uint256, uint256)',
  'function getTickFeeGrowthOutside(bytes32 poolId, int24 tick) view returns (uint256, uint256)',
]);
const ACCRUED_ABI = parseAbi(['function protocolFeesAccrued(address currency) view returns (uint256)']);
const BALANCE_ABI = parseAbi(['function balanceOf(address) view returns (uint256)']);
const V4_QUOTER_ABI = artifactAbi(V4_ARTIFACT_PATHS.V4Quoter);

const devnet = await startDevnet({ v4: true });
t.teardown(() => devnet.stop());
const v4 = devnet.v4!;
const { client } = devnetWallet(devnet);
const block = await client.getBlockNumber();
const pm = v4.contracts.poolManager;

/** A PoolKey's id as v4-core's PoolIdLibrary computes it. */
const poolIdOf = (k: { currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address }): Hex =>
  keccak256(
    encodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
      [k.currency0, k.currency1, k.fee, k.tickSpacing, k.hooks],
    ),
  );

const logs = (await client.request({
  method: 'eth_getLogs',
  params: [{ address: pm, topics: [uniswapV4Source.creationTopic as Hex], fromBlock: '0x0', toBlock: toHex(block) }],
})) as PoolLog[];
const catalogued = new Set([zeroAddress, ...Object.values(devnetAddresses().tokens)].map((a) => a.toLowerCase()));
const created = logs.map((log) => uniswapV4Source.created(log));
const kept: PoolToRead[] = created
  .filter((c) => c !== undefined && catalogued.has(c.token0.toLowerCase()) && catalogued.has(c.token1.toLowerCase()))
  .map((c) => ({ ...c!, dex: 'uniswap', version: 'v4', fee: c!.fee! }));

/** Seeding's phases for the kept pools at `block`, each phase's reads in one multicallBatched. */
async function seed(pools: readonly PoolToRead[]): Promise<FollowedPoolV4[]> {
  const reads = pools.map((p) => uniswapV4Source.readState(p, WINDOW_WORDS));
  for (const phase of STATE_PHASES) {
    const calls = reads.map((r) => r.calls(phase));
    const flat = calls.flat();
    const results =
      flat.length === 0
        ? []
        : await multicallBatched(client, { multicall3: MULTICALL3_ADDRESS, blockNumber: block, batchSize: 200, concurrency: 1 }, flat);
    let k = 0;
    reads.forEach((r, i) => {
      r.take(phase, results.slice(k, k + calls[i].length));
      k += calls[i].length;
    });
  }
  return reads.map((r, i) => {
    const done = r.finish(0n, 0n);
    if (!done.ok) throw new Error(`${pools[i].address}: ${done.reason}`);
    return done.state;
  });
}

t.test('Initialize logs give every initialised pool with its key, catalogued currencies only', async (t) => {
  t.equal(logs.length, v4.pools.length, 'one Initialize log per pool');
  t.ok(
    created.every((c) => c !== undefined),
    'every Initialize log decodes',
  );
  for (const p of v4.pools) {
    const c = created.find((x) => x?.address === poolIdOf(p));
    t.same(
      c && { token0: c.token0, token1: c.token1, fee: c.fee, key: c.key },
      { token0: p.currency0, token1: p.currency1, fee: p.fee, key: { poolManager: pm, tickSpacing: p.tickSpacing, hooks: p.hooks } },
      `pool ${poolIdOf(p)}`,
    );
  }
  t.equal(kept.length, v4.pools.length, 'every devnet v4 currency is catalogued (native ETH as 0x0)');
  t.equal(uniswapV4Source.created({ ...logs[0], data: `${logs[0].data}00` }), undefined, 'a malformed log is no creation');
});

t.test('seeded v4 state equals StateView at the block', async (t) => {
  const states = await seed(kept);
  const held = new Map<string, bigint>();
  for (const [i, s] of states.entries()) {
    const p = v4.pools.find((x) => poolIdOf(x) === kept[i].address)!;
    t.equal(uniswapV4.checkSnapshot(s), undefined, `${s.address}: passes the snapshot checks`);
    const oracle = await readV4State(client, v4.contracts.stateView, pm, p, WINDOW_WORDS, block);
    const { balance0, balance1, feeGrowthGlobalSet, feeGrowthOutsideSet, protocolFeesAccruedSet, grossByTick: _gross, ...rest } = s;
    const { balance0: _0, balance1: _1, ...want } = oracle;
    t.same(rest, want, `${s.address}: state`);
    const sv = { address: v4.contracts.stateView, abi: FEE_GROWTH_ABI, blockNumber: block } as const;
    const [g0, g1] = await client.readContract({ ...sv, functionName: 'getFeeGrowthGlobals', args: [s.address as Hex] });
    t.same(feeGrowthGlobalSet, [g0 !== 0n, g1 !== 0n], `${s.address}: fee growth globals set`);
    const outside: Record<string, number> = {};
    for (const [tick] of s.ticks) {
      const [o0, o1] = await client.readContract({ ...sv, functionName: 'getTickFeeGrowthOutside', args: [s.address as Hex, tick] });
      const set = (o0 !== 0n ? 1 : 0) | (o1 !== 0n ? 2 : 0);
      if (set) outside[tick] = set;
    }
    t.same(feeGrowthOutsideSet, outside, `${s.address}: fee growth outside set`);
    // The PoolManager's per-currency protocolFeesAccrued, through its public getter: recorded only with a protocol fee.
    const accrued = async (c: string): Promise<boolean> =>
      (await client.readContract({
        address: pm,
        abi: ACCRUED_ABI,
        functionName: 'protocolFeesAccrued',
        args: [getAddress(c)],
        blockNumber: block,
      })) !== 0n;
    t.same(
      protocolFeesAccruedSet,
      s.protocolFee === 0 ? undefined : [await accrued(s.token0), await accrued(s.token1)],
      `${s.address}: protocolFeesAccrued recorded (protocol fee ${s.protocolFee})`,
    );
    t.ok(BigInt(balance0) + BigInt(balance1) > 0n, `${s.address}: its liquidity holds tokens`);
    held.set(s.token0, (held.get(s.token0) ?? 0n) + BigInt(balance0));
    held.set(s.token1, (held.get(s.token1) ?? 0n) + BigInt(balance1));
  }
  // Every pool's stated balances together fit in what the PoolManager holds of each currency.
  for (const [currency, sum] of held) {
    const onChain =
      currency === zeroAddress
        ? await client.getBalance({ address: pm, blockNumber: block })
        : await client.readContract({
            address: getAddress(currency),
            abi: BALANCE_ABI,
            functionName: 'balanceOf',
            args: [pm],
            blockNumber: block,
          });
    // Each range's amounts round down, each position's deposit rounded up: a few wei per range apart.
    t.ok(sum > 0n && sum <= onChain && onChain - sum < 1000n, `${currency}: pools state ${sum} of the PoolManager's ${onChain}`);
  }
});

t.test('the ladder from seeded state equals V4Quoter', async (t) => {
  const states = await seed(kept);
  let priced = 0;
  for (const s of states) {
    const pool = uniswapV4.fromSnapshot(s);
    if (pool.refusal !== undefined) continue;
    priced++;
    const key = { currency0: s.token0, currency1: s.token1, fee: s.fee, tickSpacing: s.tickSpacing, hooks: s.hooks };
    for (const zeroForOne of [true, false]) {
      const amounts = [1000n, 10n ** 6n, 10n ** 12n, 10n ** 17n];
      const ladder = uniswapV4.quoteLadder(pool, zeroForOne, 'exactIn', amounts);
      for (const [i, amount] of amounts.entries()) {
        let chain: bigint | undefined;
        try {
          [chain] = (await client.readContract({
            address: v4.contracts.v4Quoter,
            abi: V4_QUOTER_ABI,
            functionName: 'quoteExactInputSingle',
            args: [{ poolKey: key, zeroForOne, exactAmount: amount, hookData: '0x' }],
            blockNumber: block,
          })) as readonly [bigint, bigint];
        } catch {
          chain = undefined;
        }
        const ours = ladder[i];
        const label = `${s.address.slice(0, 10)} ${zeroForOne ? '0->1' : '1->0'} ${amount}`;
        if (chain === undefined || chain === 0n)
          t.notOk(ours.ok, `${label}: V4Quoter ${chain === undefined ? 'reverts' : 'gives 0'}, the ladder refuses`);
        else t.equal(ours.ok ? ours.amountOut : ours.reason, chain, label);
      }
    }
  }
  t.ok(priced >= 4, `${priced} priceable pools`);
});
