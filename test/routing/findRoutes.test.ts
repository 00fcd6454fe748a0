// findRoutes over a hand-made graph (test/helpers/handGraph.ts) whose paths are listed by hand: every simple path
// within the hop limit, direct paths first, then the others by their shallowest pool (its USD score, also worked out
// by hand; ties: fewer hops first), direct paths always kept, at most maxRoutes, only the pools the DEX filter allows. The native asset has no pool
// of its own: a native end is searched from its wrapped token (tradeEnds).
import t from 'tap';
import type { PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { findRoutes, type PoolPath } from '../../src/routing/findRoutes.ts';
import { tradeEnds } from '../../src/routing/tradeEnds.ts';
import { DAI, ETH, handIndex, P, USDC, WETH, XYZ } from '../helpers/handGraph.ts';

const index = handIndex();
const all = (): boolean => true;
const pools = (paths: readonly PoolPath[]): string[][] => paths.map((p) => p.pools.map((e) => e.address));

t.test('findRoutes: every simple path within the hop limit, the deepest shallowest pool first, then fewer hops', async (t) => {
  const paths = findRoutes(index, WETH, XYZ, { maxHops: 3, allow: all });
  // Shallowest pool 100,000 USD: P2 + P4, P1 + P3 + P4; 1,000 USD: P1 + P5, P2 + P3 + P5.
  t.strictSame(pools(paths), [
    [P(2), P(4)],
    [P(1), P(3), P(4)],
    [P(1), P(5)],
    [P(2), P(3), P(5)],
  ]);
  t.strictSame(
    paths.map((p) => p.tokens),
    [
      [WETH, DAI, XYZ],
      [WETH, USDC, DAI, XYZ],
      [WETH, USDC, XYZ],
      [WETH, DAI, USDC, XYZ],
    ],
    'the tokens between the pools',
  );
  t.strictSame(
    pools(findRoutes(index, XYZ, WETH, { maxHops: 3, allow: all })),
    [
      [P(4), P(2)],
      [P(4), P(3), P(1)],
      [P(5), P(1)],
      [P(5), P(3), P(2)],
    ],
    'the other way: the same paths reversed',
  );
});

t.test('findRoutes: the hop limit', async (t) => {
  t.strictSame(pools(findRoutes(index, WETH, XYZ, { maxHops: 2, allow: all })), [
    [P(2), P(4)],
    [P(1), P(5)],
  ]);
  t.strictSame(findRoutes(index, WETH, XYZ, { maxHops: 1, allow: all }), [], 'no pool joins WETH and XYZ');
  t.strictSame(pools(findRoutes(index, WETH, USDC, { maxHops: 1, allow: all })), [[P(1)]]);
  t.strictSame(findRoutes(index, WETH, USDC, { maxHops: 0, allow: all }), [], 'no hop, no path, not even the direct pool');
});

t.test('findRoutes: at most maxRoutes, direct paths always, the rest by their shallowest pool', async (t) => {
  // The two paths whose shallowest pool holds 100,000 USD, in the order found (two hops first).
  t.strictSame(pools(findRoutes(index, WETH, XYZ, { maxHops: 3, allow: all, maxRoutes: 2 })), [
    [P(2), P(4)],
    [P(1), P(3), P(4)],
  ]);
  // WETH -> USDC: P1 directly, P2 + P3 (300,000), P2 + P4 + P5 (1,000).
  t.strictSame(pools(findRoutes(index, WETH, USDC, { maxHops: 3, allow: all })), [[P(1)], [P(2), P(3)], [P(2), P(4), P(5)]]);
  t.strictSame(pools(findRoutes(index, WETH, USDC, { maxHops: 3, allow: all, maxRoutes: 0 })), [[P(1)]], 'the direct path is kept');
  t.strictSame(pools(findRoutes(index, WETH, USDC, { maxHops: 3, allow: all, maxRoutes: 2 })), [[P(1)], [P(2), P(3)]]);
});

t.test('findRoutes: only the pools the filter allows', async (t) => {
  const withoutP4 = (e: PoolEntry): boolean => e.address !== P(4);
  t.strictSame(pools(findRoutes(index, WETH, XYZ, { maxHops: 3, allow: withoutP4 })), [
    [P(1), P(5)],
    [P(2), P(3), P(5)],
  ]);
  t.strictSame(findRoutes(index, WETH, XYZ, { maxHops: 3, allow: () => false }), [], 'no pool allowed, no path');
});

t.test('a native end: no pool holds the native asset; its routes are the wrapped token’s', async (t) => {
  t.strictSame(findRoutes(index, ETH, XYZ, { maxHops: 3, allow: all }), [], 'the native asset has no pool');
  t.strictSame(index.poolsOf(ETH), []);
  t.strictSame(tradeEnds(WETH, ETH, XYZ), {
    poolTokenIn: WETH,
    poolTokenOut: XYZ,
    nativeIn: 'wrapped',
    nativeOut: 'none',
    bareWrap: false,
  });
  t.strictSame(tradeEnds(WETH, XYZ, ETH), {
    poolTokenIn: XYZ,
    poolTokenOut: WETH,
    nativeIn: 'none',
    nativeOut: 'wrapped',
    bareWrap: false,
  });
  t.strictSame(tradeEnds(WETH, USDC, DAI), { poolTokenIn: USDC, poolTokenOut: DAI, nativeIn: 'none', nativeOut: 'none', bareWrap: false });
  t.strictSame(tradeEnds(WETH, ETH, WETH), {
    poolTokenIn: WETH,
    poolTokenOut: WETH,
    nativeIn: 'wrapped',
    nativeOut: 'none',
    bareWrap: true,
  });
  t.strictSame(tradeEnds(WETH, WETH, ETH), {
    poolTokenIn: WETH,
    poolTokenOut: WETH,
    nativeIn: 'none',
    nativeOut: 'wrapped',
    bareWrap: true,
  });
  const ends = tradeEnds(WETH, ETH, XYZ);
  t.strictSame(
    pools(findRoutes(index, ends.poolTokenIn, ends.poolTokenOut, { maxHops: 2, allow: all })),
    [
      [P(2), P(4)],
      [P(1), P(5)],
    ],
    'ETH -> XYZ is searched as WETH -> XYZ',
  );
});
