// Base tokens chosen from the pools when the catalogue names none (src/graph/baseTokens.ts), over the hand-made graph
// of test/helpers/handGraph.ts, whose pool USD values are worked out by hand in its header: P1 600,000, P2 300,000,
// P3 400,000, P4 100,000, P5 1,000.
import t from 'tap';
import { deriveBaseTokens } from '../../src/graph/baseTokens.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { findRoutes } from '../../src/routing/findRoutes.ts';
import { DAI, handChain, handPairs, P, USDC, WETH, XYZ } from '../helpers/handGraph.ts';

const all = (): boolean => true;

t.test('a catalogue without base tokens: the tokens with the deepest pools, each with two neighbours or more', async (t) => {
  const index = new ChainPoolIndex({ ...handChain, baseTokens: [] }, handPairs);
  // USDC: P1 + P3 + P5 = 1,001,000; WETH: P1 + P2 = 900,000; DAI: P2 + P3 + P4 = 800,000; XYZ: P4 + P5 = 101,000.
  t.strictSame(index.baseTokens, [USDC, WETH, DAI, XYZ]);
  t.equal(index.baseTokensDerived, true);
  const withoutP5 = new ChainPoolIndex({ ...handChain, baseTokens: [] }, handPairs.slice(0, 4));
  t.strictSame(withoutP5.baseTokens, [USDC, WETH, DAI], 'XYZ, with one neighbour (DAI) left, is no base token');
  const next = withoutP5.withChanges([handPairs[4]], []);
  t.strictSame([next.baseTokens, next.baseTokensDerived], [[USDC, WETH, DAI], true], 'a followed block keeps the chosen bases');
  t.strictSame(
    next.basePoolsOf(XYZ).map((e) => e.address),
    [P(4), P(5)],
    "and files the new pool under its tokens' base pools",
  );
});

t.test('the catalogue names base tokens: they are used as named', async (t) => {
  const index = new ChainPoolIndex(handChain, handPairs);
  t.strictSame([index.baseTokens, index.baseTokensDerived], [[USDC, DAI], false]);
});

t.test('deriveBaseTokens: depth first, then neighbours, then address; at most five; only known tokens', async (t) => {
  const pool = (token0: string, token1: string, score = 0) => ({ token0, token1, score });
  const a = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
  // No USD prices (scores 0): a(1) has 6 neighbours, a(2) 3, a(3)..a(7) 2 each (a(1) and a(2)), a(8) 1.
  const pools = [2, 3, 4, 5, 6, 7].map((n) => pool(a(1), a(n)));
  pools.push(...[3, 4, 5, 6, 7].map((n) => pool(a(2), a(n))), pool(a(8), a(9)), pool(a(9), a(10)));
  t.strictSame(
    deriveBaseTokens(pools, () => true),
    [a(1), a(2), a(3), a(4), a(5)],
  );
  t.strictSame(
    deriveBaseTokens(pools, (x) => x !== a(1)),
    [a(2), a(3), a(4), a(5), a(6)],
    'an unknown token is never chosen',
  );
  // Depth beats neighbours: a(9) (2 neighbours) holds 10 USD of pools.
  t.strictSame(
    deriveBaseTokens([...pools, pool(a(9), a(11), 10)], () => true),
    [a(9), a(1), a(2), a(3), a(4)],
  );
});

t.test('findRoutes: three hops through derived bases', async (t) => {
  // XYZ -> WETH with only P2 (WETH/DAI), P3 (USDC/DAI) reaching WETH from XYZ's P5 (USDC/XYZ): XYZ -> USDC -> DAI -> WETH.
  const pairs = [handPairs[1], handPairs[2], handPairs[4]];
  const index = new ChainPoolIndex({ ...handChain, baseTokens: [] }, pairs);
  t.strictSame(index.baseTokens, [DAI, USDC], 'DAI: P2 + P3 = 700,000; USDC: P3 + P5 = 401,000; WETH and XYZ have one neighbour');
  t.strictSame(
    findRoutes(index, XYZ, WETH, { maxHops: 3, allow: all }).map((p) => p.tokens),
    [[XYZ, USDC, DAI, WETH]],
  );
});
