// Balancer v2 discovery and live state on the devnet's Balancer (startDevnet({ balancer: true })): the Vault's
// PoolRegistered / TokensRegistered logs with the factories' PoolCreated logs give exactly the devnet's pools and
// kinds, filtered by catalogued tokens and supported factories; then random traffic (Vault swaps both ways, joins,
// exits, a swap fee change, an amplification ramp stopped and another started, time passing the rate cache's expiry) is followed block by
// block with applyBalancerEvent (re-reading only the pools it asks to), and the followed state equals a fresh
// readBalancerPools at every block.

import { join } from 'node:path';
import t from 'tap';
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  parseAbiParameters,
  toHex,
} from 'viem';
import type { BalancerDevnetAddresses, DevnetBalancerPool } from '../../seeds/devnet/deployBalancer.ts';
import { devnetAccounts, devnetAddresses, MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc, receiptOf } from '../../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { multicallBatched } from '../../src/chain/multicallBatched.ts';
import { multicallRunner, readPoolStates } from '../../src/chain/readPoolStates.ts';
import { PoolBook, type RpcLog } from '../../src/follow/poolBook.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import {
  applyBalancerEvent,
  BALANCER_EVENT_TOPICS,
  BALANCER_REREAD_TOPICS,
  discoverBalancerPools,
  POOL_CREATED,
  POOL_REGISTERED,
  TOKENS_REGISTERED,
  VAULT_SWAP,
} from '../../src/protocols/balancer/balancerEvents.ts';
import { balancerSource } from '../../src/protocols/balancer/balancerSource.ts';
import type { BalancerPoolState } from '../../src/protocols/balancer/balancerState.ts';
import { readBalancerPools } from '../../src/protocols/balancer/readBalancerPools.ts';
import type { PoolLog } from '../../src/protocols/logWords.ts';
import type { PoolToRead } from '../../src/protocols/PoolSource.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import { devnetWallet } from '../helpers/devnetWallet.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const devnet = await startDevnet({ balancer: true });
t.teardown(() => devnet.stop());
const bal: BalancerDevnetAddresses = devnet.balancer!;
const { client } = devnetWallet(devnet);
const { tokens } = devnetAddresses();
const kindOf = (p: DevnetBalancerPool) => (p.kind === 'weighted' ? 'balancerWeighted' : 'balancerStable') as BalancerPoolState['kind'];
const factories = new Map<string, BalancerPoolState['kind']>([
  [bal.contracts.weightedPoolFactory.toLowerCase(), 'balancerWeighted'],
  [bal.contracts.composableStablePoolFactory.toLowerCase(), 'balancerStable'],
]);

async function logs(filter: { address: Address | Address[]; topics?: (Hex | Hex[])[] }, from: bigint, to: bigint): Promise<PoolLog[]> {
  return jsonRpc<PoolLog[]>(devnet.rpcUrl, 'eth_getLogs', [{ ...filter, fromBlock: toHex(from), toBlock: toHex(to) }]);
}

async function read(block: bigint, pools: readonly DevnetBalancerPool[]): Promise<BalancerPoolState[]> {
  const states = await readBalancerPools(
    client,
    { blockNumber: block, vault: bal.contracts.vault },
    pools.map((p) => ({ address: p.address, poolId: p.poolId, kind: kindOf(p) })),
    (calls) => multicallBatched(client, { multicall3: MULTICALL3_ADDRESS, blockNumber: block, batchSize: 100, concurrency: 1 }, calls),
  );
  return states.map((s, i) => {
    if (typeof s === 'string') throw new Error(`${pools[i].name}: ${s}`);
    return s;
  });
}

t.test('discovery: registered pools of supported factories with catalogued tokens', async (t) => {
  const head = await client.getBlockNumber();
  const vaultLogs = await logs({ address: bal.contracts.vault, topics: [[POOL_REGISTERED as Hex, TOKENS_REGISTERED as Hex]] }, 0n, head);
  const factoryLogs = await logs({ address: [...factories.keys()] as Address[], topics: [POOL_CREATED as Hex] }, 0n, head);
  const all = new Set(Object.values(tokens).map((a) => a.toLowerCase()));
  const found = discoverBalancerPools(vaultLogs, factoryLogs, factories, all);
  t.same(
    found.map((p) => ({ poolId: p.poolId, address: p.address, kind: p.kind, tokens: [...p.tokens].sort() })),
    bal.pools.map((p) => ({ poolId: p.poolId, address: p.address, kind: kindOf(p), tokens: p.tokens.map((a) => a.toLowerCase()).sort() })),
    'every devnet pool, with its kind and registered tokens',
  );
  const withoutUni = new Set([...all].filter((a) => a !== tokens.UNI.toLowerCase()));
  t.same(
    discoverBalancerPools(vaultLogs, factoryLogs, factories, withoutUni).map((p) => p.address),
    bal.pools.filter((p) => p.name !== '80UNI-20WETH').map((p) => p.address),
    'a pool with one catalogued token is left out',
  );
  const weightedOnly = new Map([...factories].filter(([, k]) => k === 'balancerWeighted'));
  t.same(
    discoverBalancerPools(vaultLogs, factoryLogs, weightedOnly, all).map((p) => p.address),
    bal.pools.filter((p) => p.kind === 'weighted').map((p) => p.address),
    'pools of an unsupported factory are left out',
  );
});

const vaultAbi = parseAbi([
  'struct SingleSwap { bytes32 poolId; uint8 kind; address assetIn; address assetOut; uint256 amount; bytes userData; }',
  'struct FundManagement { address sender; bool fromInternalBalance; address recipient; bool toInternalBalance; }',
  'struct JoinPoolRequest { address[] assets; uint256[] maxAmountsIn; bytes userData; bool fromInternalBalance; }',
  'struct ExitPoolRequest { address[] assets; uint256[] minAmountsOut; bytes userData; bool toInternalBalance; }',
  'function swap(SingleSwap singleSwap, FundManagement funds, uint256 limit, uint256 deadline) payable returns (uint256)',
  'function joinPool(bytes32 poolId, address sender, address recipient, JoinPoolRequest request) payable',
  'function exitPool(bytes32 poolId, address sender, address recipient, ExitPoolRequest request)',
]);
const erc20Abi = parseAbi(['function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const ownerAbi = parseAbi([
  'function setSwapFeePercentage(uint256)',
  'function stopAmplificationParameterUpdate()',
  'function startAmplificationParameterUpdate(uint256 rawEndValue, uint256 endTime)',
]);

const bookAt = new WeakMap<PoolBook, bigint>();
/** The last block a book was brought to (its start snapshot's at first). */
const snapshotBlock = (book: PoolBook): bigint => bookAt.get(book) ?? startBlock;
let startBlock = 0n;

// The follower's own book (src/follow/poolBook.ts) beside applyBalancerEvent: the devnet catalogue's Balancer entry, the
// pools as seeding reads them (balancerSource through readPoolStates), each block's logs of the book's topics applied
// by PoolBook.applyBlock (pool-contract logs reach the pool through contractOf; rate-provided and ramping pools are
// re-read every block); the book's Balancer records equal a fresh read at every block.
const devnetChain = loadCatalog(join(import.meta.dirname, '..', '..', 'catalog')).chain('devnet')!;
const balancerKey = balancerSource.discovery(devnetChain.dexes.find((d) => d.version === 'balancerV2')!)!.key!;
const toRead: PoolToRead[] = bal.pools.map((p) => ({
  address: p.poolId.toLowerCase() as Address,
  dex: 'balancer',
  version: 'balancerV2',
  token0: p.tokens[0],
  token1: p.tokens[1],
  fee: 0,
  key: balancerKey,
}));
const runnerAt = (b: bigint) => multicallRunner(client, { multicall3: MULTICALL3_ADDRESS, blockNumber: b, batchSize: 100, concurrency: 1 });
async function seedAt(b: bigint): Promise<SnapshotPool[]> {
  const states = await readPoolStates(runnerAt(b), toRead, 0);
  if (states.dropped.length > 0) throw new Error(`dropped: ${JSON.stringify(states.dropped)}`);
  return states.pools.sort((x, y) => (x.address < y.address ? -1 : 1));
}

t.test('random traffic followed block by block equals a fresh read at every block', async (t) => {
  const start = await client.getBlockNumber();
  const snapshot: Snapshot = {
    formatVersion: 1,
    chainId: devnetChain.chainId,
    blockNumber: Number(start),
    blockTimestamp: 0,
    seededAt: '',
    tickWindowWords: 0,
    pools: await seedAt(start),
  };
  const book = new PoolBook(devnetChain, snapshot);
  startBlock = start;
  let bookEvents = 0;
  const trader = getAddress(devnetAccounts(2)[1].address);
  const send = async (from: Address, to: Address, data: Hex): Promise<boolean> => {
    const hash = await jsonRpc<Hex>(devnet.rpcUrl, 'eth_sendTransaction', [{ from, to, data, gas: toHex(3_000_000n) }]);
    return (await receiptOf<{ status: Hex }>(devnet.rpcUrl, hash)).status === '0x1';
  };
  for (const symbol of ['UNI', 'WETH', 'WBTC', 'USDC', 'USDT', 'DAI'] as const) {
    await fundAccount(devnet.rpcUrl, trader, tokens[symbol], 10n ** 30n / (symbol === 'WETH' ? 10n ** 6n : 1n));
    await send(
      trader,
      tokens[symbol],
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bal.contracts.vault, maxUint256] }),
    );
  }
  let block = await client.getBlockNumber();
  let followed = await read(block, bal.pools);
  const rand = seededRandom(27);
  let exact = 0;
  const applied = new Map<string, number>();
  const rereadBy = new Set<string>();
  let rereads = 0;
  let sent = 0;
  const funds = { sender: trader, fromInternalBalance: false, recipient: trader, toInternalBalance: false };
  for (let round = 0; round < 60; round++) {
    const p = Math.floor(rand() * bal.pools.length);
    const pool = bal.pools[p];
    const state = followed[p];
    const own = state.tokens.map((_, i) => i).filter((i) => state.kind !== 'balancerStable' || i !== state.bptIndex);
    const action = rand();
    let ok: boolean;
    if (round === 20) {
      await jsonRpc(devnet.rpcUrl, 'anvil_impersonateAccount', [bal.deployer]);
      ok = await send(
        bal.deployer,
        pool.address,
        encodeFunctionData({ abi: ownerAbi, functionName: 'setSwapFeePercentage', args: [2n * 10n ** 15n] }),
      );
    } else if (round === 30) {
      const ramping = bal.pools.find((x) => x.name === 'USDC-USDT-DAI')!;
      ok = await send(
        bal.deployer,
        ramping.address,
        encodeFunctionData({ abi: ownerAbi, functionName: 'stopAmplificationParameterUpdate' }),
      );
    } else if (round === 35) {
      const ramping = bal.pools.find((x) => x.name === 'USDC-USDT-DAI')!;
      const now = BigInt((await jsonRpc<{ timestamp: Hex }>(devnet.rpcUrl, 'eth_getBlockByNumber', ['latest', false])).timestamp);
      const data = encodeFunctionData({
        abi: ownerAbi,
        functionName: 'startAmplificationParameterUpdate',
        args: [300n, now + 2n * 86_400n],
      });
      ok = await send(bal.deployer, ramping.address, data);
    } else if (round === 40) {
      // past the rate cache's expiry: the next swap of the rate-provided pool refreshes it (TokenRateCacheUpdated: re-read)
      await jsonRpc(devnet.rpcUrl, 'evm_increaseTime', [3600]);
      ok = await send(
        trader,
        tokens.USDC,
        encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [bal.contracts.vault, maxUint256] }),
      );
    } else if (action < 0.7) {
      const i = own[Math.floor(rand() * own.length)];
      const o = own.filter((x) => x !== i)[Math.floor(rand() * (own.length - 1))];
      const exactIn = rand() < 0.5;
      const base = exactIn ? state.balances[i] : state.balances[o];
      const amount = (base * BigInt(1 + Math.floor(rand() * 2000))) / 10_000n + 1n;
      const singleSwap = {
        poolId: pool.poolId,
        kind: exactIn ? 0 : 1,
        assetIn: state.tokens[i] as Address,
        assetOut: state.tokens[o] as Address,
        amount,
        userData: '0x' as Hex,
      };
      ok = await send(
        trader,
        bal.contracts.vault,
        encodeFunctionData({ abi: vaultAbi, functionName: 'swap', args: [singleSwap, funds, exactIn ? 0n : maxUint256, 2n ** 40n] }),
      );
    } else if (action < 0.85) {
      const amountsIn = own.map((i) => state.balances[i] / BigInt(50 + Math.floor(rand() * 100)));
      const maxAmountsIn = state.tokens.map((_, i) => (own.includes(i) ? maxUint256 : 0n));
      const userData = encodeAbiParameters(parseAbiParameters('uint256, uint256[], uint256'), [1n, amountsIn, 0n]);
      const request = { assets: state.tokens as Address[], maxAmountsIn, userData, fromInternalBalance: false };
      ok = await send(
        trader,
        bal.contracts.vault,
        encodeFunctionData({ abi: vaultAbi, functionName: 'joinPool', args: [pool.poolId, trader, trader, request] }),
      );
    } else {
      const bpt = (await client.readContract({ address: pool.address, abi: erc20Abi, functionName: 'balanceOf', args: [trader] })) / 2n;
      if (bpt === 0n) continue;
      const userData = encodeAbiParameters(parseAbiParameters('uint256, uint256'), [pool.kind === 'weighted' ? 1n : 2n, bpt]);
      const request = { assets: state.tokens as Address[], minAmountsOut: state.tokens.map(() => 0n), userData, toInternalBalance: false };
      ok = await send(
        trader,
        bal.contracts.vault,
        encodeFunctionData({ abi: vaultAbi, functionName: 'exitPool', args: [pool.poolId, trader, trader, request] }),
      );
    }
    t.ok(ok, `round ${round}: transaction succeeds`);
    sent++;
    const next = BigInt(await jsonRpc<Hex>(devnet.rpcUrl, 'eth_blockNumber', []));
    const blockLogs = await logs(
      {
        address: [bal.contracts.vault, ...bal.pools.map((x) => x.address)],
        topics: [[...BALANCER_EVENT_TOPICS, ...BALANCER_REREAD_TOPICS] as Hex[]],
      },
      block + 1n,
      next,
    );
    const reread = new Set<number>();
    followed = followed.map((s, k) => {
      let current = s;
      for (const log of blockLogs) {
        const mine = log.address.toLowerCase() === s.address.toLowerCase() || log.topics[1]?.toLowerCase() === s.poolId;
        if (!mine || reread.has(k)) continue;
        const outcome = applyBalancerEvent(current, log);
        const topic = log.topics[0].toLowerCase();
        if (outcome.ok) {
          current = outcome.state;
          exact++;
          applied.set(topic, (applied.get(topic) ?? 0) + 1);
        } else {
          reread.add(k);
          rereadBy.add(topic);
        }
      }
      return current;
    });
    block = next;
    const fresh = await read(block, bal.pools);
    if (reread.size > 0) {
      rereads += reread.size;
      followed = followed.map((s, k) => (reread.has(k) ? fresh[k] : s));
    }
    t.same(followed, fresh, `round ${round}: followed state equals a fresh read at block ${block}`);
    // The follower's book over the same blocks, one applyBlock per block (empty blocks too).
    const bookLogs = await jsonRpc<RpcLog[]>(devnet.rpcUrl, 'eth_getLogs', [
      { fromBlock: toHex(BigInt(snapshotBlock(book)) + 1n), toBlock: toHex(block), topics: [book.topics] },
    ]);
    for (let b = BigInt(snapshotBlock(book)) + 1n; b <= block; b++) {
      const mine = book.relevant(bookLogs.filter((l) => BigInt(l.blockNumber) === b));
      mine.sort((x, y) => Number(x.logIndex) - Number(y.logIndex));
      const change = await book.applyBlock(mine, runnerAt(b), 0, () => {});
      bookEvents += change.events;
    }
    bookAt.set(book, block);
    const bookState = book
      .snapshotPools()
      .filter((p) => p.version === 'balancerV2')
      .sort((x, y) => (x.address < y.address ? -1 : 1));
    t.same(bookState, await seedAt(block), `round ${round}: the follower's book equals a fresh seed at block ${block}`);
  }
  t.ok(bookEvents >= 40, `${bookEvents} logs through the book`);
  t.ok(exact >= 40, `${exact} logs applied exactly, ${rereads} pool re-reads, ${sent} transactions`);
  t.same(
    BALANCER_EVENT_TOPICS.map((topic) => (applied.get(topic) ?? 0) > 0),
    BALANCER_EVENT_TOPICS.map(() => true),
    'Swap, PoolBalanceChanged, SwapFeePercentageChanged, AmpUpdateStarted and AmpUpdateStopped each applied',
  );
  t.ok(rereadBy.has(BALANCER_REREAD_TOPICS[0]), 'the rate cache refreshed by a swap after its expiry made a re-read');
});

t.test('logs the state cannot follow are re-reads, never a silently wrong state', async (t) => {
  const block = await client.getBlockNumber();
  const [weighted, , stable] = await read(block, bal.pools);
  const swaps = await logs({ address: bal.contracts.vault, topics: [VAULT_SWAP as Hex, weighted.poolId as Hex] }, 0n, block);
  t.ok(swaps.length > 0, 'the traffic swapped on the weighted pool');
  const swap = swaps[0];
  t.ok(applyBalancerEvent(weighted, swap).ok, 'its Swap applies');
  t.same(
    applyBalancerEvent(weighted, { ...swap, data: swap.data.slice(0, -2) }),
    { ok: false, reason: 'malformed Swap' },
    'a malformed Swap',
  );
  t.same(applyBalancerEvent(stable, swap), { ok: false, reason: 'a log of another pool' }, "another pool's Swap");
  const foreign = { ...swap, topics: [swap.topics[0], swap.topics[1], `0x${'0'.repeat(24)}${'ab'.repeat(20)}`, swap.topics[3]] };
  t.same(
    applyBalancerEvent(weighted, foreign),
    { ok: false, reason: 'Swap of tokens the pool does not hold' },
    'a Swap of a token it does not hold',
  );
  const drained = { ...weighted, balances: weighted.balances.map(() => 0n) };
  t.same(
    applyBalancerEvent(drained, swap),
    { ok: false, reason: 'Swap takes more than the known balance' },
    'a Swap beyond the known balance',
  );
  const rateLog = { address: stable.address, topics: [BALANCER_REREAD_TOPICS[0]], data: `0x${'0'.repeat(128)}` };
  t.notOk(applyBalancerEvent(stable, rateLog).ok, 'TokenRateCacheUpdated is a re-read');
});
