import { pino } from 'pino';
import t from 'tap';
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  parseAbiParameters,
  toHex,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadArtifact } from '../../seeds/devnet/artifacts.ts';
import { devnetAddresses, MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/amm/tickMath.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { multicallBatched } from '../../src/chain/multicallBatched.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import type { PoolLog } from '../../src/protocols/logWords.ts';
import type { PoolKeyExtras } from '../../src/protocols/PoolSource.ts';
import { type PoolToRead, STATE_PHASES } from '../../src/protocols/PoolSource.ts';
import { applyV4Event, type FollowedPoolV4, V4_EVENT_TOPICS } from '../../src/protocols/uniswapV4/uniswapV4Events.ts';
import { uniswapV4Source } from '../../src/protocols/uniswapV4/uniswapV4Source.ts';
import { devnetWallet } from '../helpers/devnetWallet.ts';
import { chainSeeder } from '../helpers/followDevnet.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const SEED = Number(process.env.V4_EVENTS_SEED ?? 20261126);
const WINDOW_WORDS = 16;
const ROUNDS = 40;
const ERC20 = parseAbi(['function approve(address, uint256) returns (bool)']);
const KEY = '(address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks)';
const SWAP = parseAbi([
  `function swap(${KEY} key, (bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) params, (bool takeClaims, bool settleUsingBurn) settings, bytes hookData) payable returns (int256)`,
]);
const INITIALIZE = parseAbi([`function initialize(${KEY} key, uint160 sqrtPriceX96) returns (int24 tick)`]);
const MODIFY = parseAbi([
  `function modifyLiquidity(${KEY} key, (int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt) params, bytes hookData) payable returns (int256)`,
]);

const devnet = await startDevnet({ v4: true });
t.teardown(() => devnet.stop());
const v4 = devnet.v4!;
const { client, wallet, send } = devnetWallet(devnet);
const pm = v4.contracts.poolManager;
const account = privateKeyToAccount(generatePrivateKey());

async function deploy(path: string): Promise<Address> {
  const { abi, bytecode } = loadArtifact(path);
  const hash = await wallet.deployContract({ account, chain: wallet.chain, abi, bytecode, args: [pm] });
  return (await client.waitForTransactionReceipt({ hash })).contractAddress!;
}

const pools: PoolToRead[] = (
  (await client.request({
    method: 'eth_getLogs',
    params: [{ address: pm, topics: [uniswapV4Source.creationTopic as Hex], fromBlock: '0x0', toBlock: 'latest' }],
  })) as PoolLog[]
)
  .map((log) => uniswapV4Source.created(log)!)
  .filter((c) => (c.key as PoolKeyExtras).hooks === zeroAddress)
  .map((c) => ({ ...c, dex: 'uniswap', version: 'v4', fee: c.fee! }));

/** Every pool read afresh at `block` (seeding's phases). */
async function seed(block: bigint, which: readonly PoolToRead[] = pools): Promise<Map<string, FollowedPoolV4>> {
  const reads = which.map((p) => uniswapV4Source.readState(p, WINDOW_WORDS));
  for (const phase of STATE_PHASES) {
    const calls = reads.map((r) => r.calls(phase));
    const flat = calls.flat();
    const options = { multicall3: MULTICALL3_ADDRESS, blockNumber: block, batchSize: 200, concurrency: 1 };
    const results = flat.length === 0 ? [] : await multicallBatched(client, options, flat);
    let k = 0;
    reads.forEach((r, i) => {
      r.take(phase, results.slice(k, k + calls[i].length));
      k += calls[i].length;
    });
  }
  return new Map(
    reads.map((r, i) => {
      const done = r.finish(0n, 0n);
      if (!done.ok) throw new Error(`${which[i].address}: ${done.reason}`);
      return [done.state.address, done.state];
    }),
  );
}

t.test('the followed v4 state equals a fresh read after every block', async (t) => {
  const funding = 10n ** 30n;
  await fundAccount(devnet.rpcUrl, account.address, NATIVE_TOKEN_ADDRESS, 10n ** 27n);
  const swapper = await deploy('@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json');
  const modifier = await deploy('@uniswap/v4-core/out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json');
  const currencies = new Set(pools.flatMap((p) => [p.token0, p.token1]).filter((c) => c !== zeroAddress));
  for (const c of currencies) {
    await fundAccount(devnet.rpcUrl, account.address, c, c === devnetAddresses().tokens.WETH ? 10n ** 25n : funding);
    for (const spender of [swapper, modifier])
      await send(account, { to: c, data: encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [spender, maxUint256] }) });
  }
  // The live follower, from a seeding run written now; compared with a fresh seeding run after every block.
  const catalog = loadCatalog();
  const chain = catalog.chain(devnet.chainId)!;
  const { snapshotDir, seedNow } = chainSeeder((fn) => t.teardown(fn), devnet.rpcUrl, chain, 'sqs-follow-v4-');
  await seedNow(true);
  const follower = new ChainFollower(
    { chain, rpcUrl: devnet.rpcUrl, snapshotDir, catalog, logger: pino({ level: 'silent' }), follow: false, undoDepth: 8 },
    () => undefined,
  );
  await follower.start();
  const INITIALIZED_AT = Math.floor(ROUNDS / 2);
  // A pool no one has created yet (native ETH / DAI, hookless): initialized mid-run by a plain PoolManager call.
  const lateKey = { currency0: zeroAddress, currency1: devnetAddresses().tokens.DAI, fee: 3000, tickSpacing: 60, hooks: zeroAddress };
  let followerFailures = 0;
  const random = seededRandom(SEED);
  let block = await client.getBlockNumber();
  let followed = await seed(block);
  const positions: { pool: string; lower: number; upper: number; liquidity: bigint; salt: Hex }[] = [];
  let rereads = 0;
  let events = 0;
  let crossedWord = 0;
  let moved = 0;
  let crossings = 0;
  let cleared = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const pool = pools[Math.floor(random() * pools.length)];
    const state = followed.get(pool.address)!;
    const key = {
      currency0: pool.token0,
      currency1: pool.token1,
      fee: pool.fee,
      tickSpacing: (pool.key as PoolKeyExtras).tickSpacing,
      hooks: zeroAddress,
    };
    const op = random();
    let data: Hex;
    let touched: string = pool.address;
    if (op < 0.55) {
      const zeroForOne = random() < 0.5;
      const held = BigInt(zeroForOne ? state.balance0 : state.balance1);
      const amountIn = (held * BigInt(1 + Math.floor(random() * 30))) / 100n + 1000n;
      const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
      data = encodeFunctionData({
        abi: SWAP,
        functionName: 'swap',
        args: [
          key,
          { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96: limit },
          { takeClaims: false, settleUsingBurn: false },
          '0x',
        ],
      });
    } else if (op < 0.8 || positions.length === 0) {
      const s = key.tickSpacing;
      const lower = (Math.floor(state.tick / s) - 1 - Math.floor(random() * 20)) * s;
      const upper = (Math.floor(state.tick / s) + 1 + Math.floor(random() * 20)) * s;
      const liquidity = BigInt(state.liquidity) / BigInt(5 + Math.floor(random() * 20)) + 1n;
      const salt = toHex(round, { size: 32 });
      positions.push({ pool: pool.address, lower, upper, liquidity, salt });
      data = encodeFunctionData({
        abi: MODIFY,
        functionName: 'modifyLiquidity',
        args: [key, { tickLower: lower, tickUpper: upper, liquidityDelta: liquidity, salt }, '0x'],
      });
    } else {
      const [p] = positions.splice(Math.floor(random() * positions.length), 1);
      touched = p.pool;
      const owner = pools.find((x) => x.address === p.pool)!;
      const k = {
        ...key,
        currency0: owner.token0,
        currency1: owner.token1,
        fee: owner.fee,
        tickSpacing: (owner.key as PoolKeyExtras).tickSpacing,
      };
      const delta = random() < 0.5 ? p.liquidity : p.liquidity / 2n;
      if (delta !== p.liquidity) positions.push({ ...p, liquidity: p.liquidity - delta });
      data = encodeFunctionData({
        abi: MODIFY,
        functionName: 'modifyLiquidity',
        args: [k, { tickLower: p.lower, tickUpper: p.upper, liquidityDelta: -delta, salt: p.salt }, '0x'],
      });
    }
    const to = op < 0.55 ? swapper : modifier;
    const was = followed.get(touched)!;
    // Ether for a native currency's settlement (the test contracts keep what is left).
    const receipt = await send(account, { to, data, value: 10n ** 22n });
    t.equal(receipt.status, 'success', `round ${round}: transaction succeeds`);
    block = receipt.blockNumber;
    const logs = (await client.request({
      method: 'eth_getLogs',
      params: [{ address: pm, topics: [V4_EVENT_TOPICS as Hex[]], fromBlock: toHex(block), toBlock: toHex(block) }],
    })) as PoolLog[];
    const reread: PoolToRead[] = [];
    for (const log of logs) {
      const id = log.topics[1].toLowerCase();
      const before = followed.get(id);
      if (!before) continue;
      events++;
      const outcome = applyV4Event(before, log, { tickWindowWords: WINDOW_WORDS });
      if (outcome.ok) followed.set(id, outcome.state as FollowedPoolV4);
      else {
        rereads++;
        if (/left its tick window/.test(outcome.reason)) crossedWord++;
        reread.push(pools.find((p) => p.address === id)!);
      }
    }
    if (reread.length > 0) for (const [id, s] of await seed(block, reread)) followed.set(id, s);
    const fresh = await seed(block);
    const now = fresh.get(touched)!;
    if (op < 0.55 && now.tick !== was.tick) moved++;
    if (op < 0.55 && was.ticks.some(([x]) => x > was.tick !== x > now.tick)) crossings++;
    if (now.ticks.length < was.ticks.length) cleared++;
    for (const [id, s] of fresh) t.same(followed.get(id), s, `round ${round}: ${id.slice(0, 10)} equals a fresh read`);
    followed = fresh;
    if (round === INITIALIZED_AT) {
      const init = await send(account, {
        to: pm,
        data: encodeFunctionData({ abi: INITIALIZE, functionName: 'initialize', args: [lateKey, getSqrtRatioAtTick(-70_000)] }),
      });
      t.equal(init.status, 'success', 'a new pool initialized mid-run');
    }
    await follower.step();
    const seeded = await seedNow();
    const live = follower.snapshot();
    t.equal(live.blockNumber, seeded.blockNumber, `round ${round}: the follower is at the head`);
    if (!t.same(live.pools, seeded.pools, `round ${round}: the followed state equals a fresh seed`) && ++followerFailures > 2) break;
  }
  const lateId = keccak256(encodeAbiParameters(parseAbiParameters(KEY), [lateKey])).toLowerCase();
  t.ok(
    follower.snapshot().pools.some((p) => p.address === lateId),
    `the pool initialized mid-run (${lateId.slice(0, 10)}) is followed`,
  );
  t.equal(followerFailures, 0, 'the followed state equals a fresh seed after every block');
  t.comment(`follower metrics: ${JSON.stringify(follower.metrics)}`);
  t.ok(events >= ROUNDS, `${events} events applied, ${rereads} re-reads (${crossedWord} left the tick window)`);
  t.ok(
    crossings > 0 && cleared > 0,
    `${moved} swaps moved the tick, ${crossings} crossed initialized ticks; ${cleared} removals cleared a tick`,
  );
});
