// The gas model against the chain and against what the contracts imply, never against its own figures: the
// devnet's gasUsed for executed trades (test/fixtures/gas/devnetGasUsed.json, recorded by
// test/tx/buildTradeSteps.devnet.test.ts with its provenance in the file) must lie within the model's stated error and
// under every step's gasLimit; and the relations any correct model satisfies (more hops, more ticks, native
// handling, splits, exact output's pool-to-pool payments cost what the contracts make them cost, relative to each
// other). The per-transaction estimates must add up to what the model charges a trade (callGas + routeGas).
import t, { type Test } from 'tap';
import { callGas, callNativeWork, gasLimit, routeGas, transactionGas, wrapGas } from '../../src/routing/gasModel.ts';
import { POOL_NATIVE } from '../../src/routing/nativePools.ts';
import type { ExecutorKind, Leg } from '../../src/routing/Trade.ts';
import { type DevnetGasLeg, FIXTURE_NATIVE, readTradeGasFixture, type TradeGasFixture } from '../helpers/devnetGas.ts';
import { UR_GAS_TOLERANCE } from '../helpers/universalRouterGas.ts';

const leg = (kind: Leg['kind'], ticksCrossed = 0, coldSlots = 0, movesTick = kind === 'uniswapV3'): Leg => ({
  pool: '0x0',
  kind,
  dex: 'uniswap',
  version: kind === 'uniswapV2' ? 'v2' : 'v3',
  fee: 500,
  tokenIn: 'a',
  tokenOut: 'b',
  amountIn: 1n,
  amountOut: 1n,
  ticksCrossed,
  coldSlots,
  movesTick,
});

/** One approval's estimate, as the model charges it to a trade with an ERC-20 input. */
const APPROVE = callGas('SwapRouter02', 1, false, false, true) - callGas('SwapRouter02', 1, false, false, false);

t.test('gasLimit: the estimate plus a quarter (rounded up) plus 50,000 (hand-computed)', async (t) => {
  t.equal(gasLimit(100_000n), 175_000n);
  t.equal(gasLimit(46_001n), 107_502n, '57,501.25 rounds up to 57,502');
  t.equal(gasLimit(0n), 50_000n);
});

/** A recorded leg as the model reads it: the fixture's symbols as tokens, FIXTURE_NATIVE as native ETH in a pool. */
const fixtureLeg = (l: DevnetGasLeg): Leg => {
  const token = (symbol: string | undefined, fallback: string) => (symbol === FIXTURE_NATIVE ? POOL_NATIVE : (symbol ?? fallback));
  return {
    ...leg(l.kind as Leg['kind'], l.ticksCrossed, l.coldSlots, l.movesTick),
    tokenIn: token(l.tokenIn, 'a'),
    tokenOut: token(l.tokenOut, 'b'),
  };
};

/** One Permit2 approval's estimate, as the model charges it to a Universal Router trade with an ERC-20 input. */
const PERMIT2_APPROVE = callGas('UniversalRouter', 1, false, false, true) - callGas('UniversalRouter', 1, false, false, false) - APPROVE;

/**
 * Every recorded trade of a fixture against the model: each step under its gasLimit, each swap step's estimate within
 * `swapTolerance` percent of its gasUsed (when given; by the pools' state), the trade's steps together within `tradeTolerance` percent
 * (by approval mode when given so: a swap carrying a signed permit is "permit2"). A trade of one swap step: its steps'
 * estimates add up to what the search charges it (callGas with the approval mode, plus routeGas: the trade's gasEstimate).
 * Returns the executors and pool states seen.
 */
function checkFixture(
  t: Test,
  name: TradeGasFixture,
  tradeTolerances: number | { readonly approve: number; readonly permit2: number },
  swapTolerance?: { readonly cold: number; readonly warm: number },
): { kinds: Set<string>; pools: Set<string>; cases: number } {
  const { provenance, cases } = readTradeGasFixture(name);
  t.comment(`${name}: ${cases.length} trades recorded ${provenance.recordedAt} at ${provenance.commit} (${provenance.anvil})`);
  const kinds = new Set<string>();
  const pools = new Set<string>();
  for (const c of cases) {
    let estimate = 0n;
    let used = 0n;
    for (const [i, s] of c.steps.entries()) {
      const gasUsed = BigInt(s.gasUsed);
      used += gasUsed;
      if (s.step === 'send') continue; // a wrap's hand-over is beyond the trade's estimate (buildWrapSteps sizes it)
      const stepEstimate =
        s.step === 'approve'
          ? APPROVE
          : s.step === 'permit2Approve'
            ? PERMIT2_APPROVE
            : s.executor === 'WETH9'
              ? wrapGas(c.nativeIn)
              : transactionGas(
                  s.executor as ExecutorKind,
                  s.routes.map((r) => r.map(fixtureLeg)),
                  c.nativeIn,
                  c.nativeOut,
                  c.tradeType,
                  s.permit === true,
                );
      kinds.add(s.step === 'swap' ? s.executor : s.step);
      estimate += stepEstimate;
      t.ok(gasLimit(stepEstimate) >= gasUsed, `${c.case}, step ${i + 1}: gasLimit ${gasLimit(stepEstimate)} >= gasUsed ${gasUsed}`);
      if (s.step === 'swap' && swapTolerance !== undefined) {
        const off = Number(((stepEstimate - gasUsed) * 1000n) / gasUsed) / 10;
        t.ok(
          Math.abs(off) <= swapTolerance[c.pools],
          `${c.case}: swap estimate ${stepEstimate} within ${swapTolerance[c.pools]}% of its ${gasUsed} used (${off}%)`,
        );
      }
    }
    const swaps = c.steps.flatMap((s) => (s.step === 'swap' && s.executor !== 'WETH9' ? [s] : []));
    const permit = swaps.some((s) => s.permit === true);
    if (swaps.length === 1) {
      const routes = swaps[0].routes.map((r) => r.map(fixtureLeg));
      const work = callNativeWork(routes, c.nativeIn, c.nativeOut);
      const approvals = c.steps.filter((s) => s.step === 'approve').length;
      const charged =
        callGas(
          swaps[0].executor as ExecutorKind,
          routes.length,
          work.wrapIn,
          work.unwrapOut,
          !c.nativeIn,
          c.tradeType,
          approvals > 1,
          work,
          permit,
        ) + routes.reduce((x, r) => x + routeGas(r, c.tradeType), 0n);
      t.equal(charged, estimate, `${c.case}: the trade's gasEstimate is its steps' estimates`);
    }
    const tradeTolerance = typeof tradeTolerances === 'number' ? tradeTolerances : tradeTolerances[permit ? 'permit2' : 'approve'];
    const sends = c.steps.filter((s) => s.step === 'send').reduce((x, s) => x + BigInt(s.gasUsed), 0n);
    const off = Number(((estimate - (used - sends)) * 10_000n) / (used - sends)) / 100;
    t.ok(
      Math.abs(off) <= tradeTolerance,
      `${c.case}: estimate ${estimate} within ${tradeTolerance}% of the ${used - sends} used (${off}%)`,
    );
    pools.add(c.pools);
  }
  return { kinds, pools, cases: cases.length };
}

t.test(
  "the devnet's gasUsed: each trade within 5% of the model, on never-traded and traded pools, each step under its gasLimit",
  async (t) => {
    const { kinds, pools, cases } = checkFixture(t, 'trades', 5);
    t.ok(cases >= 20, `${cases} recorded trades`);
    t.strictSame(
      [...kinds].sort(),
      ['SwapRouter', 'SwapRouter02', 'UniswapV2Router02', 'WETH9', 'approve'],
      'every executor and the approval measured',
    );
    t.strictSame([...pools].sort(), ['cold', 'warm'], 'measured on never-traded and on traded pools');
  },
);

t.test(
  "the devnet's Universal Router trades (v4, native ETH pools, crossings, splits, exact output, approve and permit2), on never-traded and traded pools: each swap within 4% / 10%, each trade's steps within 10% (approvalMode permit2: 5%)",
  async (t) => {
    const erc20 = checkFixture(t, 'universalRouter', UR_GAS_TOLERANCE.trade, UR_GAS_TOLERANCE.swap);
    const native = checkFixture(t, 'universalRouterNative', UR_GAS_TOLERANCE.trade, UR_GAS_TOLERANCE.swap);
    t.ok(erc20.cases >= 28 && native.cases >= 32, `${erc20.cases} + ${native.cases} recorded trades`);
    t.strictSame([...new Set([...erc20.pools, ...native.pools])].sort(), ['cold', 'warm'], 'on never-traded and on traded pools');
    t.strictSame([...new Set([...erc20.kinds, ...native.kinds])].sort(), ['UniversalRouter', 'approve', 'permit2Approve']);
  },
);

t.test(
  'the Universal Router fixtures cover every shape: native pool in and out, both crossings, v2/v3/v4 mixes, splits, exact output, permits',
  async (t) => {
    const cases = [...readTradeGasFixture('universalRouter').cases, ...readTradeGasFixture('universalRouterNative').cases];
    const swaps = cases.map((c) => ({ c, s: c.steps.find((s) => s.step === 'swap')! })).filter((x) => x.s.step === 'swap');
    const has = (what: string, test: (x: (typeof swaps)[number]) => boolean) => t.ok(swaps.some(test), what);
    const routes = (x: (typeof swaps)[number]) => (x.s.step === 'swap' ? x.s.routes : []);
    const legs = (x: (typeof swaps)[number]) => routes(x).flat();
    const work = (x: (typeof swaps)[number]) =>
      callNativeWork(
        routes(x).map((r) => r.map(fixtureLeg)),
        x.c.nativeIn,
        x.c.nativeOut,
      );
    has('a native ETH pool settled from the value', (x) => work(x).poolIn);
    has('a native ETH pool paying ether out', (x) => work(x).poolOut);
    has('native in wrapped for a WETH pool', (x) => work(x).wrapIn);
    has('native out unwrapped from a WETH pool', (x) => work(x).unwrapOut);
    has('a wrap between pools (ETH -> WETH) before a v3 pool', (x) => work(x).wraps > 0 && legs(x).some((l) => l.kind === 'uniswapV3'));
    has('a wrap between pools before a v2 pair', (x) => work(x).wraps > 0 && legs(x).some((l) => l.kind === 'uniswapV2'));
    has('an unwrap between pools (WETH -> ETH) after a v3 pool', (x) => work(x).unwraps > 0 && legs(x).some((l) => l.kind === 'uniswapV3'));
    has('an unwrap between pools after a v2 pair', (x) => work(x).unwraps > 0 && legs(x).some((l) => l.kind === 'uniswapV2'));
    has('v4 multi-hop', (x) => routes(x).some((r) => r.length > 1 && r.every((l) => l.kind === 'uniswapV4')));
    has('v3 -> v4', (x) => routes(x).some((r) => r[0].kind === 'uniswapV3' && r[1]?.kind === 'uniswapV4'));
    has('v4 -> v2', (x) => routes(x).some((r) => r[0].kind === 'uniswapV4' && r[1]?.kind === 'uniswapV2'));
    has('a split across v3 and v4', (x) => routes(x).length > 1 && new Set(legs(x).map((l) => l.kind)).size > 1);
    has('exact output, native in', (x) => x.c.tradeType === 'exactOut' && x.c.nativeIn);
    has('exact output, native out', (x) => x.c.tradeType === 'exactOut' && x.c.nativeOut);
    has('a signed permit (approvalMode permit2)', (x) => x.s.step === 'swap' && x.s.permit === true);
    has('a native end with a signed permit', (x) => x.s.step === 'swap' && x.s.permit === true && x.c.nativeOut);
  },
);

t.test('routeGas: each pool slot written from zero costs 17,100 more, by the EVM rules (EIP-2200, EIP-2929)', async (t) => {
  // SSTORE of a slot first touched in the transaction: 2,100 (cold access) + 20,000 (zero to non-zero) against
  // 2,100 + 2,900 (non-zero to non-zero).
  const fromZero = 2_100n + 20_000n - (2_100n + 2_900n);
  for (const kind of ['uniswapV2', 'uniswapV3'] as const)
    for (const k of [0, 1, 3]) t.equal(routeGas([leg(kind, 2, k + 1)]) - routeGas([leg(kind, 2, k)]), fromZero, `${kind}: slot ${k + 1}`);
});

t.test('routeGas: a hop costs gas, more hops cost more, each tick crossed the same again', async (t) => {
  for (const kind of ['uniswapV2', 'uniswapV3'] as const) {
    t.ok(routeGas([leg(kind)]) > 0n, `${kind}: a hop costs gas`);
    t.ok(routeGas([leg(kind), leg(kind)]) > routeGas([leg(kind)]), `${kind}: two hops cost more than one`);
  }
  const perTick = routeGas([leg('uniswapV3', 1)]) - routeGas([leg('uniswapV3', 0)]);
  t.ok(perTick > 0n, 'crossing an initialized tick costs gas');
  for (const k of [1, 2, 5, 20])
    t.equal(routeGas([leg('uniswapV3', k + 1)]) - routeGas([leg('uniswapV3', k)]), perTick, `tick ${k + 1} costs what tick 1 does`);
  t.equal(
    routeGas([leg('uniswapV3', 2), leg('uniswapV2'), leg('uniswapV3', 1)]),
    routeGas([leg('uniswapV3', 2)]) + routeGas([leg('uniswapV2')]) + routeGas([leg('uniswapV3', 1)]),
    'exact input: a route costs the sum of its hops',
  );
});

t.test('callGas: native handling, splits and approvals cost what the routers make them cost, relatively', async (t) => {
  for (const kind of ['UniswapV2Router02', 'SwapRouter', 'SwapRouter02'] as const) {
    const erc20 = callGas(kind, 1, false, false, false);
    t.ok(erc20 > 0n, `${kind}: a call costs gas`);
    t.ok(callGas(kind, 1, true, false, false) > erc20, `${kind}: wrapping native input costs more`);
    t.ok(callGas(kind, 1, false, true, false) > erc20, `${kind}: unwrapping native output costs more`);
    t.ok(callGas(kind, 2, false, false, false) > erc20, `${kind}: two routes cost more than one`);
    t.equal(callGas(kind, 1, false, false, true) - erc20, APPROVE, `${kind}: an ERC-20 input adds one approval`);
  }
  t.equal(
    callGas('UniswapV2Router02', 2, false, false, false),
    2n * callGas('UniswapV2Router02', 1, false, false, false),
    'UniswapV2Router02: one transaction per route',
  );
  t.equal(
    callGas('UniswapV2Router02', 2, false, false, true),
    APPROVE + 2n * callGas('UniswapV2Router02', 1, false, false, false),
    'UniswapV2Router02: one approval covers both transactions',
  );
});

t.test('transactionGas of each step adds up to callGas + routeGas for every router kind, native side and trade type', async (t) => {
  const routes = [[leg('uniswapV3', 2)], [leg('uniswapV2'), leg('uniswapV3')], [leg('uniswapV3'), leg('uniswapV3', 1)]];
  for (const tradeType of ['exactIn', 'exactOut'] as const) {
    for (const kind of ['UniswapV2Router02', 'SwapRouter', 'SwapRouter02'] as const satisfies readonly ExecutorKind[]) {
      for (const [nativeIn, nativeOut] of [
        [false, false],
        [true, false],
        [false, true],
      ] as const) {
        for (const n of [1, 2, 3]) {
          const some = routes.slice(0, n);
          // Router02 sends one transaction per route; the others one for all.
          const txs =
            kind === 'UniswapV2Router02'
              ? some.map((r) => transactionGas(kind, [r], nativeIn, nativeOut, tradeType))
              : [transactionGas(kind, some, nativeIn, nativeOut, tradeType)];
          const steps = (nativeIn ? 0n : APPROVE) + txs.reduce((s, x) => s + x, 0n);
          const model = callGas(kind, n, nativeIn, nativeOut, !nativeIn, tradeType) + some.reduce((s, r) => s + routeGas(r, tradeType), 0n);
          t.equal(steps, model, `${tradeType}, ${kind}, ${n} route(s), native in ${nativeIn}, out ${nativeOut}`);
        }
      }
    }
  }
});

t.test('exact output: pools pay the next pool, each route pays the recipient, the pull leaves an allowance', async (t) => {
  const twoV3 = [leg('uniswapV3'), leg('uniswapV3', 1)];
  t.ok(routeGas(twoV3, 'exactOut') < routeGas(twoV3, 'exactIn'), 'v3 exactOutput: each pool pays the next directly, one transfer less');
  t.equal(routeGas([leg('uniswapV3', 3)], 'exactOut'), routeGas([leg('uniswapV3', 3)], 'exactIn'), 'one hop: the same swap either way');
  t.equal(
    routeGas([leg('uniswapV2'), leg('uniswapV2')], 'exactOut'),
    routeGas([leg('uniswapV2'), leg('uniswapV2')], 'exactIn'),
    'v2 pairs pay the next pair directly either way',
  );
  const split = [[leg('uniswapV3')], [leg('uniswapV3')]];
  const one = [[leg('uniswapV3')]];
  t.equal(
    transactionGas('SwapRouter02', split, false, false, 'exactOut') - transactionGas('SwapRouter02', one, false, false, 'exactOut'),
    routeGas([leg('uniswapV3')], 'exactOut'),
    'ERC-20 output: a second route adds only its swap (no sweep: each route pays the recipient)',
  );
  t.ok(
    transactionGas('SwapRouter02', split, false, false, 'exactIn') - transactionGas('SwapRouter02', one, false, false, 'exactIn') >
      routeGas([leg('uniswapV3')]),
    'exact input: a second route also adds the sweep of the sum',
  );
  t.ok(
    transactionGas('SwapRouter02', split, false, true, 'exactOut') > transactionGas('SwapRouter02', split, false, false, 'exactOut'),
    'native output: the unwrap of the sum costs more',
  );
  t.ok(
    transactionGas('SwapRouter', one, true, false, 'exactOut') > transactionGas('SwapRouter', one, true, false, 'exactIn'),
    'native input: the refund of unused value costs more',
  );
  t.ok(
    transactionGas('SwapRouter02', one, false, false, 'exactOut') > transactionGas('SwapRouter02', one, false, false, 'exactIn'),
    'ERC-20 input: the pull leaving an allowance earns no refund',
  );
});

t.test('approvalReset: each router pulling an ERC-20 input is charged one approve step more (the reset to 0)', async (t) => {
  t.equal(
    callGas('SwapRouter02', 1, false, false, true, 'exactIn', true) - callGas('SwapRouter02', 1, false, false, true, 'exactIn'),
    APPROVE,
  );
  t.equal(
    callGas('UniswapV2Router02', 2, false, false, true, 'exactIn', true) - callGas('UniswapV2Router02', 2, false, false, true, 'exactIn'),
    APPROVE,
    'one approval pair covers both transactions',
  );
  t.equal(
    callGas('SwapRouter', 1, false, true, false, 'exactIn', true),
    callGas('SwapRouter', 1, false, true, false),
    'no ERC-20 input: no approval',
  );
});

t.test('WETH9: a wrap and an unwrap each cost more than a bare transaction', async (t) => {
  t.ok(wrapGas(true) > 21_000n && wrapGas(false) > 21_000n, 'each more than a bare transaction (21,000)');
  t.ok(wrapGas(true) > wrapGas(false), 'a deposit writes a fresh balance; a withdraw only lowers one');
});

t.test('transactionGas: a native ETH pool at a native end wraps nothing; a route crossing ETH/WETH pays its wrap or unwrap', async (t) => {
  const ETH = '0x0000000000000000000000000000000000000000';
  const v4 = (tokenIn: string, tokenOut: string): Leg => ({ ...leg('uniswapV4'), version: 'v4', tokenIn, tokenOut });
  const v3 = (tokenIn: string, tokenOut: string): Leg => ({ ...leg('uniswapV3'), tokenIn, tokenOut });
  const wrappedIn = transactionGas('UniversalRouter', [[v4('weth', 'usdc')]], true, false);
  const nativeIn = transactionGas('UniversalRouter', [[v4(ETH, 'usdc')]], true, false);
  t.ok(nativeIn < wrappedIn, 'native in from a native pool costs less than wrapping for a WETH pool');
  t.ok(
    nativeIn < transactionGas('UniversalRouter', [[v4('dai', 'usdc')]], false, false),
    'less than an ERC-20 input’s swap: the value settles the pool, no Permit2 pull',
  );
  const nativeOut = transactionGas('UniversalRouter', [[v4('usdc', ETH)]], false, true);
  t.ok(nativeOut < transactionGas('UniversalRouter', [[v4('usdc', 'weth')]], false, true), 'native out to a native pool unwraps nothing');
  t.ok(
    nativeOut > transactionGas('UniversalRouter', [[v4('usdc', 'dai')]], false, false),
    'paying ether to a recipient that held none costs more than paying it a token',
  );
  t.ok(
    transactionGas('UniversalRouter', [[v4('usdc', 'dai')]], false, false, 'exactIn', true) >
      transactionGas('UniversalRouter', [[v4('usdc', 'dai')]], false, false),
    'a signed permit in the swap costs more',
  );
  const plain = transactionGas('UniversalRouter', [[v3('link', 'weth'), v4('weth', 'usdc')]], false, false);
  t.ok(
    transactionGas('UniversalRouter', [[v3('link', 'weth'), v4(ETH, 'usdc')]], false, false) > plain,
    'an unwrap between pools costs more',
  );
  t.ok(transactionGas('UniversalRouter', [[v4('usdc', ETH), v3('weth', 'link')]], false, false) > plain, 'a wrap between pools costs more');
  t.equal(
    transactionGas('UniversalRouter', [[v4(ETH, 'usdc')], [v4('weth', 'usdc')]], true, false),
    callGas('UniversalRouter', 2, true, false, false, 'exactIn', false, { wraps: 0, unwraps: 0, poolIn: true }) +
      routeGas([v4(ETH, 'usdc')]) +
      routeGas([v4('weth', 'usdc')]),
    'a split mixing a native and a wrapped route wraps once and settles the native pool from the value, as callGas charges it',
  );
});
