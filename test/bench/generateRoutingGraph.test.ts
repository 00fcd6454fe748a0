// The routing benchmark's generated chain (bench/lib/generateScale.ts, generateRoutingGraph) must be what the
// service loads and what the Uniswap SDKs accept, with every pool priced identically by both: otherwise the
// benchmark's comparisons with the SDKs would measure the fixture, not the search.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateRoutingGraph, type RoutingGraphOptions } from '../../bench/lib/generateScale.ts';
import { getSqrtRatioAtTick } from '../../src/amm/tickMath.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { protocolOf, type SnapshotPool, snapshotProtocol } from '../../src/protocols/registry.ts';
import { type SdkToken, sdkAmount, sdkCore, sdkRaw, sdkV2Pair, sdkV3Pool } from '../helpers/sdkPools.ts';

const OPTIONS: RoutingGraphOptions = { pools: 400, tokens: 60, seed: 3 };
const dir = mkdtempSync(join(tmpdir(), 'routing-graph-test-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fixture = generateRoutingGraph(dir, OPTIONS);
const catalog = loadCatalog(fixture.catalogDir);
const { snapshots, errors } = loadSnapshots(fixture.snapshotDir);
const chain = catalog.chain(31337)!;
const pools: readonly SnapshotPool[] = snapshots.find((s) => s.chainId === 31337)!.pools;

t.test('the catalogue and snapshot load as the service loads them, with the requested size', async (t) => {
  t.same(errors, []);
  t.same(new PoolGraph(snapshots, catalog).ignored, []);
  t.equal(pools.length, OPTIONS.pools);
  t.equal(fixture.v2Pools + fixture.v3Pools, OPTIONS.pools);
  const withPools = new Set(pools.flatMap((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()]));
  t.equal(withPools.size, OPTIONS.tokens);
  t.same([...withPools].sort(), [...fixture.tokens].sort());
  t.same(
    fixture.tokens.slice(0, fixture.baseTokens),
    chain.baseTokens.map((a) => a.toLowerCase()).filter((a) => fixture.tokens.includes(a)),
  );
});

t.test(
  'every v3 pool is consistent: ticks inside its window, nets summing to zero, in-range liquidity, price inside its tick',
  async (t) => {
    const problems: string[] = [];
    let checked = 0;
    for (const p of pools) {
      if (p.version !== 'v3') continue;
      const s = p.tickSpacing;
      const [first, last] = p.bitmapWords;
      if (!p.ticks.every(([tick]) => tick % s === 0 && Math.floor(tick / s) >> 8 >= first && Math.floor(tick / s) >> 8 <= last))
        problems.push(`${p.address}: a tick off the spacing or outside the window`);
      if (p.ticks.reduce((sum, [, net]) => sum + BigInt(net), 0n) !== 0n) problems.push(`${p.address}: liquidityNet does not sum to zero`);
      if (p.ticks.filter(([tick]) => tick <= p.tick).reduce((sum, [, net]) => sum + BigInt(net), 0n) !== BigInt(p.liquidity))
        problems.push(`${p.address}: in-range liquidity`);
      const sqrt = BigInt(p.sqrtPriceX96);
      if (!(getSqrtRatioAtTick(p.tick) <= sqrt && sqrt < getSqrtRatioAtTick(p.tick + 1)))
        problems.push(`${p.address}: price outside its tick`);
      checked++;
    }
    t.same(problems, []);
    t.equal(checked, fixture.v3Pools);
  },
);

t.test('the Uniswap SDKs price every pool as our engine does (1% of a side, both directions)', async (t) => {
  const tokens = new Map<string, SdkToken>();
  const token = (address: string): SdkToken => {
    const a = address.toLowerCase();
    let x = tokens.get(a);
    if (!x) {
      x = new sdkCore.Token(31337, a, chain.tokens.find((c) => c.address.toLowerCase() === a)!.decimals);
      tokens.set(a, x);
    }
    return x;
  };
  const differences: string[] = [];
  let compared = 0;
  let swaps = 0;
  for (const p of pools) {
    if (p.version === 'v4' || p.version === 'balancerV2') continue; // the generated graph has none
    const [t0, t1] = [token(p.token0), token(p.token1)];
    const ours = snapshotProtocol(p.version).fromSnapshot(p);
    const sdk = p.version === 'v3' ? sdkV3Pool(p, t0, t1) : sdkV2Pair(p, t0, t1);
    if (!sdk) continue;
    for (const zeroForOne of [true, false]) {
      // 1% of the output side's balance, converted to input at the pool's own mid price.
      const out = BigInt(zeroForOne ? p.balance1 : p.balance0) / 100n;
      const mid =
        p.version === 'v3' ? { num: BigInt(p.sqrtPriceX96) ** 2n, den: 1n << 192n } : { num: BigInt(p.reserve1), den: BigInt(p.reserve0) };
      const amountIn = zeroForOne ? (out * mid.den) / mid.num : (out * mid.num) / mid.den;
      if (amountIn === 0n) continue;
      const [q] = protocolOf(ours.kind).quoteLadder(ours, zeroForOne, 'exactIn', [amountIn]);
      const [theirs] = await sdk.getOutputAmount(sdkAmount(zeroForOne ? t0 : t1, amountIn));
      swaps++;
      if (!q!.ok) continue;
      if (q!.amountOut !== sdkRaw(theirs))
        differences.push(`${p.version} ${p.address} zeroForOne=${zeroForOne} ${amountIn}: ours ${q!.amountOut}, SDK ${sdkRaw(theirs)}`);
      compared++;
    }
  }
  t.same(differences, []);
  // Nearly every such swap fills (a pool whose whole liquidity sits on one side of the price cannot).
  t.ok(compared >= swaps * 0.9, `${compared} of ${swaps} swaps filled and compared`);
});

t.test('the same seed writes the same files', async (t) => {
  const again = mkdtempSync(join(tmpdir(), 'routing-graph-test-'));
  t.teardown(() => rmSync(again, { recursive: true, force: true }));
  const second = generateRoutingGraph(again, OPTIONS);
  t.equal(readFileSync(join(second.snapshotDir, 'devnet.json'), 'utf8'), readFileSync(join(fixture.snapshotDir, 'devnet.json'), 'utf8'));
  t.equal(readFileSync(join(second.catalogDir, 'devnet.json'), 'utf8'), readFileSync(join(fixture.catalogDir, 'devnet.json'), 'utf8'));
});

t.test('v4Pools adds loadable hookless v4 pools after the same v2/v3 pools', async (t) => {
  const withV4 = mkdtempSync(join(tmpdir(), 'routing-graph-test-'));
  t.teardown(() => rmSync(withV4, { recursive: true, force: true }));
  const v4 = generateRoutingGraph(withV4, { ...OPTIONS, v4Pools: 40 });
  const loaded = loadSnapshots(v4.snapshotDir);
  t.same(loaded.errors, []);
  const v4Catalog = loadCatalog(v4.catalogDir);
  t.same(new PoolGraph(loaded.snapshots, v4Catalog).ignored, []);
  const all = loaded.snapshots.find((s) => s.chainId === 31337)!.pools;
  t.equal(v4.v4Pools, 40);
  t.equal(all.length, OPTIONS.pools + 40);
  t.same(all.slice(0, OPTIONS.pools), pools, 'the v2/v3 pools are those generated without v4');
  const added = all.slice(OPTIONS.pools);
  t.ok(
    added.every((p) => p.version === 'v4' && p.hooks === '0x0000000000000000000000000000000000000000' && p.protocolFee === 0),
    'every added pool is a hookless v4 pool without protocol fee',
  );
  // Each v4 pool prices as the v3 pool of the same state would (the same walk, no protocol fee).
  let compared = 0;
  for (const p of added) {
    if (p.version !== 'v4') continue;
    const { poolManager: _m, hooks: _h, lpFee: _l, protocolFee: _p, ...rest } = p;
    const v3State = { ...rest, version: 'v3' as const, address: `0x${p.address.slice(-40)}` };
    const ours = protocolOf('uniswapV4').quoteLadder(protocolOf('uniswapV4').fromSnapshot(p as never), true, 'exactIn', [10n ** 9n])[0];
    const asV3 = protocolOf('uniswapV3').quoteLadder(protocolOf('uniswapV3').fromSnapshot(v3State as never), true, 'exactIn', [
      10n ** 9n,
    ])[0];
    t.same(ours.ok ? ours.amountOut : ours.code, asV3.ok ? asV3.amountOut : asV3.code);
    compared++;
  }
  t.equal(compared, 40);
});
