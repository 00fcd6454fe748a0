// The Universal Router encoder (src/tx/routers/universalRouter.ts) against Uniswap's own universal-router-sdk 5.13
// (UR 2.0 ABI, the one UniversalRouter 2.1.0 decodes) as the oracle: for the same trades (v2, v3, v4 single and
// multi-hop, exact input and output, native input and output, mixed v3 -> v4 and v4 -> v2, three routes, a signed
// Permit2 permit) our execute(commands, inputs, deadline) calldata equals the SDK's byte for byte. Two deliberate
// choices differ and are checked as such: a one-pool v4 swap is SWAP_EXACT_(IN|OUT)_SINGLE (the SDK always writes the
// path form; the expected bytes then come from the SDK's own V4Planner with the _SINGLE action), and a v2 section
// after another section swaps ALREADY_PAID (0; its pair was paid by the section before) where the SDK writes
// CONTRACT_BALANCE, which makes the router transfer its zero balance of that token to the pair.
import { createRequire } from 'node:module';
import t, { type Test } from 'tap';
import { type Address, decodeFunctionData, type Hex } from 'viem';
import type { Leg, Route } from '../../../src/routing/Trade.ts';
import { universalRouterAbi } from '../../../src/tx/abis.ts';
import type { SignedPermit } from '../../../src/tx/permit2.ts';
import type { RouterContext, RouterTransaction } from '../../../src/tx/routers/RouterEncoder.ts';
import { UR_CONTRACT_BALANCE, universalRouter, withPermit } from '../../../src/tx/routers/universalRouter.ts';
import { StepBuildError } from '../../../src/tx/StepBuildError.ts';

const require = createRequire(import.meta.url);
// The SDKs load as CommonJS (their ES builds use extensionless imports): typed here only as far as the test calls them.
type Ctor = new (...args: unknown[]) => unknown;
const core = require('@uniswap/sdk-core') as {
  Token: Ctor;
  Ether: { onChain(chainId: number): unknown };
  CurrencyAmount: { fromRawAmount(currency: unknown, raw: string): unknown };
  Percent: Ctor;
  TradeType: { EXACT_INPUT: number; EXACT_OUTPUT: number };
};
const v2sdk = require('@uniswap/v2-sdk') as { Pair: Ctor & { getAddress(a: unknown, b: unknown): string }; Route: Ctor };
const v3sdk = require('@uniswap/v3-sdk') as { Pool: Ctor; Route: Ctor };
const v4sdk = require('@uniswap/v4-sdk') as {
  Pool: Ctor;
  Route: Ctor;
  V4Planner: new () => {
    addAction(type: number, params: unknown[]): unknown;
    addSettle(currency: unknown, payerIsUser: boolean, amount?: unknown): unknown;
    addTake(currency: unknown, recipient: string, amount?: unknown): unknown;
    finalize(): string;
  };
  Actions: Record<string, number>;
};
const routerSdk = require('@uniswap/router-sdk') as { Trade: Ctor; MixedRouteSDK: Ctor };
const urSdk = require('@uniswap/universal-router-sdk') as {
  SwapRouter: {
    swapCallParameters(trade: unknown, options: Record<string, unknown>): { calldata: string; value: string };
    encodePlan(planner: unknown, value: unknown, config: { deadline: unknown }): { calldata: string; value: string };
  };
  RoutePlanner: new () => { addCommand(type: number, params: unknown[]): unknown };
  CommandType: Record<string, number>;
  UniversalRouterVersion: Record<string, string>;
};
const { BigNumber } = require('ethers') as { BigNumber: { from(x: string | number): unknown } };

const ROUTER: Address = '0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af';
const RECIPIENT: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** ActionConstants.MSG_SENDER. */
const MSG_SENDER: Address = '0x0000000000000000000000000000000000000001';
const WALLET: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEADLINE = 1_900_000_000n;
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const HOOKS: Address = '0x0000000000000000000000000000000000000000';
const E18 = 10n ** 18n;

/** Currencies of the test: mainnet WETH9 (the SDK's wrapped Ether on chain 1), three tokens, native ETH. */
const ADDR: Record<string, Address> = {
  WETH: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  A: '0x1000000000000000000000000000000000000001',
  B: '0x2000000000000000000000000000000000000002',
  C: '0x3000000000000000000000000000000000000003',
  ETH: ZERO,
};
const sdkToken = (s: string): unknown => (s === 'ETH' ? core.Ether.onChain(1) : new core.Token(1, ADDR[s], 18, s));
const amount = (s: string, raw: bigint): unknown => core.CurrencyAmount.fromRawAmount(sdkToken(s), raw.toString());

interface PoolSpec {
  readonly kind: 'v2' | 'v3' | 'v4';
  readonly a: string;
  readonly b: string;
  readonly fee?: number;
  readonly tickSpacing?: number;
}
const Q96 = (1n << 96n).toString();

/** The SDK pool of a spec: 1:1 prices, deep liquidity (only the encoding matters). */
function sdkPool(p: PoolSpec): unknown {
  if (p.kind === 'v2') return new v2sdk.Pair(amount(p.a, 10n ** 30n), amount(p.b, 10n ** 30n));
  if (p.kind === 'v3') return new v3sdk.Pool(sdkToken(p.a), sdkToken(p.b), p.fee ?? 500, Q96, (10n ** 30n).toString(), 0);
  return new v4sdk.Pool(sdkToken(p.a), sdkToken(p.b), p.fee ?? 3000, p.tickSpacing ?? 60, HOOKS, Q96, (10n ** 30n).toString(), 0);
}

/** Our leg of a spec, from `from` to the pool's other currency. */
function legOf(p: PoolSpec, from: string, amountIn: bigint, amountOut: bigint): { leg: Leg; to: string } {
  const to = from === p.a ? p.b : p.a;
  const pool = p.kind === 'v2' ? v2sdk.Pair.getAddress(sdkToken(p.a), sdkToken(p.b)) : '0x000000000000000000000000000000000000dEaD';
  const fee = p.fee ?? (p.kind === 'v2' ? 3000 : p.kind === 'v3' ? 500 : 3000);
  const kind = ({ v2: 'uniswapV2', v3: 'uniswapV3', v4: 'uniswapV4' } as const)[p.kind] as Leg['kind'];
  const leg: Leg = {
    pool,
    kind,
    dex: 'uniswap',
    version: p.kind,
    fee,
    tokenIn: ADDR[from].toLowerCase(),
    tokenOut: ADDR[to].toLowerCase(),
    amountIn,
    amountOut,
    ticksCrossed: 0,
    coldSlots: 0,
    movesTick: false,
    ...(p.kind === 'v4' ? { poolKey: { fee, tickSpacing: p.tickSpacing ?? 60, hooks: HOOKS } } : {}),
  };
  return { leg, to };
}

interface RouteSpec {
  readonly pools: readonly PoolSpec[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}
interface TradeSpec {
  readonly tradeType: 'exactIn' | 'exactOut';
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly routes: readonly RouteSpec[];
  readonly permit?: SignedPermit;
  /** Default RECIPIENT; MSG_SENDER where the SDK's refunds (to its recipient) must meet ours (to msg.sender). */
  readonly recipient?: Address;
}

/** Our calldata of a trade (slippage 0: minimum = amountOut, maxima = amountIn). */
function ours(spec: TradeSpec): Hex {
  const nativeIn = spec.tokenIn === 'ETH';
  const nativeOut = spec.tokenOut === 'ETH';
  const routes: Route[] = spec.routes.map((r) => {
    // The route starts at the trade's input as its first pool holds it (WETH for a v2/v3 pool on native input).
    let from = nativeIn && r.pools[0].kind !== 'v4' ? 'WETH' : spec.tokenIn;
    const legs = r.pools.map((p, i) => {
      if (p.a !== from && p.b !== from) from = from === 'ETH' ? 'WETH' : 'ETH'; // an ETH/WETH crossing
      const { leg, to } = legOf(p, from, i === 0 ? r.amountIn : 1n, i === r.pools.length - 1 ? r.amountOut : 1n);
      from = to;
      return leg;
    });
    return { legs, amountIn: r.amountIn, amountOut: r.amountOut, executor: { kind: 'SwapRouter02', address: ROUTER, name: 'UR' }, gas: 0n };
  });
  const ctx: RouterContext = {
    router: ROUTER,
    nativeIn,
    nativeOut,
    poolTokenOut: nativeOut ? ADDR.WETH : ADDR[spec.tokenOut],
    recipient: spec.recipient ?? RECIPIENT,
    sender: WALLET, // unused by the Universal Router (it pays from msg.sender)
    deadline: DEADLINE,
    ...(spec.permit ? { permit2Permit: spec.permit } : {}),
  };
  const tx: RouterTransaction = {
    tradeType: spec.tradeType,
    routes,
    amountOutMinimum: routes.reduce((s, r) => s + r.amountOut, 0n),
    amountInMaximums: routes.map((r) => r.amountIn),
  };
  return universalRouter.encode(ctx, tx);
}

/** The SDK's calldata of the same trade. */
function sdks(spec: TradeSpec, urVersion = urSdk.UniversalRouterVersion.V2_0): Hex {
  const input = sdkToken(spec.tokenIn);
  const output = sdkToken(spec.tokenOut);
  const groups: Record<string, unknown[]> = { v2Routes: [], v3Routes: [], v4Routes: [], mixedRoutes: [] };
  for (const r of spec.routes) {
    const pools = r.pools.map(sdkPool);
    const kinds = new Set(r.pools.map((p) => p.kind));
    const amounts = { inputAmount: amount(spec.tokenIn, r.amountIn), outputAmount: amount(spec.tokenOut, r.amountOut) };
    if (kinds.size > 1) groups.mixedRoutes.push({ mixedRoute: new routerSdk.MixedRouteSDK(pools, input, output), ...amounts });
    else if (kinds.has('v2')) groups.v2Routes.push({ routev2: new v2sdk.Route(pools, input, output), ...amounts });
    else if (kinds.has('v3')) groups.v3Routes.push({ routev3: new v3sdk.Route(pools, input, output), ...amounts });
    else groups.v4Routes.push({ routev4: new v4sdk.Route(pools, input, output), ...amounts });
  }
  const tradeType = spec.tradeType === 'exactIn' ? core.TradeType.EXACT_INPUT : core.TradeType.EXACT_OUTPUT;
  const trade = new routerSdk.Trade({ ...groups, tradeType });
  const { calldata } = urSdk.SwapRouter.swapCallParameters(trade, {
    slippageTolerance: new core.Percent(0, 100),
    recipient: spec.recipient ?? RECIPIENT,
    deadlineOrPreviousBlockhash: DEADLINE.toString(),
    urVersion,
    ...(spec.permit ? { inputTokenPermit: sdkPermit(spec.permit) } : {}),
  });
  return calldata as Hex;
}

function sdkPermit(p: SignedPermit): unknown {
  const d = p.permit.details;
  return {
    details: { token: d.token, amount: d.amount.toString(), expiration: d.expiration.toString(), nonce: d.nonce.toString() },
    spender: p.permit.spender,
    sigDeadline: p.permit.sigDeadline.toString(),
    signature: p.signature,
  };
}

/** execute's arguments, decoded, for readable diffs. */
function decoded(calldata: Hex): readonly unknown[] {
  return decodeFunctionData({ abi: universalRouterAbi, data: calldata }).args;
}

/**
 * Our calldata against the SDK's. UniversalRouter 2.1.0's V4Router (the npm artifact the devnet runs) takes a
 * per-hop limit list in the path-form swaps (SWAP_EXACT_IN / SWAP_EXACT_OUT), the layout the SDK writes for UR 2.1.1,
 * while its V2/V3 commands are UR 2.0's: each V4_SWAP input is compared with the SDK's 2.1.1 plan, every other
 * command's with its 2.0 plan.
 */
function same(t: Test, spec: TradeSpec, name: string, a: Hex = ours(spec)): void {
  const [commands, v20, deadline] = decoded(sdks(spec)) as [Hex, Hex[], bigint];
  const [commands211, v211] = decoded(sdks(spec, urSdk.UniversalRouterVersion.V2_1_1)) as [Hex, Hex[], bigint];
  t.equal(commands211, commands, `${name}: the SDK plans the same commands for both versions`);
  const codes = commands.slice(2).match(/../g)!;
  const inputs = codes.map((code, i) => (code === '10' ? v211[i] : v20[i]));
  t.strictSame(decoded(a), [commands, inputs, deadline], `${name}: commands and inputs`);
}

const v2 = (a: string, b: string): PoolSpec => ({ kind: 'v2', a, b });
const v3 = (a: string, b: string, fee = 500): PoolSpec => ({ kind: 'v3', a, b, fee });
const v4 = (a: string, b: string, fee = 3000, tickSpacing = 60): PoolSpec => ({ kind: 'v4', a, b, fee, tickSpacing });
const route = (pools: PoolSpec[], amountIn: bigint, amountOut: bigint): RouteSpec => ({ pools, amountIn, amountOut });
/** What the SDK's v2 Trade computes itself from the pairs (it ignores the amounts given): a v2 route's exact output. */
function v2Out(pools: PoolSpec[], from: string, amountIn: bigint): bigint {
  let x = amount(from, amountIn);
  for (const p of pools) {
    const pair = sdkPool(p) as { getOutputAmount(a: unknown): [unknown] };
    x = pair.getOutputAmount(x)[0];
  }
  return BigInt((x as { quotient: { toString(): string } }).quotient.toString());
}

t.test('v2 and v3 routes, exact input and output, equal the SDK', async (t) => {
  same(t, { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'B', routes: [route([v3('A', 'B')], 5n * E18, 4n * E18)] }, 'v3 one pool');
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'C', routes: [route([v3('A', 'B', 3000), v3('B', 'C', 100)], 5n * E18, 4n * E18)] },
    'v3 two pools',
  );
  same(
    t,
    {
      tradeType: 'exactIn',
      tokenIn: 'A',
      tokenOut: 'C',
      routes: [route([v2('A', 'B'), v2('B', 'C')], 7n * E18, v2Out([v2('A', 'B'), v2('B', 'C')], 'A', 7n * E18))],
    },
    'v2',
  );
  same(t, { tradeType: 'exactOut', tokenIn: 'A', tokenOut: 'B', routes: [route([v3('A', 'B')], 5n * E18, 4n * E18)] }, 'v3 exact out');
  same(
    t,
    { tradeType: 'exactOut', tokenIn: 'A', tokenOut: 'C', routes: [route([v3('A', 'B', 3000), v3('B', 'C')], 5n * E18, 4n * E18)] },
    'v3 exact out, two pools (reversed path)',
  );
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'ETH', tokenOut: 'A', routes: [route([v3('WETH', 'A')], E18, 3n * E18)] },
    'native in: WRAP_ETH',
  );
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'ETH', routes: [route([v3('A', 'WETH')], E18, 3n * E18)] },
    'native out: UNWRAP_WETH',
  );
  same(
    t,
    { tradeType: 'exactOut', tokenIn: 'ETH', tokenOut: 'A', routes: [route([v3('WETH', 'A')], E18, 3n * E18)], recipient: MSG_SENDER },
    'native in, exact out: the rest unwrapped back',
  );
  same(
    t,
    { tradeType: 'exactOut', tokenIn: 'A', tokenOut: 'ETH', routes: [route([v3('A', 'WETH')], E18, 3n * E18)] },
    'native out, exact out',
  );
  same(
    t,
    {
      tradeType: 'exactIn',
      tokenIn: 'A',
      tokenOut: 'C',
      // The SDK plans v2 routes before v3 routes.
      routes: [
        route([v2('A', 'C')], E18, v2Out([v2('A', 'C')], 'A', E18)),
        route([v3('A', 'C')], 5n * E18, 4n * E18),
        route([v3('A', 'B'), v3('B', 'C')], 3n * E18, 2n * E18),
      ],
    },
    'three routes: the router holds the output and sweeps it with the minimum',
  );
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'C', routes: [route([v2('A', 'B'), v3('B', 'C')], 5n * E18, 4n * E18)] },
    'mixed v2 -> v3',
  );
});

t.test('v4 routes: path form equals the SDK, one pool is the _SINGLE action', async (t) => {
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'C', routes: [route([v4('A', 'B'), v4('B', 'C', 500, 10)], 5n * E18, 4n * E18)] },
    'v4 multi-hop exact in',
  );
  same(
    t,
    { tradeType: 'exactOut', tokenIn: 'A', tokenOut: 'C', routes: [route([v4('A', 'B'), v4('B', 'C', 500, 10)], 5n * E18, 4n * E18)] },
    'v4 multi-hop exact out',
  );
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'ETH', tokenOut: 'B', routes: [route([v4('ETH', 'A'), v4('A', 'B')], E18, 3n * E18)] },
    'v4 native in (settled from the value sent)',
  );
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'B', tokenOut: 'ETH', routes: [route([v4('B', 'A'), v4('A', 'ETH', 500, 10)], 3n * E18, E18)] },
    'v4 native out (taken by the recipient)',
  );
  same(
    t,
    {
      tradeType: 'exactOut',
      tokenIn: 'ETH',
      tokenOut: 'B',
      routes: [route([v4('ETH', 'A'), v4('A', 'B')], E18, 3n * E18)],
      recipient: MSG_SENDER,
    },
    'v4 native in, exact out: the rest swept back',
  );
  same(
    t,
    {
      tradeType: 'exactOut',
      tokenIn: 'A',
      tokenOut: 'C',
      routes: [route([v3('A', 'B'), v3('B', 'C')], 5n * E18, 4n * E18), route([v4('A', 'B'), v4('B', 'C')], 3n * E18, 2n * E18)],
    },
    'split across v3 and v4, exact out',
  );
  same(
    t,
    {
      tradeType: 'exactIn',
      tokenIn: 'A',
      tokenOut: 'WETH',
      routes: [route([v3('A', 'B'), v4('B', 'C'), v4('C', 'WETH')], 5n * E18, 4n * E18)],
    },
    'mixed v3 -> v4 (two v4 pools: the path form)',
  );

  // One pool: the SDK's V4Planner with the _SINGLE action, then SETTLE and TAKE as the SDK plans them.
  const single = (exactOut: boolean, native: boolean) => {
    const [a, b] = native ? ['ETH', 'A'] : ['A', 'B'];
    const planner = new v4sdk.V4Planner();
    const [c0, c1] = BigInt(ADDR[a]) < BigInt(ADDR[b]) ? [a, b] : [b, a];
    const poolKey = { currency0: ADDR[c0], currency1: ADDR[c1], fee: 3000, tickSpacing: 60, hooks: HOOKS };
    const [amountIn, amountOut] = [2n * E18, 3n * E18];
    planner.addAction(exactOut ? v4sdk.Actions.SWAP_EXACT_OUT_SINGLE : v4sdk.Actions.SWAP_EXACT_IN_SINGLE, [
      exactOut
        ? { poolKey, zeroForOne: c0 === a, amountOut: amountOut.toString(), amountInMaximum: amountIn.toString(), hookData: '0x' }
        : { poolKey, zeroForOne: c0 === a, amountIn: amountIn.toString(), amountOutMinimum: amountOut.toString(), hookData: '0x' },
    ]);
    planner.addSettle(sdkToken(a), true);
    planner.addTake(sdkToken(b), RECIPIENT, exactOut ? BigNumber.from(amountOut.toString()) : undefined);
    const plan = new urSdk.RoutePlanner();
    plan.addCommand(urSdk.CommandType.V4_SWAP, [planner.finalize()]);
    const expected = urSdk.SwapRouter.encodePlan(plan, BigNumber.from(0), { deadline: BigNumber.from(DEADLINE.toString()) }).calldata;
    const spec: TradeSpec = {
      tradeType: exactOut ? 'exactOut' : 'exactIn',
      tokenIn: a,
      tokenOut: b,
      routes: [route([v4(a, b)], amountIn, amountOut)],
    };
    return {
      got: ours(spec),
      expected: expected as Hex,
      name: `v4 one pool, ${exactOut ? 'exact out' : 'exact in'}${native ? ', native in' : ''}`,
    };
  };
  for (const [exactOut, native] of [
    [false, false],
    [true, false],
    [false, true],
  ] as const) {
    const { got, expected, name } = single(exactOut, native);
    t.strictSame(decoded(got), decoded(expected), `${name}: commands and inputs`);
    t.equal(got, expected, `${name}: calldata`);
  }
});

t.test('mixed v4 -> v2: the SDK save that the v2 section swaps ALREADY_PAID, not CONTRACT_BALANCE', async (t) => {
  const spec: TradeSpec = {
    tradeType: 'exactIn',
    tokenIn: 'A',
    tokenOut: 'WETH',
    routes: [route([v4('A', 'B'), v4('B', 'C'), v2('C', 'WETH')], 5n * E18, 4n * E18)],
  };
  const [commands, oursInputs] = decoded(ours(spec)) as [Hex, Hex[], bigint];
  const [sdkCommands, sdkInputs] = decoded(sdks(spec)) as [Hex, Hex[], bigint];
  t.equal(commands, sdkCommands, 'commands: V4_SWAP then V2_SWAP_EXACT_IN');
  t.equal(commands, '0x1008', 'V4_SWAP then V2_SWAP_EXACT_IN');
  const [, sdk211] = decoded(sdks(spec, urSdk.UniversalRouterVersion.V2_1_1)) as [Hex, Hex[], bigint];
  t.equal(oursInputs[0], sdk211[0], 'the v4 section takes its output to the v2 pair (UR 2.1 path layout, see same())');
  const word = (n: bigint): string => n.toString(16).padStart(64, '0');
  t.equal(oursInputs[1], sdkInputs[1].replace(word(UR_CONTRACT_BALANCE), word(0n)), 'the v2 section: ALREADY_PAID');
  t.not(oursInputs[1], sdkInputs[1]);
});

t.test('a signed permit comes first as PERMIT2_PERMIT, as the SDK encodes inputTokenPermit', async (t) => {
  const permit: SignedPermit = {
    permit: {
      details: { token: ADDR.A, amount: 5n * E18, expiration: 1_900_000_100, nonce: 3 },
      spender: ROUTER,
      sigDeadline: 1_900_000_000n,
    },
    signature: `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`,
  };
  same(
    t,
    { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'B', routes: [route([v3('A', 'B')], 5n * E18, 4n * E18)], permit },
    'permit + v3',
  );
});

t.test('withPermit: a permit signed after the swap was encoded goes first, the bytes of encode with it and of the SDK', async (t) => {
  // approvalMode "permit2": the quote's swap is encoded without the permit and held until POST /quotes/{id}/swap.
  const permit: SignedPermit = {
    permit: {
      details: { token: ADDR.A, amount: 5n * E18, expiration: 1_900_000_000, nonce: 4 },
      spender: ROUTER,
      sigDeadline: 1_900_000_000n,
    },
    signature: `0x${'33'.repeat(32)}${'44'.repeat(32)}1c`,
  };
  // [name, spec, whether the SDK plans it as we do (a single v4 pool and a split differ deliberately, see above)]
  const specs: [string, TradeSpec, boolean][] = [
    ['v3 exact in', { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'B', routes: [route([v3('A', 'B')], 5n * E18, 4n * E18)] }, true],
    [
      'v4 multi-hop exact in',
      { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'C', routes: [route([v4('A', 'B'), v4('B', 'C', 500, 10)], 5n * E18, 4n * E18)] },
      true,
    ],
    [
      'v4 multi-hop exact out',
      { tradeType: 'exactOut', tokenIn: 'A', tokenOut: 'C', routes: [route([v4('A', 'B'), v4('B', 'C', 500, 10)], 5n * E18, 4n * E18)] },
      true,
    ],
    [
      'v4 one pool exact in',
      { tradeType: 'exactIn', tokenIn: 'A', tokenOut: 'B', routes: [route([v4('A', 'B', 100, 1)], 5n * E18, 4n * E18)] },
      false,
    ],
    [
      'split v3 + v4 exact in',
      {
        tradeType: 'exactIn',
        tokenIn: 'A',
        tokenOut: 'B',
        routes: [route([v3('A', 'B')], 3n * E18, 2n * E18), route([v4('A', 'B')], 2n * E18, 2n * E18)],
      },
      false,
    ],
  ];
  for (const [name, spec, sdkPlansIt] of specs) {
    const later = withPermit(ours(spec), permit);
    t.equal(later, ours({ ...spec, permit }), `${name}: the bytes of encode with the permit`);
    if (sdkPlansIt) same(t, { ...spec, permit }, `${name} + permit`, later);
  }
  const [, spec] = specs[0];
  t.throws(() => withPermit(ours({ ...spec, permit }), permit), new StepBuildError('calldata: already carries a PERMIT2_PERMIT'));
  t.throws(
    () => withPermit('0x12345678', permit),
    new StepBuildError('calldata: not a UniversalRouter execute(commands, inputs, deadline)'),
  );
});
