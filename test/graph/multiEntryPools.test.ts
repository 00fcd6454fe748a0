// A followed block over pools with more than one entry (a Balancer pool of three or more tokens: one entry per token
// pair, PoolProtocol.pairViews) and pools with one: ChainPoolIndex.withChanges replaces a changed pool's every entry
// and drops a removed pool's every entry, so each list (a token's, a token's of one deployment, a pair's, a token's to
// base tokens) is the list an index built afresh over the new pools has.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateRoutingGraph } from '../../bench/lib/generateScale.ts';
import { deploymentId } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { ChainPoolIndex, type PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { usdPrices } from '../../src/graph/usdPrices.ts';
import { snapshotProtocol } from '../../src/protocols/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'multi-entry-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fixture = generateRoutingGraph(dir, { pools: 1500, tokens: 150, seed: 5, balancerPools: 120 });
const catalog = loadCatalog(fixture.catalogDir);
const chainId = 31337;
const chain = catalog.chain(chainId)!;
const pools = new PoolGraph(loadSnapshots(fixture.snapshotDir).snapshots, catalog).pools(chainId);
const tokens = new Map(chain.tokens.map((x) => [x.address.toLowerCase(), x]));
const prices = usdPrices(chain, pools, (a) => tokens.get(a.toLowerCase()));
const views = (p: (typeof pools)[number]): number => snapshotProtocol(p.version).pairViews?.(p)?.length ?? 1;

/** A list as names, entries of equal depth and address (a pool's pair views) in token order. */
function names(list: readonly PoolEntry[]): string[] {
  const out = list.map((e) => `${e.score}|${e.address}|${e.token0}|${e.token1}`);
  // deepestFirst leaves a pool's pair views of equal depth in no set order: compare them as a set.
  for (let i = 0; i < out.length; ) {
    let j = i + 1;
    while (j < out.length && list[j].score === list[i].score && list[j].address === list[i].address) j++;
    out.splice(i, j - i, ...out.slice(i, j).sort());
    i = j;
  }
  return out;
}

t.test('a block changing and removing pools of several entries leaves every list as a fresh index has it', async (t) => {
  const multi = pools.filter((p) => views(p) > 2);
  t.ok(multi.length >= 4, `${multi.length} pools of three or more tokens`);
  const single = pools.filter((p) => views(p) === 1);
  // Changed: two multi-entry pools and a one-entry pool (new objects, as a block makes); removed: one of each.
  const changed = [multi[0], multi[1], single[0]].map((p) => ({ ...p }));
  const removed = [multi[2].address, single[1].address];
  const after = pools.filter((p) => !removed.includes(p.address)).map((p) => changed.find((c) => c.address === p.address) ?? p);
  const derived = new ChainPoolIndex(chain, pools, undefined, prices).withChanges(changed, removed);
  const fresh = new ChainPoolIndex(chain, after, undefined, prices);
  const all = [...new Set(after.flatMap((p) => [p.token0.toLowerCase(), p.token1.toLowerCase()]))].sort();
  const deployments = chain.dexes.map((d) => deploymentId(d.slug, d.version));
  let lists = 0;
  for (const a of all) {
    for (const deployment of [undefined, ...deployments]) {
      t.strictSame(names(derived.poolsOf(a, deployment)), names(fresh.poolsOf(a, deployment)), `${a} ${deployment ?? ''}`);
      t.strictSame(names(derived.basePoolsOf(a, deployment)), names(fresh.basePoolsOf(a, deployment)), `${a} to bases ${deployment ?? ''}`);
      lists += 2;
    }
    for (const b of all) if (a < b) t.strictSame(names(derived.pairPools(a, b)), names(fresh.pairPools(a, b)), `${a} ${b}`);
  }
  for (const address of removed)
    t.notOk(
      all.some((a) => derived.poolsOf(a).some((e) => e.address === address)),
      `${address} gone`,
    );
  const kept = multi[0].address;
  t.equal(
    all.reduce((n, a) => n + derived.poolsOf(a).filter((e) => e.address === kept).length, 0),
    2 * views(multi[0]),
    'a changed pool of several tokens: each pair view in both its tokens lists, once',
  );
  t.ok(lists > 0);
});
