// bench:scale's generated graph (bench/lib/generateScale.ts, generateScale) must price every pool at one price per
// token, the devnet tokens at the devnet pools' own prices: otherwise a devnet pair finds detours through generated
// tokens that pay many times what the devnet pools pay (arbitrage), and the bench compares different trades, not the
// same pairs' cost on a larger graph.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateScale } from '../../bench/lib/generateScale.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';

interface RawPool {
  dex: string;
  version: string;
  token0: string;
  token1: string;
  reserve0?: string;
  reserve1?: string;
  sqrtPriceX96?: string;
}

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'scale-graph-test-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fixture = generateScale(dir, { pools: 3_000, tokens: 100, v3Share: 0.4, seed: 7 });
const catalog = loadCatalog(fixture.catalogDir);
const { snapshots, errors } = loadSnapshots(fixture.snapshotDir);
const decimals = new Map(catalog.chain(31337)!.tokens.map((tk) => [tk.address.toLowerCase(), tk.decimals]));
const devnetPools = (JSON.parse(readFileSync(join(root, 'seeds/snapshots/devnet.json'), 'utf8')) as { pools: RawPool[] }).pools;
const generatedPools = (JSON.parse(readFileSync(join(fixture.snapshotDir, 'devnet.json'), 'utf8')) as { pools: RawPool[] }).pools.slice(
  devnetPools.length,
);

/** token1 per token0, in whole tokens, from a pool's reserves or its sqrt price. */
function price(p: RawPool): number {
  const raw = p.reserve0 ? Number(p.reserve1) / Number(p.reserve0) : (Number(BigInt(p.sqrtPriceX96!)) / 2 ** 96) ** 2;
  return raw * 10 ** (decimals.get(p.token0.toLowerCase())! - decimals.get(p.token1.toLowerCase())!);
}

// USD prices of the devnet tokens from the devnet's own Uniswap v2 pools against USDC (and DAI's SushiSwap one).
const usdc = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const usd = new Map<string, number>([[usdc, 1]]);
for (const dex of ['uniswap', 'sushiswap'])
  for (const p of devnetPools) {
    if (p.version !== 'v2' || p.dex !== dex) continue;
    const [a, b] = [p.token0.toLowerCase(), p.token1.toLowerCase()];
    if (b === usdc && !usd.has(a)) usd.set(a, price(p));
    if (a === usdc && !usd.has(b)) usd.set(b, 1 / price(p));
  }

t.test('the generated graph loads as the service loads it', async (t) => {
  t.same(errors, []);
  t.same(new PoolGraph(snapshots, catalog).ignored, []);
  t.equal(generatedPools.length, 3_000);
});

t.test('every generated token has one price: all its pools against priced tokens agree within 0.1%', async (t) => {
  const implied = new Map<string, number[]>();
  for (const p of generatedPools) {
    const [a, b] = [p.token0.toLowerCase(), p.token1.toLowerCase()];
    if (usd.has(b) && !usd.has(a)) implied.set(a, [...(implied.get(a) ?? []), price(p) * usd.get(b)!]);
    if (usd.has(a) && !usd.has(b)) implied.set(b, [...(implied.get(b) ?? []), usd.get(a)! / price(p)]);
  }
  t.ok(implied.size > 50, `${implied.size} generated tokens priced against devnet tokens`);
  let spread = 1;
  for (const prices of implied.values()) spread = Math.max(spread, Math.max(...prices) / Math.min(...prices));
  t.ok(spread < 1.001, `largest spread of one token's implied prices: ${spread}`);
  // Pools between two generated tokens: their price is the ratio of the tokens' implied prices.
  let checked = 0;
  let worst = 1;
  for (const p of generatedPools) {
    const [a, b] = [implied.get(p.token0.toLowerCase())?.[0], implied.get(p.token1.toLowerCase())?.[0]];
    if (a === undefined || b === undefined) continue;
    const r = price(p) / (a / b);
    worst = Math.max(worst, r, 1 / r);
    checked++;
  }
  t.ok(checked > 100, `${checked} pools between generated tokens checked`);
  t.ok(worst < 1.001, `largest mismatch of a generated pair's price: ${worst}`);
});

t.test('hubs: false generates as many pools, none of them at a devnet token', async (t) => {
  const detachedDir = mkdtempSync(join(tmpdir(), 'scale-graph-detached-'));
  t.teardown(() => rmSync(detachedDir, { recursive: true, force: true }));
  const detached = generateScale(detachedDir, { pools: 3_000, tokens: 100, v3Share: 0.4, seed: 7, hubs: false });
  const pools = (JSON.parse(readFileSync(join(detached.snapshotDir, 'devnet.json'), 'utf8')) as { pools: RawPool[] }).pools.slice(
    devnetPools.length,
  );
  const devnetTokens = new Set(devnetPools.flatMap((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()]));
  t.ok(devnetTokens.size >= 7, `${devnetTokens.size} devnet tokens with pools`);
  const at = (p: RawPool) => devnetTokens.has(p.token0.toLowerCase()) || devnetTokens.has(p.token1.toLowerCase());
  t.equal(pools.length, 3_000);
  t.equal(pools.filter(at).length, 0, 'no generated pool holds a devnet token');
  t.same(new PoolGraph(loadSnapshots(detached.snapshotDir).snapshots, loadCatalog(detached.catalogDir)).ignored, []);
  // The default fixture: over a third of its pools hold one (its draws for a devnet token that pair no pool twice).
  const hubbed = generatedPools.filter(at).length;
  t.ok(hubbed > 1_000, `${hubbed} of 3,000 default pools hold a devnet token`);
});
