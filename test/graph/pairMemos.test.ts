// A pair's candidate paths kept across followed blocks (ChainPoolIndex.pairMemo): after a block, every pair's kept or
// re-made paths equal findRoutes' on an index built afresh over the new pools (same USD prices: a derived index keeps
// its first state's), exactly; the pairs whose selection read none of the changed list entries keep their value (the
// same object, not made again), and the others are made again.
import t from 'tap';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import { findRoutes, type PoolPath } from '../../src/routing/findRoutes.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { chain, pools, prices, tokens } = shippedDevnetGraph();
const bases = new Set(new ChainPoolIndex(chain, pools).baseTokens);
const all = (): boolean => true;
const names = (paths: readonly PoolPath[]) => paths.map((p) => p.pools.map((e) => `${e.address}@${e.score}`).join(' '));
const cases = tokens.flatMap((a) => tokens.filter((b) => b !== a).flatMap((b) => [2, 3].map((maxHops) => ({ a, b, maxHops }))));
const key = (c: (typeof cases)[number]): string => `${c.a}:${c.b}:${c.maxHops}`;

/** Every case's paths through pairMemo, and how many were made (not kept). */
function memoised(index: ChainPoolIndex): { paths: Map<string, PoolPath[]>; made: Set<string> } {
  const paths = new Map<string, PoolPath[]>();
  const made = new Set<string>();
  for (const c of cases)
    paths.set(
      key(c),
      index.pairMemo(key(c), () => {
        made.add(key(c));
        return findRoutes(index, c.a, c.b, { maxHops: c.maxHops, allow: all });
      }),
    );
  return { paths, made };
}

/** A v2 pool with both reserves scaled by num/den (its depth moves, its price does not). */
function scaled(p: SnapshotPool, num: bigint, den: bigint): SnapshotPool {
  if (p.version !== 'v2') throw new Error('v2 only');
  return { ...p, reserve0: String((BigInt(p.reserve0) * num) / den), reserve1: String((BigInt(p.reserve1) * num) / den) };
}

t.test('a block keeps the pairs it did not touch and re-makes the others, equal to a fresh selection', async (t) => {
  // Block 1: the pool between the two tokens that are no base token. Block 2: several v2 pools, base pairs among them,
  // made deeper or shallower (their places in the lists move).
  const outer = pools.find((p) => p.version === 'v2' && !bases.has(p.token0.toLowerCase()) && !bases.has(p.token1.toLowerCase()))!;
  const v2 = pools.filter((p) => p.version === 'v2' && p !== outer);
  const blocks: SnapshotPool[][] = [[scaled(outer, 1n, 3n)], v2.slice(0, 4).map((p, i) => scaled(p, i % 2 ? 1n : 9n, i % 2 ? 7n : 2n))];
  let index = new ChainPoolIndex(chain, pools);
  let state = pools;
  let before = memoised(index);
  t.equal(before.made.size, cases.length, 'every pair made on the first index');
  for (const [n, block] of blocks.entries()) {
    const changed = new Set(block.map((p) => p.address));
    state = [...state.filter((p) => !changed.has(p.address)), ...block];
    index = index.withChanges(block, []);
    const fresh = new ChainPoolIndex(chain, state, undefined, prices);
    const after = memoised(index);
    for (const c of cases) {
      const expected = names(findRoutes(fresh, c.a, c.b, { maxHops: c.maxHops, allow: all }));
      t.strictSame(names(after.paths.get(key(c))!), expected, `block ${n + 1}: ${key(c)}`);
      if (!after.made.has(key(c))) t.equal(after.paths.get(key(c)), before.paths.get(key(c)), `block ${n + 1}: ${key(c)} kept as it was`);
    }
    const kept = cases.length - after.made.size;
    // Block 1 leaves every list the base tokens' pairs read; block 2 changes pools between base tokens, read by all.
    if (n === 0) t.ok(kept > 0 && after.made.size > 0, `block 1: ${kept} of ${cases.length} pairs kept, ${after.made.size} made again`);
    else t.equal(kept, 0, 'block 2: every pair made again');
    before = after;
  }
});

t.test("a block bringing a token's first pools re-makes the pairs that read its (then empty) lists", async (t) => {
  // The index starts without any pool of one token (it has no lists then, nor a name in their keys); a block adds
  // one. Every pair that looked for that token's pools must be made again, equal to a fresh selection.
  const lonely = tokens.find((x) => !bases.has(x))!;
  const holds = (p: SnapshotPool): boolean => p.token0.toLowerCase() === lonely || p.token1.toLowerCase() === lonely;
  const without = pools.filter((p) => !holds(p));
  const block = [pools.find(holds)!];
  const index = new ChainPoolIndex(chain, without, undefined, prices);
  const before = memoised(index);
  const reading = cases.filter((c) => c.a === lonely || c.b === lonely);
  for (const c of reading) t.strictSame(before.paths.get(key(c)), [], `${key(c)}: no paths before the block`);
  const next = index.withChanges(block, []);
  const fresh = new ChainPoolIndex(chain, [...without, ...block], undefined, prices);
  const after = memoised(next);
  for (const c of cases)
    t.strictSame(
      names(after.paths.get(key(c))!),
      names(findRoutes(fresh, c.a, c.b, { maxHops: c.maxHops, allow: all })),
      `${key(c)}: as a fresh selection`,
    );
  for (const c of reading) t.ok(after.made.has(key(c)), `${key(c)}: made again`);
});
