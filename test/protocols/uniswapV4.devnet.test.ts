// Uniswap v4 on the devnet (seeds/devnet/deployUniswapV4.ts) and the service's v4 quote ladder against it. The
// deployment: the published v4-core / v4-periphery / universal-router builds at their deterministic addresses,
// Permit2's runtime code at its canonical address, every planned pool initialised with its fee, spacing, protocol
// fee and liquidity, the rest of the devnet where it was. The ladder: uniswapV4.quoteLadder, on each pool's state
// read through StateView, equals V4Quoter.quoteExactInputSingle / quoteExactOutputSingle to the wei for amounts from
// 1 wei to past the pool's liquidity, both directions, both trade types (spacings 1/10/60/200, fees 0 to 100%, a
// protocol fee that differs per direction); where V4Quoter reverts (NotEnoughLiquidity) the ladder refuses, where it
// answers 0 the ladder says AMOUNT_TOO_SMALL (at a 100% fee, where it answers 0 for every amount: INSUFFICIENT_LIQUIDITY).
// Seeded: V4_LADDER_SEED.
import t from 'tap';
import { type Address, getAddress, type Hex, keccak256, parseAbi, zeroAddress } from 'viem';
import { acrossDevnetAddresses } from '../../seeds/devnet/deployAcross.ts';
import { DEVNET_V4_HOOKS, type DevnetV4Pool } from '../../seeds/devnet/deployUniswapV4.ts';
import { devnetAddresses, ROUTING_DEPLOY_ORDER } from '../../seeds/devnet/devnetAddresses.ts';
import { devnetPermit2Code, PERMIT2_ADDRESS, permit2RuntimeCode } from '../../seeds/devnet/devnetPermit2.ts';
import { DEVNET_V4_POOLS } from '../../seeds/devnet/devnetV4Plan.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { LadderQuote, TradeType } from '../../src/protocols/PoolProtocol.ts';
import { uniswapV4 } from '../../src/protocols/uniswapV4/uniswapV4.ts';
import { MAX_LP_FEE } from '../../src/protocols/uniswapV4/v4Fees.ts';
import { batchingClient, devnetWallet } from '../helpers/devnetWallet.ts';
import { seededRandom } from '../helpers/seededRandom.ts';
import { readV4State, STATE_VIEW_ABI, v4QuoterQuote } from '../helpers/v4State.ts';

const SEED = Number(process.env.V4_LADDER_SEED ?? 20261125);
const DECIMALS_ABI = parseAbi(['function decimals() view returns (uint8)']);
const OWNER_ABI = parseAbi(['function owner() view returns (address)', 'function poolManager() view returns (address)']);
const ROUTER_ABI = parseAbi([
  'function poolManager() view returns (address)',
  'function V4_POSITION_MANAGER() view returns (address)',
  'function SPOKE_POOL() view returns (address)',
]);
/** Bitmap words read each side of the current tick's: past every position of the plan at every spacing. */
const WINDOW_WORDS = 16;

const devnet = await startDevnet({ v4: true });
t.teardown(() => devnet.stop());
if (!devnet.v4) throw new Error('startDevnet({ v4: true }) returned no v4 deployment');
const v4 = devnet.v4;
const { client } = devnetWallet(devnet);
const block = await client.getBlockNumber();

t.test('the v4 contracts are the published builds at their addresses, beside an unchanged devnet', async (t) => {
  const code = async (address: Address): Promise<Hex> => (await client.getCode({ address })) ?? '0x';
  const placed = await code(PERMIT2_ADDRESS);
  t.equal(placed, devnetPermit2Code(), "Permit2's runtime code is DeployPermit2's literal, its cached chain id zeroed");
  const literal = permit2RuntimeCode();
  t.equal(placed.length, literal.length, 'the same length as the literal');
  t.equal(
    [...placed].filter((ch, i) => ch !== literal[i]).length,
    (31337).toString(16).length,
    'it differs from the literal in the cached chain id (0x7a69) only',
  );
  for (const [name, address] of Object.entries(v4.contracts)) t.not(await code(address), '0x', `${name} has code at ${address}`);
  const pm = v4.contracts.poolManager;
  t.equal(await client.readContract({ address: pm, abi: OWNER_ABI, functionName: 'owner' }), v4.deployer, 'PoolManager owner');
  for (const name of ['positionManager', 'stateView', 'v4Quoter'] as const) {
    const got = await client.readContract({ address: v4.contracts[name], abi: OWNER_ABI, functionName: 'poolManager' });
    t.equal(got, pm, `${name}.poolManager()`);
  }
  const ur = v4.contracts.universalRouter;
  t.equal(await client.readContract({ address: ur, abi: ROUTER_ABI, functionName: 'poolManager' }), pm, 'UniversalRouter.poolManager()');
  t.equal(
    await client.readContract({ address: ur, abi: ROUTER_ABI, functionName: 'V4_POSITION_MANAGER' }),
    v4.contracts.positionManager,
    'UniversalRouter.V4_POSITION_MANAGER()',
  );
  t.equal(
    await client.readContract({ address: ur, abi: ROUTER_ABI, functionName: 'SPOKE_POOL' }),
    acrossDevnetAddresses().spokePool,
    "UniversalRouter 2.1's SPOKE_POOL() is the devnet's Across SpokePool",
  );
  // The rest of the devnet deploys first and by other accounts: its contracts are where devnetAddresses says.
  const base = devnetAddresses();
  t.equal(await client.readContract({ address: base.tokens.USDC, abi: DECIMALS_ABI, functionName: 'decimals' }), 6, 'USDC where it was');
  t.not(v4.deployer, base.deployer, 'v4 has a deployer of its own');
  t.equal(
    await client.getTransactionCount({ address: base.deployer }),
    devnet.txCount - ROUTING_DEPLOY_ORDER.length,
    "the devnet deployer's nonce counts the devnet's transactions alone",
  );
});

t.test('every planned v4 pool is initialised with its key, protocol fee and liquidity', async (t) => {
  t.equal(v4.pools.length, DEVNET_V4_POOLS.length);
  const spacings = new Set(v4.pools.map((p) => p.tickSpacing));
  t.same(
    [...spacings].sort((a, b) => a - b),
    [1, 10, 60, 200],
    'tick spacings 1, 10, 60 and 200',
  );
  t.ok(
    v4.pools.some((p) => p.currency0 === zeroAddress),
    'a pool of the native currency',
  );
  for (const [i, p] of v4.pools.entries()) {
    const [sqrtPriceX96, , protocolFee, lpFee] = await client.readContract({
      address: v4.contracts.stateView,
      abi: STATE_VIEW_ABI,
      functionName: 'getSlot0',
      args: [p.poolId],
    });
    const label = `${p.currency0}/${p.currency1} ${p.fee}/${p.tickSpacing}`;
    t.ok(sqrtPriceX96 > 0n, `${label} initialised`);
    t.equal(lpFee, p.lpFee, `${label} lpFee`);
    t.equal(protocolFee, p.protocolFee, `${label} protocolFee`);
    const liquidity = await client.readContract({
      address: v4.contracts.stateView,
      abi: STATE_VIEW_ABI,
      functionName: 'getLiquidity',
      args: [p.poolId],
    });
    t.ok(liquidity > 0n, `${label} has liquidity in range`);
    const state = await readV4State(client, v4.contracts.stateView, v4.contracts.poolManager, p, WINDOW_WORDS, block);
    t.ok(state.ticks.length > DEVNET_V4_POOLS[i].positions.length, `${label}: ${state.ticks.length} initialized ticks`);
  }
});

/** Amounts from 1 unit to 10^(decimals + 7): 1, 2, 5 per decade and three random amounts in each, ascending. */
function amountLadder(decimals: number, random: () => number): bigint[] {
  const out: bigint[] = [];
  for (let k = 0; k <= decimals + 7; k++) {
    const decade = 10n ** BigInt(k);
    out.push(decade, 2n * decade, 5n * decade);
    for (let r = 0; r < 3; r++)
      out.push(decade + BigInt(Math.floor(random() * 9e6)) * (decade / 1_000_000n > 0n ? decade / 1_000_000n : 1n));
  }
  return [...new Set(out)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function decimalsOf(currency: Address): Promise<number> {
  if (currency === zeroAddress) return 18;
  return client.readContract({ address: currency, abi: DECIMALS_ABI, functionName: 'decimals' });
}

/** The ladder's quotes are independent reads at one block: asked together, one JSON-RPC batch per 100. */
const batching = batchingClient(devnet);
/** V4Quoter's quote of one amount at the test's block (v4QuoterQuote). */
const chainQuote = (pool: DevnetV4Pool, zeroForOne: boolean, tradeType: TradeType, amount: bigint) =>
  v4QuoterQuote(batching, v4.contracts.v4Quoter, pool, zeroForOne, tradeType, amount, block);

t.test('the v4 ladder equals V4Quoter to the wei', async (t) => {
  const random = seededRandom(SEED);
  const crossed = new Map<number, number>();
  const gasPoints: [number, bigint][] = [];
  let cases = 0;
  /** Exact inputs into the 100% fee pool (V4Quoter answers 0 at every amount). */
  let fullFeeRefusals = 0;
  for (const pool of v4.pools) {
    const state = await readV4State(client, v4.contracts.stateView, v4.contracts.poolManager, pool, WINDOW_WORDS, block);
    t.equal(uniswapV4.checkSnapshot(state), undefined, `${state.address}: state passes the snapshot checks`);
    const priced = uniswapV4.fromSnapshot(state);
    if (priced.refusal !== undefined) {
      // The chain prices it (the hook could change that at any time); the ladder refuses every amount, with the reason.
      t.ok(await chainQuote(pool, true, 'exactIn', 10n ** 6n), `${state.address}: V4Quoter prices the hooked pool`);
      t.same(uniswapV4.quoteLadder(priced, true, 'exactIn', [1n, 10n ** 6n]), [
        { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: priced.refusal },
        { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: priced.refusal },
      ]);
      continue;
    }
    const decimals = [await decimalsOf(pool.currency0), await decimalsOf(pool.currency1)];
    for (const zeroForOne of [true, false]) {
      for (const tradeType of ['exactIn', 'exactOut'] as const) {
        const fixedSide = (tradeType === 'exactIn') === zeroForOne ? 0 : 1;
        const amounts = amountLadder(decimals[fixedSide], random);
        const ladder = uniswapV4.quoteLadder(priced, zeroForOne, tradeType, amounts);
        const label = `${pool.currency0.slice(0, 6)}/${pool.currency1.slice(0, 6)} fee ${pool.fee} spacing ${pool.tickSpacing} ${zeroForOne ? '0->1' : '1->0'} ${tradeType}`;
        const chainQuotes = await Promise.all(amounts.map((amount) => chainQuote(pool, zeroForOne, tradeType, amount)));
        for (let i = 0; i < amounts.length; i++) {
          const chain = chainQuotes[i];
          const ours: LadderQuote = ladder[i];
          cases++;
          if (chain === undefined) {
            t.match(ours, { ok: false, code: 'INSUFFICIENT_LIQUIDITY' }, `${label} ${amounts[i]}: V4Quoter reverts, the ladder refuses`);
          } else if (tradeType === 'exactIn' && chain.amount === 0n && pool.fee >= MAX_LP_FEE) {
            t.same(
              ours,
              { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: 'a 100% fee pool pays nothing out' },
              `${label} ${amounts[i]}: V4Quoter gives 0 at any amount, the ladder refuses (not AMOUNT_TOO_SMALL)`,
            );
            fullFeeRefusals++;
          } else if (tradeType === 'exactIn' && chain.amount === 0n) {
            t.match(ours, { ok: false, code: 'AMOUNT_TOO_SMALL' }, `${label} ${amounts[i]}: V4Quoter gives 0, the ladder refuses`);
          } else if (!ours.ok) {
            t.fail(`${label} ${amounts[i]}: V4Quoter gives ${chain.amount}, the ladder refuses: ${ours.reason}`);
          } else {
            const got = tradeType === 'exactIn' ? ours.amountOut : ours.amountIn;
            t.equal(got, chain.amount, `${label} ${amounts[i]}`);
            crossed.set(ours.ticksCrossed, (crossed.get(ours.ticksCrossed) ?? 0) + 1);
            gasPoints.push([ours.ticksCrossed, chain.gas]);
          }
        }
      }
    }
  }
  t.ok(cases >= 300, `${cases} cases`);
  t.ok(fullFeeRefusals > 0, `${fullFeeRefusals} exact inputs into the 100% fee pool`);
  const most = Math.max(...crossed.keys());
  t.ok(crossed.has(0) && most >= 15, `priced swaps crossed 0 to ${most} initialized ticks`);
  // V4Quoter's gas estimate against the ticks crossed (least squares): what uniswapV4.gas is provisionally set from.
  const n = gasPoints.length;
  const mx = gasPoints.reduce((s, [x]) => s + x, 0) / n;
  const my = gasPoints.reduce((s, [, y]) => s + Number(y), 0) / n;
  const slope = gasPoints.reduce((s, [x, y]) => s + (x - mx) * (Number(y) - my), 0) / gasPoints.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  t.comment(`V4Quoter gasEstimate ~ ${Math.round(my - slope * mx)} + ${Math.round(slope)} per initialized tick crossed (${n} quotes)`);
});

t.test('refusals and checks of v4 state', async (t) => {
  const read = (pool: DevnetV4Pool) => readV4State(client, v4.contracts.stateView, v4.contracts.poolManager, pool, WINDOW_WORDS, block);
  const state = await read(v4.pools[0]);
  // The devnet's hooked pools, as the chain has them.
  const swapHooked = await read(v4.pools.find((p) => p.hooks === DEVNET_V4_HOOKS.swap)!);
  t.equal(
    uniswapV4.fromSnapshot(swapHooked).refusal,
    `v4 pool ${swapHooked.address} has a hook that can change swap amounts`,
    'the devnet pool with a beforeSwap/afterSwap hook is refused',
  );
  const dynamicFee = await read(v4.pools.find((p) => p.hooks === DEVNET_V4_HOOKS.dynamicFee)!);
  t.same([dynamicFee.fee, dynamicFee.lpFee], [0x800000, 3000], 'the dynamic-fee pool: key fee flag, LP fee set by its hook');
  t.equal(
    uniswapV4.fromSnapshot(dynamicFee).refusal,
    `v4 pool ${dynamicFee.address} has a hook that can change swap amounts`,
    'the dynamic-fee pool (its hook sets the fee in beforeSwap) is refused',
  );
  // A hook's permissions are the low 14 bits of its address: beforeSwap (bit 7) can change amounts, afterInitialize (bit 12) cannot.
  const hooked = (bits: number) => getAddress(`0x${(0x1234n * 2n ** 140n + BigInt(bits)).toString(16).padStart(40, '0')}`);
  const swapHook = uniswapV4.fromSnapshot({ ...state, hooks: hooked(1 << 7) });
  t.same(uniswapV4.quoteLadder(swapHook, true, 'exactIn', [10n ** 15n]), [
    { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: `v4 pool ${state.address} has a hook that can change swap amounts` },
  ]);
  const returnsDelta = uniswapV4.fromSnapshot({ ...state, hooks: hooked(1 << 2) });
  t.match(uniswapV4.quoteLadder(returnsDelta, false, 'exactOut', [10n ** 6n])[0], { ok: false, reason: /can change swap amounts/ });
  const initHook = uniswapV4.fromSnapshot({ ...state, hooks: hooked(1 << 12) });
  t.same(
    uniswapV4.quoteLadder(initHook, true, 'exactIn', [10n ** 15n]),
    uniswapV4.quoteLadder(uniswapV4.fromSnapshot(state), true, 'exactIn', [10n ** 15n]),
    'a hook without swap permissions on a static fee is priced as the pool',
  );
  // A dynamic fee: priced from slot0.lpFee only with a listed hook without beforeSwap, then re-read at every block.
  const dynamicState = { ...state, hooks: hooked(1 << 12), fee: 0x800000 };
  const dynamic = uniswapV4.fromSnapshot(dynamicState);
  t.same(uniswapV4.quoteLadder(dynamic, true, 'exactIn', [10n ** 15n]), [
    {
      ok: false,
      code: 'INSUFFICIENT_LIQUIDITY',
      reason: `v4 pool ${state.address} has a dynamic fee and its hook is not in the chain's allowedHooks`,
    },
  ]);
  const listed = (hooks: string) => ({ allowedHooks: new Set([hooks.toLowerCase()]) });
  t.same(
    uniswapV4.quoteLadder(uniswapV4.fromSnapshot(dynamicState, listed(dynamicState.hooks)), true, 'exactIn', [10n ** 15n]),
    uniswapV4.quoteLadder(uniswapV4.fromSnapshot(state), true, 'exactIn', [10n ** 15n]),
    "a listed hook without beforeSwap on a dynamic fee: priced with slot0.lpFee (here the static pool's fee)",
  );
  t.equal(
    uniswapV4.rereadEachBlock!(dynamicState, listed(dynamicState.hooks)),
    true,
    'a priced dynamic-fee pool is re-read at every block',
  );
  t.equal(uniswapV4.rereadEachBlock!(dynamicState), false, 'a refused one is not');
  t.equal(uniswapV4.rereadEachBlock!(state, listed(state.hooks)), false, 'nor a static-fee pool');
  const overriding = { ...state, hooks: hooked((1 << 12) | (1 << 7)), fee: 0x800000 };
  t.equal(
    uniswapV4.fromSnapshot(overriding, listed(overriding.hooks)).refusal,
    `v4 pool ${state.address} has a dynamic fee its hook can override at each swap (beforeSwap)`,
    'a listed hook with beforeSwap on a dynamic fee is refused (OVERRIDE_FEE_FLAG)',
  );
  t.equal(uniswapV4.rereadEachBlock!(overriding, listed(overriding.hooks)), false);
  t.equal(
    uniswapV4.fromSnapshot(dynamicFee, listed(dynamicFee.hooks)).refusal,
    `v4 pool ${dynamicFee.address} has a dynamic fee its hook can override at each swap (beforeSwap)`,
    'the devnet DynamicFeesTestHook pool, even listed, is refused',
  );
  t.equal(uniswapV4.describe({ ...state, hooks: hooked(1 << 7) }).isActive, false, 'a refused pool is not described as active');
  t.equal(
    uniswapV4.checkSnapshot({ ...state, address: keccak256('0x01').toUpperCase() }),
    'address: must be the poolId (32 bytes, lower-case hex)',
  );
  t.equal(uniswapV4.checkSnapshot({ ...state, tickSpacing: 32_768 }), 'tickSpacing: must be an integer in [1, 32767]');
  t.equal(uniswapV4.checkSnapshot({ ...state, protocolFee: 1001 }), 'protocolFee: each direction must be at most 1000 pips');
  t.equal(uniswapV4.checkSnapshot({ ...state, lpFee: state.fee + 1 }), 'lpFee: must equal the fee of a static-fee pool');
  t.equal(
    uniswapV4.checkSnapshot({ ...state, token0: state.token1, token1: state.token0 }),
    'token0: currencies must be sorted (currency0 < currency1)',
  );
  t.equal(
    uniswapV4.checkSnapshot({ ...state, ticks: [state.ticks[1], state.ticks[0], ...state.ticks.slice(2)] }),
    'ticks: must be strictly ascending',
  );
});
