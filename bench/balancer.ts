// npm run ts -- bench/balancer.ts — cost per quote of our Balancer v2 swap math against @balancer-labs/sor (the v2 SOR, its
// bigint WeightedMath/StableMath functions and its WeightedPool/ComposableStablePool classes) and
// @balancer-labs/balancer-maths (Balancer v3's maths), all test/bench-only dependencies, in alternating rounds of one run.
//
// Each case is a ladder of 16 amounts (1e-6 of a balance up to ~25%) over one pool state of 18-decimal tokens with a
// swap fee, as a route search asks it. Per quote = the ladder's time / 16:
//   ours          balancerQuoter per ladder, then 16 amounts; the quoter is kept per state object, so every ladder
//                 after the first on a state costs only its amounts (a route search prices many ladders per state)
//   ours new st.  the same on a copy of the state made per ladder: everything computed per ladder, the stable
//                 invariant included (the first ladder after a state change)
//   route search  balancerV2.quoteLadder on a pair view of the pool, what src/routing/priceRoutes.ts calls per ladder
//                 (LadderQuote objects, refusals caught)
//   general       weightedSwapGivenIn/Out, stableSwapGivenIn/Out: the line-by-line transliteration of the contracts
//                 (the code before the fast paths, which the fast paths are tested against)
//   general D1    stable only: the transliteration's calcOutGivenIn/calcInGivenOut with the invariant computed once per
//                 ladder (the contract's algorithm, sor's too, with the same sharing of D as ours)
//   sor math      WeightedMaths._calcOutGivenIn/_calcInGivenOut, StableMathBigInt._calcOutGivenIn/_calcInGivenOut
//                 (upscaled bigint, fee included; the stable ones recompute the invariant on every call: sor exports
//                 no call that takes it, and its pool classes below call these per amount too)
//   sor pool      WeightedPool/ComposableStablePool parsePoolPairData once per ladder, then _exactTokenInForTokenOut /
//                 _tokenInForExactTokenOut per amount (human-unit bignumber.js in and out: what sor's router calls)
//   v3 maths      balancer-maths _computeOutGivenExactIn/_computeInGivenExactOut, Stable.onSwap (fee taken off by us)
//   before        with BENCH_BEFORE=<git ref>: that commit's balancerQuoter, checked out in a temporary worktree, same
//                 ladder; and "before route" its balancerV2.quoteLadder
// Times are process CPU time (user + system), medians of BENCH_ROUNDS (default 5) alternating rounds of 200 ms;
// BENCH_CASES=<regular expression> runs only the cases whose name matches it.
// Before timing, every contender's 16 results are compared with ours (balancerSwap, equal to BalancerQueries.querySwap
// on the devnet: test/protocols/balancerMath.devnet.test.ts) and the count that differ is printed with the reason.
import { _computeInGivenExactOut, _computeOutGivenExactIn, Stable } from '@balancer-labs/balancer-maths';
import { bnum, ComposableStablePool, StableMathBigInt, WeightedMaths, WeightedPool } from '@balancer-labs/sor';
import { addSwapFee, mulUp, subtractSwapFee } from '../src/amm/balancerFixedPoint.ts';
import {
  type BalancerPoolState,
  type BalancerStableState,
  type BalancerWeightedState,
  balancerQuoter,
  balancerSwap,
  stableSwapState,
} from '../src/protocols/balancer/balancerState.ts';
import { type BalancerPool, balancerV2 } from '../src/protocols/balancer/balancerV2.ts';
import {
  calcInGivenOut,
  calcOutGivenIn,
  calculateInvariant,
  stableSwapGivenIn,
  stableSwapGivenOut,
} from '../src/protocols/balancerStable/stableMath.ts';
import { weightedSwapGivenIn, weightedSwapGivenOut } from '../src/protocols/balancerWeighted/weightedMath.ts';
import { beforeCheckout, removeCheckout } from './lib/beforeCheckout.ts';
import { machine, measureAlternating } from './lib/measure.ts';

const BEFORE = process.env.BENCH_BEFORE;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** BENCH_CASES=<regular expression>: only the cases whose name matches it (e.g. "weighted" or "exponent (0|1\.5)"). */
const CASES = process.env.BENCH_CASES === undefined ? undefined : new RegExp(process.env.BENCH_CASES);
const beforeRoot = BEFORE ? beforeCheckout(BEFORE) : undefined;
const beforeQuoter: typeof balancerQuoter | undefined = beforeRoot
  ? (await import(`${beforeRoot}/src/protocols/balancer/balancerState.ts`)).balancerQuoter
  : undefined;
const beforeProtocol: typeof balancerV2 | undefined = beforeRoot
  ? (await import(`${beforeRoot}/src/protocols/balancer/balancerV2.ts`)).balancerV2
  : undefined;

const E18 = 10n ** 18n;
const FEE = 3n * 10n ** 15n;
const FEE_TEXT = '0.003';
const TOKENS = [
  '0x1000000000000000000000000000000000000001',
  '0x2000000000000000000000000000000000000002',
  '0x3000000000000000000000000000000000000003',
];
const POOL = '0x9000000000000000000000000000000000000009';
const human = (x: bigint) => `${x / E18}.${(x % E18).toString().padStart(18, '0')}`;
const fromHuman = (x: { toFixed: (dp: number) => string }) => BigInt(x.toFixed(18).replace('.', ''));

function weighted(balances: bigint[], weights: bigint[]): BalancerWeightedState {
  return {
    kind: 'balancerWeighted',
    address: POOL,
    poolId: `${POOL}000200000000000000000001`,
    tokens: TOKENS.slice(0, balances.length),
    balances,
    decimalsFactors: balances.map(() => E18),
    swapFee: FEE,
    weights,
  };
}

function stable(balances: bigint[], amp: bigint): BalancerStableState {
  return {
    kind: 'balancerStable',
    address: POOL,
    poolId: `${POOL}000000000000000000000002`,
    tokens: TOKENS.slice(0, balances.length),
    balances,
    decimalsFactors: balances.map(() => E18),
    swapFee: FEE,
    bptIndex: balances.length, // no BPT among the tokens here: every index is tradeable
    amp: { startValue: amp, endValue: amp, startTime: 0n, endTime: 0n },
    rates: balances.map(() => undefined),
  };
}

/** 16 amounts from 1e-6 of `balance` to ~25% of it, each a little off round numbers. */
function ladder(balance: bigint): bigint[] {
  return Array.from({ length: 16 }, (_, k) => {
    const fraction = 1e-6 * (0.25 / 1e-6) ** (k / 15);
    return (balance * BigInt(Math.round(fraction * 1e12))) / 10n ** 12n + 12_345n;
  });
}

interface Case {
  name: string;
  state: BalancerPoolState;
  exactIn: boolean;
  /** Why sor's results differ from ours, when they do. */
  sorNote?: string;
}

const w8020 = weighted([1_234_567n * E18, 987_654n * E18], [8n * 10n ** 17n, 2n * 10n ** 17n]);
const w6040 = weighted([1_234_567n * E18, 987_654n * E18], [6n * 10n ** 17n, 4n * 10n ** 17n]);
const w5050 = weighted([1_234_567n * E18, 987_654n * E18], [5n * 10n ** 17n, 5n * 10n ** 17n]);
const s2 = stable([1_000_000n * E18, 1_200_000n * E18], 300_000n);
const s3 = stable([1_000_000n * E18, 1_200_000n * E18, 900_000n * E18], 300_000n);
const NO_FAST_POW = "sor's FixedPoint.powUp has no exponent 1/2/4 cases (the deployed pools' has): pow via ln/exp instead";
const cases: Case[] = [
  { name: 'weighted 80/20 exact in, 80 -> 20 (exponent 4)', state: w8020, exactIn: true, sorNote: NO_FAST_POW },
  { name: 'weighted 80/20 exact in, 20 -> 80 (exponent 0.25)', state: reversed(w8020), exactIn: true },
  { name: 'weighted 80/20 exact out, 80 -> 20 (exponent 0.25)', state: w8020, exactIn: false },
  { name: 'weighted 60/40 exact in (exponent 1.5)', state: w6040, exactIn: true },
  { name: 'weighted 60/40 exact out (exponent 0.666..67)', state: w6040, exactIn: false },
  { name: 'weighted 50/50 exact in (exponent 1)', state: w5050, exactIn: true, sorNote: NO_FAST_POW },
  { name: 'stable 2 tokens exact in', state: s2, exactIn: true },
  { name: 'stable 2 tokens exact out', state: s2, exactIn: false },
  { name: 'stable 3 tokens exact in', state: s3, exactIn: true },
  { name: 'stable 3 tokens exact out', state: s3, exactIn: false },
];

function reversed(s: BalancerWeightedState): BalancerWeightedState {
  return { ...s, tokens: [...s.tokens].reverse(), balances: [...s.balances].reverse(), weights: [...s.weights].reverse() };
}

/** sor's pool object for a state, as its router builds one from subgraph data. */
function sorPool(state: BalancerPoolState): WeightedPool | ComposableStablePool {
  const tokens = state.tokens.map((address, i) => ({
    address,
    balance: human(state.balances[i]),
    decimals: 18,
    priceRate: '1',
    weight: state.kind === 'balancerWeighted' ? human(state.weights[i]) : null,
  }));
  const pool = {
    id: state.poolId,
    address: state.address,
    poolType: state.kind === 'balancerWeighted' ? 'Weighted' : 'ComposableStable',
    swapFee: FEE_TEXT,
    totalShares: '1000000',
    totalWeight: '1',
    amp: state.kind === 'balancerStable' ? String(state.amp.endValue / 1000n) : undefined,
    tokens,
    tokensList: [...state.tokens],
  };
  type FromPool = Parameters<typeof WeightedPool.fromPool>[0];
  return state.kind === 'balancerWeighted' ? WeightedPool.fromPool(pool as FromPool) : ComposableStablePool.fromPool(pool as FromPool);
}

type Ladder = (amounts: readonly bigint[]) => bigint[];

/** A pair view of the pool (tokens 0 and 1), as the pricing graph holds one. */
function poolView(state: BalancerPoolState): BalancerPool {
  const [token0, token1] = state.tokens;
  return {
    kind: state.kind,
    address: state.poolId,
    dex: 'balancer',
    version: 'balancerV2',
    token0,
    token1,
    fee: 3000,
    state,
    index0: 0,
    index1: 1,
    pool: state.address,
  };
}

/** A ladder through a protocol's quoteLadder, refusals as -1. */
function viaQuoteLadder(protocol: typeof balancerV2, view: BalancerPool, exactIn: boolean): Ladder {
  return (amounts) =>
    protocol
      .quoteLadder(view, true, exactIn ? 'exactIn' : 'exactOut', amounts)
      .map((q) => (q.ok ? (exactIn ? q.amountOut : q.amountIn) : -1n));
}

/** The contenders of a case by column; undefined where a column does not apply. */
function contenders(c: Case): (Ladder | undefined)[] {
  const { state, exactIn } = c;
  const kind = exactIn ? 'exactIn' : 'exactOut';
  const ours: Ladder = (amounts) => amounts.map(balancerQuoter(state, 0, 1, kind, 0n));
  const oursNewState: Ladder = (amounts) => amounts.map(balancerQuoter({ ...state }, 0, 1, kind, 0n));
  const view = poolView(state);
  let general: Ladder;
  let generalD1: Ladder | undefined;
  if (state.kind === 'balancerWeighted') {
    const side = {
      balanceIn: state.balances[0],
      balanceOut: state.balances[1],
      weightIn: state.weights[0],
      weightOut: state.weights[1],
      scalingFactorIn: E18,
      scalingFactorOut: E18,
      swapFee: FEE,
    };
    general = (amounts) => amounts.map((a) => (exactIn ? weightedSwapGivenIn(side, a) : weightedSwapGivenOut(side, a)));
  } else {
    const s = stableSwapState(state, 0n);
    general = (amounts) => amounts.map((a) => (exactIn ? stableSwapGivenIn(s, 0, 1, a) : stableSwapGivenOut(s, 0, 1, a)));
    // 18-decimal tokens without a rate: no scaling.
    generalD1 = (amounts) => {
      const d = calculateInvariant(s.amp, s.balances);
      return amounts.map((a) =>
        exactIn
          ? calcOutGivenIn(s.amp, s.balances, 0, 1, subtractSwapFee(a, FEE), d)
          : addSwapFee(calcInGivenOut(s.amp, s.balances, 0, 1, a, d), FEE),
      );
    };
  }
  const [b0, b1] = state.balances;
  let sorMath: Ladder;
  let v3: Ladder;
  if (state.kind === 'balancerWeighted') {
    const [w0, w1] = state.weights;
    sorMath = exactIn
      ? (amounts) => amounts.map((a) => WeightedMaths._calcOutGivenIn(b0, w0, b1, w1, a, FEE))
      : (amounts) => amounts.map((a) => WeightedMaths._calcInGivenOut(b0, w0, b1, w1, a, FEE));
    v3 = exactIn
      ? (amounts) => amounts.map((a) => _computeOutGivenExactIn(b0, w0, b1, w1, a - mulUp(a, FEE)))
      : (amounts) => amounts.map((a) => addSwapFee(_computeInGivenExactOut(b0, w0, b1, w1, a), FEE));
  } else {
    const amp = state.amp.endValue;
    const balances = state.balances;
    sorMath = exactIn
      ? (amounts) => amounts.map((a) => StableMathBigInt._calcOutGivenIn(amp, [...balances], 0, 1, a, FEE))
      : (amounts) => amounts.map((a) => StableMathBigInt._calcInGivenOut(amp, [...balances], 0, 1, a, FEE));
    const pool = new Stable({ amp } as ConstructorParameters<typeof Stable>[0]);
    v3 = (amounts) =>
      amounts
        .map((a) =>
          pool.onSwap({
            swapKind: exactIn ? 0 : 1,
            balancesLiveScaled18: [...balances],
            indexIn: 0,
            indexOut: 1,
            amountGivenScaled18: exactIn ? a - mulUp(a, FEE) : a,
          } as Parameters<typeof pool.onSwap>[0]),
        )
        .map((x) => (exactIn ? x : addSwapFee(x, FEE)));
  }
  const pool = sorPool(state);
  const sorPoolLadder: Ladder = (amounts) => {
    // biome-ignore lint/suspicious/noExplicitAny: sor's pair data type differs per pool class; the bench only passes it back
    const pair = pool.parsePoolPairData(state.tokens[0], state.tokens[1]) as any;
    return amounts.map((a) =>
      fromHuman(exactIn ? pool._exactTokenInForTokenOut(pair, bnum(human(a))) : pool._tokenInForExactTokenOut(pair, bnum(human(a)))),
    );
  };
  const list = [ours, oursNewState, viaQuoteLadder(balancerV2, view, exactIn), general, generalD1, sorMath, sorPoolLadder, v3];
  if (beforeQuoter !== undefined && beforeProtocol !== undefined) {
    const quoter = beforeQuoter;
    list.push((amounts) => amounts.map(quoter(state, 0, 1, kind, 0n)), viaQuoteLadder(beforeProtocol, view, exactIn));
  }
  return list;
}

const NAMES = ['ours', 'ours new state', 'route search', 'general', 'general D1', 'sor math', 'sor pool', 'v3 maths'];
if (beforeQuoter) NAMES.push(`before (${BEFORE})`, 'before route');
const [OURS, ROUTE, GENERAL, GENERAL_D1, SOR_MATH, SOR_POOL, BEFORE_OURS, BEFORE_ROUTE] = [0, 2, 3, 4, 5, 6, 8, 9];
/** Ratio columns: name, numerator, denominator. */
const RATIOS: [string, number, number][] = [
  ['general / ours', GENERAL, OURS],
  ['general D1 / ours', GENERAL_D1, OURS],
  ['sor math / ours', SOR_MATH, OURS],
  ['sor math / route search', SOR_MATH, ROUTE],
  ['sor pool / ours', SOR_POOL, OURS],
  ...(beforeQuoter
    ? ([
        ['before / ours', BEFORE_OURS, OURS],
        ['before route / route search', BEFORE_ROUTE, ROUTE],
      ] as [string, number, number][])
    : []),
];

console.log(`balancer v2 math, cost per quote (ladders of 16 amounts), ${machine()}`);
const header = ['case', ...NAMES, ...RATIOS.map(([name]) => name)];
console.log(`${header.join(' | ')}\n${header.map(() => '---').join(' | ')}`);
const notes: string[] = [];
for (const c of cases.filter((c) => CASES === undefined || CASES.test(c.name))) {
  const list = contenders(c);
  const amounts = ladder(c.state.balances[c.exactIn ? 0 : 1]);
  const reference = amounts.map((a) => balancerSwap(c.state, 0, 1, c.exactIn ? 'exactIn' : 'exactOut', a, 0n));
  list.forEach((run, i) => {
    if (run === undefined) return;
    const name = NAMES[i];
    const differ = run(amounts).filter((x, k) => x !== reference[k]).length;
    if (differ > 0) {
      const why = name.startsWith('sor') ? (c.sorNote ?? '?') : name === 'v3 maths' ? 'v3 rounds differently (see the devnet test)' : '?';
      notes.push(`${c.name}: ${name} differs from ours on ${differ}/16 amounts (${why})`);
    }
  });
  const timed = list.flatMap((run, i) => (run === undefined ? [] : [i]));
  const ms = await measureAlternating(
    timed.map((i) => () => list[i]?.(amounts)),
    { rounds: ROUNDS, roundMs: 200, cpu: true },
  );
  const us: (number | undefined)[] = list.map(() => undefined);
  timed.forEach((i, k) => {
    us[i] = ms[k].usPerOp / amounts.length;
  });
  const ratio = (a: number, b: number) => {
    const [x, y] = [us[a], us[b]];
    return x === undefined || y === undefined ? '—' : `${(x / y).toFixed(1)}x`;
  };
  console.log(
    [c.name, ...us.map((u) => (u === undefined ? '—' : `${u.toFixed(2)} µs`)), ...RATIOS.map(([, a, b]) => ratio(a, b))].join(' | '),
  );
}
if (beforeRoot !== undefined) removeCheckout(beforeRoot);
console.log(notes.length === 0 ? 'every contender equals ours on every amount' : notes.join('\n'));
console.log(`(µs of process CPU time per quote: the median of ${ROUNDS} alternating rounds of each ladder, divided by 16)`);
