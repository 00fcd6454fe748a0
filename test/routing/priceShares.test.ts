// priceSolved's exact pricing of a float-solved set (priceShares and polish): a share below a millionth of the amount
// is left out and the rest solved again, a share of exactly a millionth is kept; the rounding remainder goes to the
// first of equal largest shares; the integer polish moves a millionth of the amount (at least 1 wei) per move, at most
// 8 moves. Over hand-made Uniswap V2 pairs WETH -> DAI, exact input, gas not ranked (no member dropped for its fee).
// The float solve priceSolved is given is the search's own (solveSet), or that solve with its inputs set to the
// figures a case needs (a float solve as the search could hand it). Every share is checked exactly against figures
// stated by hand or a brute force over the polish's grid, every output against UniswapV2Library's getAmountOut
// written out by hand.
import t, { type Test } from 'tap';
import { fixedAmountCurve } from '../../src/routing/optimalSplit.ts';
import { toPricedPath } from '../../src/routing/priceRoutes.ts';
import { priceSolved } from '../../src/routing/priceSolved.ts';
import { solveSet } from '../../src/routing/solveSet.ts';
import type { PricedSplit, Solved, SplitContext, SplitPath } from '../../src/routing/splitContext.ts';
import { DAI, handIndex, v2PairSnapshot, WETH } from '../helpers/handGraph.ts';

const E18 = 10n ** 18n;
/** Reserves (WETH in, DAI out) of the pairs, by name; WETH sorts first, so it is token0. */
const reserves = {
  // 3,000 DAI per WETH.
  deep: [1000n * E18, 3_000_000n * E18],
  // The same pair again: equal floats in any set with `deep`.
  twin: [1000n * E18, 3_000_000n * E18],
  // A slightly lower price: with `deep`, its float share of 1 WETH is a millionth of it (to 1 part in 10^4).
  edge: [1000n * E18, 2_994_026_946_137_714n * 10n ** 9n],
  // A third of `deep`'s depth at its price.
  third: [300n * E18, 900_000n * E18],
  // Half of `deep`'s depth at its price.
  half: [500n * E18, 1_500_000n * E18],
  // Pairs of a few wei of WETH (a trade of under 10^6 wei: the polish step is 1 wei), at 3 * 10^18 DAI-wei per wei.
  weiDeep: [2_000_000n, 6n * 10n ** 24n],
  weiHalf: [1_000_000n, 3n * 10n ** 24n],
} as const;
type Name = keyof typeof reserves;
const names = Object.keys(reserves) as Name[];
const pairs = names.map((name, i) =>
  v2PairSnapshot(`0x00000000000000000000000000000000000000d${i}`, WETH, DAI, reserves[name][0], reserves[name][1]),
);
const index = handIndex(pairs);
const candidates: SplitPath[] = pairs.map((p) => {
  const entry = index.poolsOf(WETH).find((e) => e.address === p.address)!;
  return {
    path: toPricedPath(index, { pools: [entry], tokens: [WETH, DAI] })!,
    key: p.address,
    deployment: undefined,
    poolAddresses: [p.address],
  };
});
const at = (name: Name): number => names.indexOf(name);

/** UniswapV2Library.getAmountOut by hand. */
const out = (amountIn: bigint, name: Name): bigint => {
  const [reserveIn, reserveOut] = reserves[name];
  return (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);
};

const outputOf = (q: PricedSplit<SplitPath>['quotes'][number]): bigint => q.legs[q.legs.length - 1].amountOut;

/** Exact input of `amount`, gas not ranked; a split scored by its total output. */
function contextOf(amount: bigint): SplitContext<SplitPath> {
  return {
    tradeType: 'exactIn',
    amount,
    maxSplits: 3,
    ranksFees: false,
    score: (_members, quotes) => quotes.reduce((sum, q) => sum + outputOf(q), 0n),
    feeEstimate: () => 0,
  };
}

/** The set of `members` solved by the search, then priced exactly; its inputs first set to `inputs` when given. */
function price(amount: bigint, members: readonly Name[], inputs?: readonly number[]): { solved: Solved; priced: PricedSplit<SplitPath> } {
  const context = contextOf(amount);
  const curves = candidates.map((c) => fixedAmountCurve(c.path, 'exactIn', amount));
  const solved = solveSet(
    context,
    candidates,
    curves,
    members.map((m) => at(m)),
  );
  const given = inputs ? { ...solved, split: { ...solved.split, inputs } } : solved;
  const priced = priceSolved(context, candidates, curves, given);
  if (!priced) throw new Error('no split priced');
  return { solved, priced };
}

/** The names of a priced split's members. */
const membersOf = (priced: PricedSplit<SplitPath>): Name[] => priced.members.map((m) => names[candidates.indexOf(m)]);

/** Each member's output is getAmountOut of its share. */
function outputsByHand(t: Test, priced: PricedSplit<SplitPath>): void {
  const members = membersOf(priced);
  t.same(
    priced.quotes.map(outputOf),
    priced.shares.map((s, i) => out(s, members[i])),
    'each output is getAmountOut of its share',
  );
}

t.test('a share of exactly a millionth of the amount is kept, one wei less is left out and the rest solved again', async (t) => {
  const amount = E18;
  const millionth = 10n ** 12n;
  const { solved } = price(amount, ['deep', 'edge']);
  // The search's own solve lands `edge` within 10^-4 of a millionth (so the figures below are ones it meets).
  t.ok(Math.abs(solved.split.inputs[1] - 1e12) < 1e8, `edge's float share ${solved.split.inputs[1]}`);
  // Exactly a millionth (10^12 x 10^6 = the amount): kept. `edge` cannot move down a step (its share is not above
  // one) and what it would gain a step up is less than what `deep` would lose a step down, so the polish leaves both.
  const kept = price(amount, ['deep', 'edge'], [1e18 - 1e12, 1e12]).priced;
  t.same(membersOf(kept), ['deep', 'edge'], 'a millionth: both members kept');
  t.same(kept.shares, [amount - millionth, millionth], 'a millionth: the float shares');
  outputsByHand(t, kept);
  // A wei less: left out, `deep` alone takes the whole amount.
  const left = price(amount, ['deep', 'edge'], [1e18 - 1e12 + 1, 1e12 - 1]).priced;
  t.same(membersOf(left), ['deep'], 'a wei below a millionth: edge left out');
  t.same(left.shares, [amount], 'a wei below a millionth: deep takes all');
  outputsByHand(t, left);
  // The same share first in the set: left out there too.
  const first = price(amount, ['edge', 'deep'], [1e12 - 1, 1e18 - 1e12 + 1]).priced;
  t.same(membersOf(first), ['deep'], 'left out in first place too');
  t.same(first.shares, [amount], 'deep takes all');
  // A millionth of an amount that is not a multiple of 10^6: 10^18 + 5 x 10^5 needs a share of 10^12 + 1 (10^12 is
  // 5 x 10^-7 of the amount short), though the amount's millionth rounds down to 10^12.
  const odd = amount + 500_000n;
  const oddShort = price(odd, ['deep', 'edge'], [1e18 - 1e12, 1e12]).priced;
  t.same(membersOf(oddShort), ['deep'], '10^12 of 10^18 + 5 x 10^5: left out');
  t.same(oddShort.shares, [odd], 'deep takes all');
  // Kept at 10^12 + 1: `deep` takes the rest (its float 10^18 - 10^12 rounded, plus the remainder).
  const oddKept = price(odd, ['deep', 'edge'], [1e18 - 1e12, 1e12 + 1]).priced;
  t.same(membersOf(oddKept), ['deep', 'edge'], '10^12 + 1 of 10^18 + 5 x 10^5: kept');
  t.same(oddKept.shares, [odd - millionth - 1n, millionth + 1n], 'edge its float share, deep the rest');
  outputsByHand(t, oddKept);
});

t.test('the rounding remainder goes to the first of equal largest shares', async (t) => {
  // Two identical pairs: equal floats; the second keeps its float rounded, the first takes the rest of the amount.
  for (const amount of [E18 + 1n, E18 + 500_000n]) {
    const { solved, priced } = price(amount, ['deep', 'twin']);
    const [a, b] = solved.split.inputs;
    t.equal(a, b, `${amount}: equal floats`);
    const rounded = BigInt(Math.round(b));
    t.not(rounded * 2n, amount, `${amount}: the floats leave a remainder`);
    t.same(membersOf(priced), ['deep', 'twin'], `${amount}: both members`);
    t.same(priced.shares, [amount - rounded, rounded], `${amount}: the remainder (${amount - 2n * rounded}) on the first`);
    outputsByHand(t, priced);
  }
  // A smaller share first, then two equal largest: the middle one takes the remainder, the others their floats.
  const amount = E18 + 1n;
  const { solved, priced } = price(amount, ['third', 'deep', 'twin']);
  const [small, a, b] = solved.split.inputs;
  t.ok(a === b && small < a, `the floats ${solved.split.inputs}: two equal largest after a smaller one`);
  const ends = [BigInt(Math.round(small)), BigInt(Math.round(b))];
  t.not(ends[0] + 2n * ends[1], amount, 'the floats leave a remainder');
  t.same(priced.shares, [ends[0], amount - ends[0] - ends[1], ends[1]], 'the remainder on the first of the equal largest');
  outputsByHand(t, priced);
});

t.test('the polish moves a millionth of the amount (at least 1 wei) per move, to the best on that grid within 8 moves', async (t) => {
  // Over `deep` and `half`, the float solve's share of `half` moved by some steps: the polish brings it back on the
  // grid of its given share (steps of the amount's millionth), to the grid's best total output within 8 steps, which
  // a brute force over that grid finds by hand.
  const cases: [bigint, Name, Name, bigint, bigint][] = [
    // amount, members, step, shifts of `half`'s share (in wei).
    [E18, 'deep', 'half', 10n ** 12n, 0n],
    [E18, 'deep', 'half', 10n ** 12n, 3_300_000_000_000n],
    [E18, 'deep', 'half', 10n ** 12n, -5_200_000_000_000n],
    // Beyond 8 steps: 8 moves, no more.
    [E18, 'deep', 'half', 10n ** 12n, 12_300_000_000_000n],
    // Under 10^6 wei: steps of 1 wei.
    [999_999n, 'weiDeep', 'weiHalf', 1n, 0n],
    [999_999n, 'weiDeep', 'weiHalf', 1n, 3n],
    [999_999n, 'weiDeep', 'weiHalf', 1n, -5n],
    [999_999n, 'weiDeep', 'weiHalf', 1n, 13n],
  ];
  for (const [amount, big, small, step, shift] of cases) {
    const { solved } = price(amount, [big, small]);
    const given = BigInt(Math.round(solved.split.inputs[1])) + shift;
    t.equal(BigInt(Number(given)), given, `${amount} ${shift}: the given share is a float`);
    const { priced } = price(amount, [big, small], [Number(amount - given), Number(given)]);
    // The brute force: every share of `small` on the grid within 8 steps of the given one, the best total output.
    let best: bigint | undefined;
    let bestValue = -1n;
    let ties = 0;
    for (let k = -8n; k <= 8n; k++) {
      const share = given + k * step;
      const value = out(amount - share, big) + out(share, small);
      if (value > bestValue) {
        best = share;
        bestValue = value;
        ties = 0;
      } else if (value === bestValue) ties++;
    }
    t.equal(ties, 0, `${amount} ${shift}: one best on the grid`);
    t.same(membersOf(priced), [big, small], `${amount} ${shift}: both members`);
    t.same(priced.shares, [amount - best!, best!], `${amount} ${shift}: the grid's best, ${(best! - given) / step} steps`);
    t.equal((priced.shares[1] - given) % step, 0n, `${amount} ${shift}: moved by whole steps`);
    outputsByHand(t, priced);
  }
});
