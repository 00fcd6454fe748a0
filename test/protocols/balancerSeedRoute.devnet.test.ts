// Balancer v2 through the service's own seams on the devnet's Balancer (startDevnet({ balancer: true })):
// - seeding (seedChains with the devnet catalogue's balancer/balancerV2 entry) finds exactly the 4 devnet pools from
//   the Vault's TokensRegistered logs, each one N-token record whose state equals readBalancerPools at the snapshot's
//   block (amplification and rates taken as a swap in that block takes them);
// - the route search's pricing (pricing graph pair views, findRoutes, toPricedPath, pricePath) gives, for every
//   ordered token pair of every pool, exact input and exact output at several sizes, the amount
//   BalancerQueries.querySwap gives at that block, to the wei;
// - two pair views of one pool are one pool: no path uses the same poolId twice;
// - no executor on this branch runs Balancer pools (the Vault executor is another change): bestTrade returns no route
//   through them, alone or mixed with Uniswap pools.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, zeroAddress } from 'viem';
import { BALANCER_ARTIFACT_PATHS } from '../../seeds/devnet/deployBalancer.ts';
import { MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { multicallBatched } from '../../src/chain/multicallBatched.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { balancerV2 } from '../../src/protocols/balancer/balancerV2.ts';
import { readBalancerPools } from '../../src/protocols/balancer/readBalancerPools.ts';
import { balancerRecord, type SnapshotPoolBalancer, tradeableIndices } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import { ampAt } from '../../src/protocols/balancerStable/stableMath.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { executorsFor } from '../../src/routing/executors.ts';
import { findRoutes } from '../../src/routing/findRoutes.ts';
import { pricePath, toPricedPath } from '../../src/routing/priceRoutes.ts';
import { artifactAbi, devnetWallet } from '../helpers/devnetWallet.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const devnet = await startDevnet({ balancer: true });
t.teardown(() => devnet.stop());
const bal = devnet.balancer!;
const { client } = devnetWallet(devnet);
const catalog = loadCatalog(join(ROOT, 'catalog'));
const chain = catalog.chain('devnet')!;
const QUERIES_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.BalancerQueries);

const dir = mkdtempSync(join(tmpdir(), 'balancer-seed-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const report = await seedChains({
  chains: [chain],
  rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
  snapshotDir: dir,
  write: false,
  progress: 'none',
  log: () => {},
});
const snapshot = report.chains[0].snapshot!;
const block = BigInt(snapshot.blockNumber);
const seeded = snapshot.pools.filter((p): p is SnapshotPoolBalancer => p.version === 'balancerV2');

t.test('seeding finds the 4 devnet pools, state equal to readBalancerPools at the block', async (t) => {
  t.same(
    seeded.map((p) => p.address).sort(),
    bal.pools.map((p) => p.poolId.toLowerCase()).sort(),
    'one record per devnet pool, named by its poolId',
  );
  const { timestamp } = await client.getBlock({ blockNumber: block });
  const states = await readBalancerPools(
    client,
    { blockNumber: block, vault: bal.contracts.vault },
    bal.pools.map((p) => ({ address: p.address, poolId: p.poolId, kind: p.kind === 'weighted' ? 'balancerWeighted' : 'balancerStable' })),
    (calls) => multicallBatched(client, { multicall3: MULTICALL3_ADDRESS, blockNumber: block, batchSize: 100, concurrency: 1 }, calls),
  );
  bal.pools.forEach((p, i) => {
    const s = states[i];
    if (typeof s === 'string') throw new Error(`${p.name}: ${s}`);
    const ampUpdating = s.kind === 'balancerStable' && timestamp < s.amp.endTime;
    const expected = balancerRecord(
      s,
      { dex: 'balancer', vault: bal.contracts.vault, factory: p.factory, timestamp, ampUpdating },
      s.kind === 'balancerStable' ? ampAt(s.amp, timestamp) : undefined,
    );
    const got = seeded.find((x) => x.address === p.poolId.toLowerCase());
    t.same(got, expected, `${p.name}: the seeded record`);
    t.equal(balancerV2.checkSnapshot(got!), undefined, `${p.name}: passes checkSnapshot`);
  });
  const rated = seeded.filter((p) => balancerV2.rereadEachBlock!(p)).map((p) => p.address);
  const expectRated = bal.pools.filter((p) => p.rateProviders.some((r) => r !== zeroAddress) || p.name === 'USDC-USDT-DAI');
  t.same(
    rated.sort(),
    expectRated.map((p) => p.poolId.toLowerCase()).sort(),
    'the rate-provided and the ramping pool are re-read each block',
  );
});

/** BalancerQueries.querySwap at the snapshot's block (undefined: it reverts). */
async function querySwap(
  poolId: Hex,
  assetIn: string,
  assetOut: string,
  tradeType: TradeType,
  amount: bigint,
): Promise<bigint | undefined> {
  const data = encodeFunctionData({
    abi: QUERIES_ABI,
    functionName: 'querySwap',
    args: [
      { poolId, kind: tradeType === 'exactIn' ? 0 : 1, assetIn: assetIn as Address, assetOut: assetOut as Address, amount, userData: '0x' },
      { sender: zeroAddress, fromInternalBalance: false, recipient: zeroAddress, toInternalBalance: false },
    ],
  });
  try {
    const { data: ret } = await client.call({ to: bal.contracts.balancerQueries, data, blockNumber: block });
    return decodeFunctionResult({ abi: QUERIES_ABI, functionName: 'querySwap', data: ret as Hex }) as bigint;
  } catch {
    return undefined;
  }
}

const graph = new PoolGraph([snapshot], catalog);
const index = pricingGraphOf(graph, catalog).chain(chain.chainId)!;

t.test('route pricing through each pair view equals querySwap to the wei', async (t) => {
  let cases = 0;
  for (const p of seeded) {
    const traded = tradeableIndices(p);
    for (const i of traded)
      for (const j of traded) {
        if (i === j) continue;
        const [tokenIn, tokenOut] = [p.tokens[i], p.tokens[j]];
        const paths = findRoutes(index, tokenIn, tokenOut, { maxHops: 1, allow: (e) => e.address === p.address });
        t.equal(paths.length, 1, `${p.address.slice(0, 10)} ${tokenIn.slice(0, 8)}->${tokenOut.slice(0, 8)}: one path`);
        const priced = toPricedPath(index, paths[0])!;
        for (const tradeType of ['exactIn', 'exactOut'] as const) {
          const balance = BigInt(p.balances[tradeType === 'exactIn' ? i : j]);
          const amounts = [balance / 10n ** 7n, balance / 1000n, balance / 20n, balance / 5n].filter((a) => a > 0n);
          const quotes = pricePath(priced, tradeType, amounts);
          for (const [k, amount] of amounts.entries()) {
            const q = quotes[k];
            const oracle = await querySwap(p.address as Hex, tokenIn, tokenOut, tradeType, amount);
            const ours = q.ok ? (tradeType === 'exactIn' ? q.legs[0].amountOut : q.legs[0].amountIn) : undefined;
            t.equal(ours, oracle, `${p.poolKind} ${tradeType} ${amount}: ${ours} = querySwap ${oracle}`);
            if (q.ok) t.match(q.legs[0], { pool: p.address, version: 'balancerV2', dex: 'balancer', kind: p.poolKind });
            cases++;
          }
        }
      }
  }
  t.ok(cases >= 80, `${cases} cases`);
});

t.test('two pair views of one pool are one pool in a path', async (t) => {
  const usdc = chain.tokens.find((x) => x.symbol === 'USDC')!.address.toLowerCase();
  const dai = chain.tokens.find((x) => x.symbol === 'DAI')!.address.toLowerCase();
  const paths = findRoutes(index, usdc, dai, { maxHops: 3, allow: (e) => e.version === 'balancerV2', maxRoutes: 100 });
  t.ok(paths.length >= 2, `${paths.length} Balancer paths USDC -> DAI`);
  for (const path of paths) {
    const ids = path.pools.map((e) => e.address);
    t.equal(new Set(ids).size, ids.length, `${ids.map((a) => a.slice(0, 10)).join(' > ')}: no pool twice`);
  }
});

t.test('no executor runs Balancer pools on this branch: no route through them', async (t) => {
  const usdc = chain.tokens.find((x) => x.symbol === 'USDC')!.address.toLowerCase();
  const dai = chain.tokens.find((x) => x.symbol === 'DAI')!.address.toLowerCase();
  const request = {
    tokenIn: usdc,
    tokenOut: dai,
    tradeType: 'exactIn' as const,
    amount: 10n ** 9n,
    maxHops: 2,
    maxSplits: 3,
    gasPriceWei: 0n,
  };
  t.same(bestTrade(index, { ...request, allow: (e) => e.version === 'balancerV2' }), { ok: false, code: 'NO_ROUTE' }, 'Balancer only');
  t.same(
    executorsFor(chain, [
      { dex: 'balancer', version: 'balancerV2' },
      { dex: 'uniswap', version: 'v3' },
    ]),
    [],
    'mixed path: no executor',
  );
  const all = bestTrade(index, { ...request, allow: () => true });
  t.ok(all.ok, 'a route through the Uniswap pools');
  if (all.ok)
    t.notOk(
      all.trade.splits.flatMap((s) => s.route.legs).some((l) => l.version === 'balancerV2'),
      'none of its legs is Balancer',
    );
});
