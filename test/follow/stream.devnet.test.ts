// Several instances over one Redis: one `npm run follow` process follows a devnet mined on demand and publishes each
// block to a Redis Stream; two API instances (FOLLOW_STREAM=true) apply them. Both serve identical quotes at the same
// block, equal to the chain's QuoterV2 / getAmountsOut there; an instance started late catches up from its
// snapshot; with the follower killed both keep serving the last block with a growing age and /readyz fails after
// MAX_STATE_AGE_SECONDS; restarted, the follower resumes and the instances reach the new head without a gap. The
// instances also hold the shipped snapshot of chain 31338, which the follower does not follow: readiness ignores it
// and it is quoted at its snapshot's age. Issue 25: a pool created after the seed (WBTC/WETH 0.05%), traded before and
// during the follower's outage, is on both instances after the restart as a fresh seed at the head has it, and every
// pool's balances are the chain's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type Address, getAddress, parseAbi } from 'viem';
import { v3PoolAddress } from '../../seeds/devnet/devnetAddresses.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { discoveryCandidates } from '../../src/chain/discoveryPairs.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { freshAddress } from '../helpers/devnetWallet.ts';
import { startFollowDevnet } from '../helpers/followDevnet.ts';
import { sharedRedisPrefix, sharedRedisUrl } from '../helpers/redis.ts';
import { projectRoot, type ServerProcess, startServer } from '../helpers/serverProcess.ts';

const MAX_AGE = 3;

t.test('one follower process, two API instances over one Redis', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'follow-stream');
  if (!prefix) return;
  const net = await startFollowDevnet((fn) => t.teardown(fn), 41);
  const { devnet, snapshotDir, chain, token } = net;
  const AMOUNT_IN = 2_500_000_000_000_000_000n;

  const shared = { REDIS_URL: sharedRedisUrl, REDIS_KEY_PREFIX: prefix, SNAPSHOT_DIR: snapshotDir, LOG_LEVEL: 'info' };
  const followerEnv = { ...shared, [`RPC_URL_${devnet.chainId}`]: devnet.rpcUrl, FOLLOW_POLL_MS: '100' };
  const startFollower = () =>
    startServer({
      entry: 'seeds/follow.ts',
      env: followerEnv,
      readyLog: 'following chains; publishing to Redis Streams',
      timeoutMs: 120_000,
    });
  const startInstance = () =>
    startServer({
      env: { ...shared, FOLLOW_STREAM: 'true', MAX_STATE_AGE_SECONDS: String(MAX_AGE), WORKER_THREADS: '1', DATA_DIR: snapshotDir },
      timeoutMs: 120_000,
    });
  let follower: ServerProcess = await startFollower();
  t.teardown(() => follower.stop());
  const a = await startInstance();
  t.teardown(() => a.stop());

  const body = (amount: string) => ({
    originChainId: chain.chainId,
    destinationChainId: chain.chainId,
    tokenIn: token('WETH').address,
    tokenOut: token('USDC').address,
    amount,
    recipientAddress: freshAddress('follow-stream'),
    maxHops: 1,
    maxSplits: 1,
  });
  interface Route {
    amountOut: string;
    deadline: number;
    snapshot: { blockNumber: number; ageSeconds: number };
    paths: { hops: { dex: string; version: string; fee: number; tokenIn: string; tokenOut: string }[] }[];
  }
  const routes = async (server: ServerProcess): Promise<{ status: number; text: string; data: Route[] }> => {
    const res = await fetch(`${server.url}/quotes/routes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body('2.5')),
    });
    const text = await res.text();
    return { status: res.status, text, data: (JSON.parse(text) as { data: Route[] }).data };
  };
  const at = async (server: ServerProcess, block: number): Promise<Route[]> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await routes(server);
      if (res.status === 200 && res.data[0].snapshot.blockNumber === block) return res.data;
      if (Date.now() > deadline) throw new Error(`instance did not reach block ${block}: ${res.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const chainQuote = (hop: Route['paths'][number]['hops'][number], blockNumber: bigint) => net.chainQuote(hop, AMOUNT_IN, blockNumber);
  const tradeBlock = () => net.tradeBlock(5);
  const strip = (r: Route[]) => r.map((x) => ({ ...x, deadline: 0, snapshot: { blockNumber: x.snapshot.blockNumber } }));
  /**
   * The two instances' routes at a block, asked one after the other: identical but for the deadline, which each takes
   * from its own clock at answering (now + validity), so the second's is the first's or a second or two later.
   */
  const sameAt = async (t: Test, one: ServerProcess, other: ServerProcess, block: number, name: string): Promise<Route[]> => {
    const first = await at(one, block);
    const second = await at(other, block);
    t.same(strip(first), strip(second), name);
    t.ok(
      first.every((r, i) => second[i] !== undefined && second[i].deadline - r.deadline >= 0 && second[i].deadline - r.deadline <= 2),
      `${name}: deadlines taken at answering (${first.map((r) => r.deadline)} then ${second.map((r) => r.deadline)})`,
    );
    return first;
  };

  let block = 0;
  for (let i = 0; i < 3; i++) {
    block = await tradeBlock();
    const fromA = await at(a, block);
    for (const r of fromA)
      t.equal(
        BigInt(r.amountOut),
        await chainQuote(r.paths[0].hops[0], BigInt(block)),
        `block ${block}: instance A's ${r.paths[0].hops[0].dex} ${r.paths[0].hops[0].version} route equals the chain`,
      );
  }

  // Chain 31338 (devnet-b) has a snapshot on the instances (the shipped one, beneath SNAPSHOT_DIR) and no follower: the
  // follower announces 31337 only, so readiness gates on it alone and 31338 is served at its snapshot's age.
  const readyDeadline = Date.now() + 20_000;
  let readyA = await fetch(`${a.url}/readyz`);
  while (readyA.status !== 200 && Date.now() < readyDeadline) {
    await new Promise((r) => setTimeout(r, 200));
    readyA = await fetch(`${a.url}/readyz`);
  }
  const readyText = await readyA.text();
  t.equal(readyA.status, 200, `/readyz passes with one chain followed of two with snapshots: ${readyText}`);
  t.match(readyText, `"liveState":{"ok":true,"detail":"chain ${chain.chainId}: block `, 'the followed chain is checked');
  t.notMatch(readyText, 'chain 31338', 'the chain without a follower is not');
  const shippedB = JSON.parse(readFileSync(join(projectRoot, 'seeds', 'snapshots', 'devnet-b.json'), 'utf8')) as {
    blockNumber: number;
    blockTimestamp: number;
  };
  const chainB = loadCatalog(join(projectRoot, 'catalog')).chain(31338)!;
  const onB = await fetch(`${a.url}/quotes/routes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      ...body('2.5'),
      originChainId: 31338,
      destinationChainId: 31338,
      tokenIn: chainB.tokens.find((x) => x.symbol === 'WETH')!.address,
      tokenOut: chainB.tokens.find((x) => x.symbol === 'USDC')!.address,
    }),
  });
  const fromB = (await onB.json()) as { data: Route[] };
  t.equal(onB.status, 200, 'chain 31338 is quoted');
  t.equal(fromB.data[0].snapshot.blockNumber, shippedB.blockNumber, "at its snapshot's block");
  const expectedAge = Date.now() / 1000 - shippedB.blockTimestamp;
  t.ok(
    Math.abs(fromB.data[0].snapshot.ageSeconds - expectedAge) < 10,
    `with its snapshot's age (${fromB.data[0].snapshot.ageSeconds} s, block time ${shippedB.blockTimestamp})`,
  );

  // A second instance started now reads the stream from its snapshot's block and reaches the head.
  const b = await startInstance();
  t.teardown(() => b.stop());
  await sameAt(t, b, a, block, `a late instance catches up: identical quotes at block ${block}`);
  block = await tradeBlock();
  await sameAt(t, b, a, block, `both serve identical quotes at block ${block}`);

  // Issue 25: a catalogued v3 pool the seed does not have (WBTC/WETH 0.05%) is created and traded while the follower
  // runs, and traded again while it is down (below).
  const existing = new Set(net.start.pools.map((p) => `${p.token0}/${p.token1}/${p.fee}`.toLowerCase()));
  const wbtcWeth = discoveryCandidates(chain).find(
    (c) =>
      c.version === 'v3' &&
      c.fee === 500 &&
      !existing.has(`${c.token0}/${c.token1}/${c.fee}`.toLowerCase()) &&
      [c.token0, c.token1].every((x) => [token('WBTC').address, token('WETH').address].includes(x)),
  )!;
  const newPool = v3PoolAddress(getAddress(wbtcWeth.factory), wbtcWeth.token0, wbtcWeth.token1, 500, devnet.addresses.poolInitCodeHash);
  await net.trader.queueNewPool(wbtcWeth.token0, wbtcWeth.token1, 500, newPool);
  await net.trader.mine();
  const tradeNewPool = async (): Promise<number> => {
    const [state] = (
      await seedChains({ chains: [chain], rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]), snapshotDir, write: false, progress: 'none' })
    ).chains.map((c) => c.snapshot!);
    await net.trader.queue({ ...state, pools: state.pools.filter((p) => p.address === newPool) }, 4);
    await net.trader.mine();
    return Number(await net.wallet.client.getBlockNumber());
  };
  for (let i = 0; i < 2; i++) block = await tradeNewPool();
  await at(a, block);
  await at(b, block);

  // The follower stops: both keep serving the last block, its age grows, readiness fails after MAX_STATE_AGE_SECONDS.
  await follower.stop();
  for (let i = 0; i < 3; i++) await tradeNewPool();
  const stalled = await tradeBlock();
  await new Promise((r) => setTimeout(r, (MAX_AGE + 1.5) * 1000));
  for (const [name, server] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const res = await routes(server);
    t.equal(res.status, 200, `${name} still serves quotes`);
    t.equal(res.data[0].snapshot.blockNumber, block, `${name} serves the last published block`);
    const ready = await fetch(`${server.url}/readyz`);
    const text = await ready.text();
    t.equal(ready.status, 503, `${name}: /readyz fails`);
    t.match(
      text,
      new RegExp(
        `liveState: chain ${chain.chainId}: block ${block} of ${block} \\(0 behind\\), current as of \\d+\\.\\d s ago: older than MAX_STATE_AGE_SECONDS=${MAX_AGE}`,
      ),
    );
  }

  // Restarted, the follower catches up from its snapshot and publishes the blocks mined meanwhile: no gap.
  follower = await startFollower();
  const head = await tradeBlock();
  t.ok(head > stalled, 'blocks were mined while the follower was down');
  const ra = await sameAt(t, a, b, head, `identical quotes at block ${head} after the restart`);
  for (const r of ra)
    t.equal(
      BigInt(r.amountOut),
      await chainQuote(r.paths[0].hops[0], BigInt(head)),
      `block ${head}: ${r.paths[0].hops[0].dex} ${r.paths[0].hops[0].version} equals the chain`,
    );
  // Ready again at once after the catch-up. On a fast machine this answer came within a second of the 503 above, and
  // /readyz reused that answer whole ("current as of 4.7 s ago", 14 runs of 15 on 2026-11-27): now only its probes are
  // reused, and the state's age is read at every answer (test/routes/health.test.ts).
  const ready = await fetch(`${a.url}/readyz`);
  t.equal(ready.status, 200, `/readyz passes again: ${await ready.text()}`);

  // Every pool on both instances as a fresh seed has it at the head, its balances the chain's balanceOf there.
  const seed = (
    await seedChains({ chains: [chain], rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]), snapshotDir, write: false, progress: 'none' })
  ).chains[0].snapshot!;
  t.equal(seed.blockNumber, head, 'the seed is at the head');
  const balance = (tokenAddress: string, owner: string) =>
    net.wallet.client.readContract({
      address: tokenAddress as Address,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [owner as Address],
      blockNumber: BigInt(head),
    });
  const expected = await Promise.all(
    seed.pools.map(async (p) => ({
      pool: p.address,
      balances: [String(await balance(p.token0, p.address)), String(await balance(p.token1, p.address))].sort(),
    })),
  );
  t.ok(
    expected.some((p) => p.pool === newPool),
    'the new pool is on chain and in the seed',
  );
  for (const [name, server] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const res = await fetch(`${server.url}/blockchains/pools?chainId=${chain.chainId}`);
    const pools = ((await res.json()) as { data: { pairAddress: string; baseTokenBalance: string; quoteTokenBalance: string }[] }).data;
    t.same(
      pools
        .map((p) => ({ pool: p.pairAddress, balances: [p.baseTokenBalance, p.quoteTokenBalance].sort() }))
        .sort((x, y) => (x.pool < y.pool ? -1 : 1)),
      [...expected].sort((x, y) => (x.pool < y.pool ? -1 : 1)),
      `${name}: every pool a fresh seed finds, with the chain's balances at block ${head}`,
    );
  }
});
