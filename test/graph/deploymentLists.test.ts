// A token's pools of one deployment (ChainPoolIndex.poolsOf / basePoolsOf with a deployment): exactly the token's
// list kept to that deployment, in its order, in a freshly built index and in one derived by a followed block; and a
// search kept to one deployment (findRoutes' PoolFilter naming it) selects and orders exactly the paths the same
// filter finds without naming it, which reads every pool of each token.
import t from 'tap';
import { ChainPoolIndex, type PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { findRoutes, type PoolFilter, selectCandidates } from '../../src/routing/findRoutes.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { chain, pools, tokens } = shippedDevnetGraph();
const fresh = new ChainPoolIndex(chain, pools);
const deployments = [...new Set(tokens.flatMap((a) => fresh.poolsOf(a).map((e) => e.deployment)))];
const names = (list: readonly PoolEntry[]) => list.map((e) => `${e.address}:${e.token0}/${e.token1}`);

t.test('a token’s pools of one deployment: its list kept to that deployment, fresh and after a block', async (t) => {
  t.ok(deployments.length >= 3, `${deployments.length} deployments`);
  // Every v2 pool's reserves scaled (each moves in its lists), one pool removed.
  const gone = pools.find((p) => p.version === 'v2')!;
  const scaled = pools
    .filter((p): p is SnapshotPoolV2 => p.version === 'v2' && p !== gone)
    .map((p, i) => ({ ...p, reserve0: String((BigInt(p.reserve0) * BigInt(3 + (i % 5))) / 4n), reserve1: p.reserve1 }));
  const derived = fresh.withChanges(scaled, [gone.address]);
  const rebuilt = new ChainPoolIndex(chain, [...pools.filter((p) => p.version !== 'v2'), ...scaled]);
  let lists = 0;
  for (const [label, index, whole] of [
    ['fresh', fresh, fresh],
    ['derived', derived, rebuilt],
  ] as const) {
    for (const a of tokens) {
      for (const d of deployments) {
        const kept = (list: readonly PoolEntry[]) => names(list.filter((e) => e.deployment === d));
        t.strictSame(names(index.poolsOf(a, d)), kept(whole.poolsOf(a)), `${label} ${a} ${d}: its pools`);
        t.strictSame(names(index.basePoolsOf(a, d)), kept(whole.basePoolsOf(a)), `${label} ${a} ${d}: its pools to base tokens`);
        if (index.poolsOf(a, d).length > 0) lists++;
      }
    }
  }
  t.ok(lists > 20, `${lists} non-empty lists compared`);
});

t.test('a search kept to one deployment selects what the same filter selects reading every pool', async (t) => {
  let compared = 0;
  for (const d of deployments) {
    const unnamed = (e: PoolEntry): boolean => e.deployment === d;
    const named: PoolFilter = Object.assign((e: PoolEntry): boolean => e.deployment === d, { deployment: d });
    for (const a of tokens) {
      for (const b of tokens) {
        if (a === b) continue;
        for (const maxHops of [1, 2, 3]) {
          const pick = (allow: PoolFilter) => names([...selectCandidates(fresh, a, b, { maxHops, allow })]);
          t.strictSame(pick(named), pick(unnamed), `${d} ${a}->${b} ${maxHops} hops: the candidate pools`);
          const paths = (allow: PoolFilter) => findRoutes(fresh, a, b, { maxHops, allow }).map((p) => names(p.pools).join(' '));
          t.strictSame(paths(named), paths(unnamed), `${d} ${a}->${b} ${maxHops} hops: the paths`);
          if (pick(unnamed).length > 0) compared++;
        }
      }
    }
  }
  t.ok(compared > 50, `${compared} non-empty selections compared`);
});
