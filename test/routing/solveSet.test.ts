// The split search's memo of float solves (solveSet.ts SetMemo): a set met again in one search takes its first solve,
// so the memo must name each ordered set apart. Checked on four hand-made constant-product curves, every ordered set
// of one to three of them solved once with the memo and once without, and against hand-stated figures.
import t from 'tap';
import type { PathCurve } from '../../src/routing/pathCurve.ts';
import type { PricedPath } from '../../src/routing/priceRoutes.ts';
import { setMemo, solveSet } from '../../src/routing/solveSet.ts';
import type { SplitContext, SplitPath } from '../../src/routing/splitContext.ts';

/** One constant-product piece: output alpha d / (beta + d) for an input d, unbounded. */
function constantProduct(alpha: number, beta: number): PathCurve {
  return {
    x: [0],
    y: [0],
    alpha: [alpha],
    beta: [beta],
    len: [Number.POSITIVE_INFINITY],
    rate: [alpha / beta],
    ticks: [0],
    endX: Number.POSITIVE_INFINITY,
    endY: alpha,
    capped: false,
  };
}

// Reserves (out, in): rates at zero 2, 1.5, 1.2 and 1; each its own pool.
const curves = [constantProduct(2e9, 1e9), constantProduct(3e9, 2e9), constantProduct(6e8, 5e8), constantProduct(4e9, 4e9)];
const candidates: SplitPath[] = curves.map((_c, i) => ({
  path: {} as PricedPath,
  key: `path${i}`,
  deployment: undefined,
  poolAddresses: [`pool${i}`],
}));
// A fee per path that tells the paths apart (1, 10, 100 and 1,000 per member), so a set's fee names its members.
const context: SplitContext<SplitPath> = {
  tradeType: 'exactIn',
  amount: 100_000_000n,
  maxSplits: 3,
  ranksFees: true,
  score: () => 0n,
  feeEstimate: (members) => members.reduce((fee, m) => fee + 10 ** Number(m.key.slice(4)), 0),
};

/** Every ordered set of distinct positions 0-3, of one to three members. */
function orderedSets(): number[][] {
  const sets: number[][] = [];
  const grow = (set: number[]): void => {
    if (set.length > 0) sets.push(set);
    if (set.length === 3) return;
    for (let j = 0; j < curves.length; j++) if (!set.includes(j)) grow([...set, j]);
  };
  grow([]);
  return sets;
}

t.test('with the memo, every ordered set gets its own solve (the same as without), met first or again', async (t) => {
  const memo = setMemo(candidates.length, context.maxSplits);
  t.ok(memo, 'a memo for 4 candidates and sets of 3');
  const sets = orderedSets();
  t.equal(sets.length, 4 + 12 + 24);
  for (const pass of ['first', 'again']) {
    let same = 0;
    for (const members of sets) {
      const alone = solveSet(context, candidates, curves, members);
      const kept = solveSet(context, candidates, curves, [...members], memo);
      if (
        kept.members.join() === members.join() &&
        kept.fee === alone.fee &&
        kept.net === alone.net &&
        kept.split.inputs.join() === alone.split.inputs.join()
      )
        same++;
    }
    t.equal(same, sets.length, `${pass}: each set's members, fee, net and inputs as solved without the memo`);
  }
});

t.test('a solve by hand: one path takes the whole amount, the fee names the set', async (t) => {
  // Path 0 alone: output 2e9 x 1e8 / (1e9 + 1e8) = 2e17 / 1.1e9, fee 1.
  const memo = setMemo(candidates.length, context.maxSplits);
  const one = solveSet(context, candidates, curves, [0], memo);
  t.equal(one.fee, 1);
  t.ok(Math.abs(one.net - (2e17 / 1.1e9 - 1)) < 1e-6, `net ${one.net}`);
  // Paths 1 and 3 in either order: fee 10 + 1,000; the inputs follow the order of the members.
  const a = solveSet(context, candidates, curves, [1, 3], memo);
  const b = solveSet(context, candidates, curves, [3, 1], memo);
  t.equal(a.fee, 1010);
  t.equal(b.fee, 1010);
  t.same(b.members, [3, 1]);
  t.ok(Math.abs(a.split.inputs[0] - b.split.inputs[1]) <= 1e-6 * a.split.inputs[0], 'path 1 takes the same input in both orders');
});

t.test('no memo where its key would not be exact below 2^53', async (t) => {
  t.ok(setMemo(64, 5), '65^5 < 2^53');
  t.equal(setMemo(2000, 5), undefined, '2001^5 > 2^53');
});

t.test("every set's split against the closed-form optimum, sets met one after another", async (t) => {
  // On curves a t / (b + t) the marginal rate is a b / (b + t)^2, so at a common rate λ = 1 / u^2 each path takes
  // t_i = sqrt(a_i b_i) u - b_i, and the inputs sum to the amount at u = (amount + Σ b_i) / Σ sqrt(a_i b_i): the
  // optimum where every t_i is positive. Solved in a row (each after sets of other curves), as the search meets them.
  const ab = [
    [2e9, 1e9],
    [3e9, 2e9],
    [6e8, 5e8],
    [4e9, 4e9],
  ];
  const amount = Number(context.amount);
  let interior = 0;
  for (const members of orderedSets()) {
    const roots = members.map((m) => Math.sqrt(ab[m][0] * ab[m][1]));
    const u = (amount + members.reduce((s, m) => s + ab[m][1], 0)) / roots.reduce((s, r) => s + r, 0);
    const inputs = members.map((m, i) => roots[i] * u - ab[m][1]);
    if (inputs.some((x) => x <= 0)) continue;
    interior++;
    const solved = solveSet(context, candidates, curves, members);
    const off = Math.max(...inputs.map((x, i) => Math.abs(solved.split.inputs[i] - x) / amount));
    t.ok(off < 1e-9, `[${members}]: inputs ${solved.split.inputs} against ${inputs}`);
    t.ok(Math.abs(solved.split.lambda * u * u - 1) < 1e-9, `[${members}]: rate ${solved.split.lambda} against ${1 / (u * u)}`);
  }
  t.equal(interior, 6, 'sets with every member inside: each path alone, and paths 2 and 3 in either order');
});
