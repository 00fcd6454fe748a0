import { type AbiParameter, type Address, decodeFunctionData, getAddress, type Hex } from 'viem';
import { abiEncode } from '../abiEncode.ts';
import { universalRouterAbi } from '../abis.ts';
import { encodeCall } from '../encodeCall.ts';
import type { SignedPermit } from '../permit2.ts';
import { StepBuildError } from '../StepBuildError.ts';
import { packedV3Path, type RouterContext, type RouterEncoder, type RouterTransaction, routeSwaps, type Section } from './RouterEncoder.ts';

/** UniversalRouter `Commands` (contracts/libraries/Commands.sol) used here: one byte each in `commands`. */
export const UR_COMMAND = {
  V3_SWAP_EXACT_IN: 0x00,
  V3_SWAP_EXACT_OUT: 0x01,
  SWEEP: 0x04,
  V2_SWAP_EXACT_IN: 0x08,
  V2_SWAP_EXACT_OUT: 0x09,
  PERMIT2_PERMIT: 0x0a,
  WRAP_ETH: 0x0b,
  UNWRAP_WETH: 0x0c,
  V4_SWAP: 0x10,
} as const;

/** v4-periphery `Actions` (src/libraries/Actions.sol) of V4Router used here: one byte each in a V4_SWAP's `actions`. */
export const V4_ACTION = {
  SWAP_EXACT_IN_SINGLE: 0x06,
  SWAP_EXACT_IN: 0x07,
  SWAP_EXACT_OUT_SINGLE: 0x08,
  SWAP_EXACT_OUT: 0x09,
  SETTLE: 0x0b,
  TAKE: 0x0e,
} as const;

/** ActionConstants (v4-periphery, shared by the Universal Router): `msg.sender` and the router itself as recipients. */
export const UR_MSG_SENDER: Address = '0x0000000000000000000000000000000000000001';
export const UR_ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002';
/** ActionConstants.CONTRACT_BALANCE: as an amount, the router's whole balance of the currency. */
export const UR_CONTRACT_BALANCE = 1n << 255n;
/** ActionConstants.OPEN_DELTA: as a settle/take amount the whole open delta, as a swap's amountIn the open credit. */
const OPEN_DELTA = 0n;
/** Constants.ALREADY_PAID: a V2_SWAP_EXACT_IN whose first pair already holds its input. */
const ALREADY_PAID = 0n;
/** A v4 currency that is the native asset (Currency.wrap(address(0))); SWEEP names ETH so too (Constants.ETH). */
const NATIVE: Address = '0x0000000000000000000000000000000000000000';

const p = (type: string, name = '', components?: readonly AbiParameter[]): AbiParameter =>
  (components ? { type, name, components } : { type, name }) as AbiParameter;
const POOL_KEY = p('tuple', 'poolKey', [
  p('address', 'currency0'),
  p('address', 'currency1'),
  p('uint24', 'fee'),
  p('int24', 'tickSpacing'),
  p('address', 'hooks'),
]);
const PATH_KEYS = p('tuple[]', 'path', [
  p('address', 'intermediateCurrency'),
  p('uint24', 'fee'),
  p('int24', 'tickSpacing'),
  p('address', 'hooks'),
  p('bytes', 'hookData'),
]);

/** The ABI of each command's input (the Dispatcher's `abi.decode` equivalents) and of each V4Router action's params. */
const INPUT = {
  v3Swap: [p('address'), p('uint256'), p('uint256'), p('bytes'), p('bool')],
  v2Swap: [p('address'), p('uint256'), p('uint256'), p('address[]'), p('bool')],
  wrap: [p('address'), p('uint256')],
  sweep: [p('address'), p('address'), p('uint256')],
  permit: [
    p('tuple', 'permitSingle', [
      p('tuple', 'details', [p('address', 'token'), p('uint160', 'amount'), p('uint48', 'expiration'), p('uint48', 'nonce')]),
      p('address', 'spender'),
      p('uint256', 'sigDeadline'),
    ]),
    p('bytes'),
  ],
  v4Swap: [p('bytes'), p('bytes[]')],
  exactSingle: [p('tuple', '', [POOL_KEY, p('bool', 'zeroForOne'), p('uint128', 'a'), p('uint128', 'b'), p('bytes', 'hookData')])],
  // UniversalRouter 2.1's V4Router takes a per-hop limit list after the path (empty: none; else one per hop, or
  // InvalidHopSlippageLength): the layout of universal-router-sdk's 2.1.1 structs, not of its 2.0 ones.
  exactPath: [
    p('tuple', '', [p('address', 'currency'), PATH_KEYS, p('uint256[]', 'maxHopSlippage'), p('uint128', 'a'), p('uint128', 'b')]),
  ],
  settle: [p('address'), p('uint256'), p('bool')],
  take: [p('address'), p('address'), p('uint256')],
} as const satisfies Record<string, readonly AbiParameter[]>;

const execute = encodeCall(universalRouterAbi, 'execute');

/** Commands with their inputs, in order. */
class Plan {
  readonly commands: number[] = [];
  readonly inputs: Hex[] = [];
  add(command: number, params: readonly AbiParameter[], values: readonly unknown[]): void {
    this.commands.push(command);
    this.inputs.push(abiEncode(params, values));
  }
  /** V4_SWAP: its input is the V4Router's `abi.encode(bytes actions, bytes[] params)` itself. */
  addV4(v4: V4Plan): void {
    this.commands.push(UR_COMMAND.V4_SWAP);
    this.inputs.push(v4.encode());
  }
}

/** V4Router actions with their params: one V4_SWAP's `abi.encode(bytes actions, bytes[] params)`. */
class V4Plan {
  private readonly actions: number[] = [];
  private readonly params: Hex[] = [];
  add(action: number, params: readonly AbiParameter[], values: readonly unknown[]): this {
    this.actions.push(action);
    this.params.push(abiEncode(params, values));
    return this;
  }
  /** A swap of a v4 section: `_SINGLE` for one pool, else the path form (exactOut: the path from input to output). */
  swap(section: Section, exactOut: boolean, amount: bigint, limit: bigint): this {
    const { legs, tokens } = section;
    if (legs.length === 1) {
      const zeroForOne = BigInt(tokens[0]) < BigInt(tokens[1]);
      const [currency0, currency1] = zeroForOne ? [tokens[0], tokens[1]] : [tokens[1], tokens[0]];
      const key = v4Key(section, 0);
      const poolKey = { currency0, currency1, fee: key.fee, tickSpacing: key.tickSpacing, hooks: key.hooks };
      const action = exactOut ? V4_ACTION.SWAP_EXACT_OUT_SINGLE : V4_ACTION.SWAP_EXACT_IN_SINGLE;
      return this.add(action, INPUT.exactSingle, [[poolKey, zeroForOne, amount, limit, '0x']]);
    }
    // PathKey.intermediateCurrency: each hop's output (exact input) or input (exact output, hops still in order).
    const path = legs.map((_, i) => {
      const key = v4Key(section, i);
      return [exactOut ? tokens[i] : tokens[i + 1], key.fee, key.tickSpacing, key.hooks, '0x'];
    });
    const currency = exactOut ? tokens[tokens.length - 1] : tokens[0];
    return this.add(exactOut ? V4_ACTION.SWAP_EXACT_OUT : V4_ACTION.SWAP_EXACT_IN, INPUT.exactPath, [[currency, path, [], amount, limit]]);
  }
  settle(currency: Address, amount: bigint, payerIsUser: boolean): this {
    return this.add(V4_ACTION.SETTLE, INPUT.settle, [currency, amount, payerIsUser]);
  }
  take(currency: Address, recipient: Address, amount: bigint): this {
    return this.add(V4_ACTION.TAKE, INPUT.take, [currency, recipient, amount]);
  }
  encode(): Hex {
    return abiEncode(INPUT.v4Swap, [`0x${this.actions.map((a) => a.toString(16).padStart(2, '0')).join('')}`, this.params]);
  }
}

/** A v4 leg's PoolKey beyond its currencies (Leg.poolKey), checked. */
function v4Key(section: Section, i: number): { fee: number; tickSpacing: number; hooks: Address } {
  const leg = section.legs[i];
  if (!leg.poolKey) throw new StepBuildError(`v4 pool ${leg.pool}: the leg carries no PoolKey (fee, tickSpacing, hooks)`);
  let hooks: Address;
  try {
    hooks = getAddress(leg.poolKey.hooks);
  } catch {
    throw new StepBuildError(`v4 pool ${leg.pool}: hooks "${leg.poolKey.hooks}" is not an address`);
  }
  return { fee: leg.poolKey.fee, tickSpacing: leg.poolKey.tickSpacing, hooks };
}

/**
 * A route cut where the protocol changes or the route crosses between native ETH and WETH pools (a wrap or unwrap
 * between two commands), each section with its own tokens as its pools hold them.
 */
function routeSections(route: RouterTransaction['routes'][number]): Section[] {
  const { legs, tokens } = routeSwaps(route);
  const out: Section[] = [];
  let start = 0;
  for (let i = 1; i <= legs.length; i++) {
    if (i < legs.length && legs[i].kind === legs[start].kind && legs[i].tokenIn === legs[i - 1].tokenOut) continue;
    const part = legs.slice(start, i);
    const own = [tokens[start], ...part.map((_, j) => tokens[start + j + 1])];
    // A section's first token is its first leg's own input (a native v4 pool after a WETH pool holds ETH).
    own[0] = getAddress(part[0].tokenIn);
    out.push({ kind: legs[start].kind, legs: part, tokens: own });
    start = i;
  }
  return out;
}

const isNative = (a: Address): boolean => a === NATIVE;
const first = (s: Section): Address => s.tokens[0];
const last = (s: Section): Address => s.tokens[s.tokens.length - 1];

/**
 * Uniswap UniversalRouter 2.x: every route of the trade in one `execute(commands, inputs, deadline)`, v2 pairs, v3 and
 * v4 pools mixed (the router built with the DEX's v2 and v3 factories and v4 PoolManager), the input pulled through
 * Permit2 (`payerIsUser`; a signed permit first as PERMIT2_PERMIT when the context carries one), the way Uniswap's
 * universal-router-sdk plans a trade (test/tx/routers/universalRouter.test.ts compares the bytes):
 * - Native input: a route whose first pool holds WETH starts with WRAP_ETH(router, its amountIn or amountInMaximum)
 *   and is paid by the router; a native-ETH v4 pool settles from the value sent. Exact output refunds what is left:
 *   UNWRAP_WETH(msg.sender, 0) after wrapping, SWEEP(ETH, msg.sender, 0) after a native v4 pool.
 * - Exact input: a route is cut into sections of one protocol: V2_SWAP_EXACT_IN (path of tokens), V3_SWAP_EXACT_IN
 *   (packed path), V4_SWAP. A section that is not the route's first swaps the router's balance (CONTRACT_BALANCE;
 *   a v2 section's pair is paid directly by the section before, ALREADY_PAID). A pure v4 route is SWAP_EXACT_IN(_SINGLE)
 *   for its amountIn, SETTLE(currencyIn, OPEN_DELTA), TAKE(currencyOut, recipient, OPEN_DELTA); a v4 section of a
 *   mixed route settles first (its amountIn, or CONTRACT_BALANCE) and swaps the open credit. Between sections an ETH
 *   output meeting a WETH pool is wrapped (WRAP_ETH of the balance), a WETH output meeting a native pool unwrapped.
 *   One route whose last pool holds the output currency pays the recipient with the transaction's minimum; otherwise
 *   every route pays the router and the close pays the recipient the whole balance with the minimum: SWEEP(token),
 *   UNWRAP_WETH (native output from WETH pools), SWEEP(ETH) (native output from native pools; after UNWRAP_WETH to
 *   the router when both).
 * - Exact output (v3 and v4 routes of one protocol; UniversalRouter's v2 exact output pays out whatever the first
 *   pair's input buys, more than asked: src/routing/executors.ts): V3_SWAP_EXACT_OUT (reversed packed path) or V4
 *   SWAP_EXACT_OUT(_SINGLE), SETTLE(currencyIn, OPEN_DELTA), TAKE(currencyOut, recipient, amountOut), each for exactly
 *   its amountOut and at most its amountInMaximum; a WETH output for a native recipient goes to the router and
 *   UNWRAP_WETH(recipient, sum) pays it.
 */
export const universalRouter: RouterEncoder = {
  pullsThroughPermit2: true,
  batch(routes) {
    return [[...routes]];
  },
  encode(ctx: RouterContext, tx: RouterTransaction): Hex {
    const plan = new Plan();
    if (ctx.permit2Permit) addPermit(plan, ctx.permit2Permit);
    const exactOut = tx.tradeType === 'exactOut';
    const parts = tx.routes.map(routeSections);
    // The currency the recipient is paid in as a pool would hold it: ETH (zero address) for native output.
    const payCurrency = ctx.nativeOut ? NATIVE : ctx.poolTokenOut;
    const endsOf = parts.map((s) => last(s[s.length - 1]));
    const custody = exactOut ? endsOf.map((e) => e !== payCurrency) : endsOf.map(() => tx.routes.length > 1 || endsOf[0] !== payCurrency);
    let wrapped = false;
    let nativeSettled = false;
    tx.routes.forEach((route, r) => {
      const sections = parts[r];
      const start = first(sections[0]);
      const wraps = ctx.nativeIn && !isNative(start);
      if (!ctx.nativeIn && isNative(start)) throw new StepBuildError('a route from a native v4 pool needs a native input');
      if (wraps) plan.add(UR_COMMAND.WRAP_ETH, INPUT.wrap, [UR_ADDRESS_THIS, tx.amountInMaximums[r]]);
      wrapped ||= wraps;
      nativeSettled ||= isNative(start);
      // Paid by the wallet through Permit2, except what the router wrapped (the SDK's payerIsUser).
      const payerIsUser = !wraps;
      const recipient = custody[r] ? UR_ADDRESS_THIS : ctx.recipient;
      if (exactOut) {
        if (sections.length !== 1) throw new StepBuildError('UniversalRouter executes exact-output routes of one protocol only');
        addExactOut(plan, sections[0], route.amountOut, tx.amountInMaximums[r], recipient, payerIsUser);
        return;
      }
      const minimum = custody[r] ? 0n : tx.amountOutMinimum;
      addExactIn(plan, sections, route.amountIn, minimum, recipient, payerIsUser);
    });
    // Pay out what the router holds.
    const held = endsOf.filter((_, r) => custody[r]);
    if (held.length > 0) {
      const owed = exactOut ? tx.routes.reduce((s, route, r) => (custody[r] ? s + route.amountOut : s), 0n) : tx.amountOutMinimum;
      const heldNative = held.some(isNative);
      const heldToken = held.some((e) => !isNative(e));
      if (ctx.nativeOut) {
        if (heldToken && !heldNative) plan.add(UR_COMMAND.UNWRAP_WETH, INPUT.wrap, [ctx.recipient, owed]);
        else {
          if (heldToken) plan.add(UR_COMMAND.UNWRAP_WETH, INPUT.wrap, [UR_ADDRESS_THIS, 0n]);
          plan.add(UR_COMMAND.SWEEP, INPUT.sweep, [NATIVE, ctx.recipient, owed]);
        }
      } else {
        if (heldNative) plan.add(UR_COMMAND.WRAP_ETH, INPUT.wrap, [UR_ADDRESS_THIS, UR_CONTRACT_BALANCE]);
        plan.add(UR_COMMAND.SWEEP, INPUT.sweep, [ctx.poolTokenOut, ctx.recipient, owed]);
      }
    }
    if (exactOut && wrapped) plan.add(UR_COMMAND.UNWRAP_WETH, INPUT.wrap, [UR_MSG_SENDER, 0n]);
    if (exactOut && nativeSettled) plan.add(UR_COMMAND.SWEEP, INPUT.sweep, [NATIVE, UR_MSG_SENDER, 0n]);
    const commands: Hex = `0x${plan.commands.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    return execute([commands, plan.inputs, ctx.deadline]);
  },
};

/**
 * The calldata of a Universal Router transaction encoded without a permit (approvalMode "permit2": the swap held back
 * until the wallet signs), with the signed permit put first as PERMIT2_PERMIT: the same bytes as `encode` with the
 * context's `permit2Permit`. Throws StepBuildError on calldata that is not `execute(commands, inputs, deadline)` or
 * already carries a permit.
 */
export function withPermit(data: Hex, signed: SignedPermit): Hex {
  let args: readonly unknown[] | undefined;
  try {
    const call = decodeFunctionData({ abi: universalRouterAbi, data });
    if (call.functionName === 'execute') args = call.args;
  } catch {
    args = undefined;
  }
  if (args?.length !== 3) throw new StepBuildError('calldata: not a UniversalRouter execute(commands, inputs, deadline)');
  const [commands, inputs, deadline] = args as [Hex, readonly Hex[], bigint];
  if (commands.slice(2, 4) === UR_COMMAND.PERMIT2_PERMIT.toString(16).padStart(2, '0'))
    throw new StepBuildError('calldata: already carries a PERMIT2_PERMIT');
  const plan = new Plan();
  addPermit(plan, signed);
  return execute([
    `0x${plan.commands.map((c) => c.toString(16).padStart(2, '0')).join('')}${commands.slice(2)}`,
    [...plan.inputs, ...inputs],
    deadline,
  ]);
}

function addPermit(plan: Plan, signed: SignedPermit): void {
  const { permit, signature } = signed;
  plan.add(UR_COMMAND.PERMIT2_PERMIT, INPUT.permit, [
    { details: permit.details, spender: permit.spender, sigDeadline: permit.sigDeadline },
    signature,
  ]);
}

/** The sections of one exact-input route, its amountIn paid by the wallet (payerIsUser) or the router. */
function addExactIn(
  plan: Plan,
  sections: readonly Section[],
  amountIn: bigint,
  minimum: bigint,
  recipient: Address,
  payerIsUser: boolean,
): void {
  const mixed = sections.length > 1;
  let paidPair = false;
  sections.forEach((section, i) => {
    const isLast = i === sections.length - 1;
    const next = isLast ? undefined : sections[i + 1];
    // A v2 section next, on the same token: pay its first pair directly.
    const toPair = next !== undefined && next.kind === 'uniswapV2' && last(section) === first(next);
    const to = isLast ? recipient : toPair ? (getAddress(next.legs[0].pool) as Address) : UR_ADDRESS_THIS;
    const min = isLast ? minimum : 0n;
    const payer = payerIsUser && i === 0;
    const kind: string = section.kind;
    switch (kind) {
      case 'uniswapV2': {
        const amount = i === 0 ? amountIn : paidPair ? ALREADY_PAID : UR_CONTRACT_BALANCE;
        plan.add(UR_COMMAND.V2_SWAP_EXACT_IN, INPUT.v2Swap, [to, amount, min, section.tokens, payer]);
        break;
      }
      case 'uniswapV3':
        plan.add(UR_COMMAND.V3_SWAP_EXACT_IN, INPUT.v3Swap, [
          to,
          i === 0 ? amountIn : UR_CONTRACT_BALANCE,
          min,
          packedV3Path(section),
          payer,
        ]);
        break;
      case 'uniswapV4': {
        const v4 = new V4Plan();
        if (mixed) {
          v4.settle(first(section), i === 0 ? amountIn : UR_CONTRACT_BALANCE, payer)
            .swap(section, false, OPEN_DELTA, min)
            .take(last(section), to, OPEN_DELTA);
        } else {
          v4.swap(section, false, amountIn, min).settle(first(section), OPEN_DELTA, payer).take(last(section), to, OPEN_DELTA);
        }
        plan.addV4(v4);
        break;
      }
      default:
        throw new StepBuildError(`UniversalRouter cannot swap ${section.kind} pools`);
    }
    paidPair = toPair;
    if (next) transition(plan, last(section), first(next));
  });
}

/** Between two sections of a route: wrap an ETH output for a WETH pool, unwrap a WETH output for a native pool. */
function transition(plan: Plan, out: Address, next: Address): void {
  if (out === next) return;
  if (isNative(out)) plan.add(UR_COMMAND.WRAP_ETH, INPUT.wrap, [UR_ADDRESS_THIS, UR_CONTRACT_BALANCE]);
  else if (isNative(next)) plan.add(UR_COMMAND.UNWRAP_WETH, INPUT.wrap, [UR_ADDRESS_THIS, 0n]);
  else throw new StepBuildError(`a route's section ends at ${out} but the next starts at ${next}`);
}

/** One exact-output route of one protocol: exactly amountOut to `recipient`, at most amountInMaximum in. */
function addExactOut(
  plan: Plan,
  section: Section,
  amountOut: bigint,
  amountInMaximum: bigint,
  recipient: Address,
  payerIsUser: boolean,
): void {
  const kind: string = section.kind;
  switch (kind) {
    case 'uniswapV3':
      plan.add(UR_COMMAND.V3_SWAP_EXACT_OUT, INPUT.v3Swap, [
        recipient,
        amountOut,
        amountInMaximum,
        packedV3Path(section, true),
        payerIsUser,
      ]);
      return;
    case 'uniswapV4': {
      const v4 = new V4Plan()
        .swap(section, true, amountOut, amountInMaximum)
        .settle(first(section), OPEN_DELTA, payerIsUser)
        .take(last(section), recipient, amountOut);
      plan.addV4(v4);
      return;
    }
    default:
      throw new StepBuildError(`UniversalRouter executes exact-output routes of v3 and v4 pools only, not ${section.kind}`);
  }
}
