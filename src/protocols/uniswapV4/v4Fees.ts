/**
 * What Uniswap v4's PoolManager charges and allows, from v4-core's libraries: the LP fee (LPFeeLibrary), the protocol
 * fee per direction and the swap fee they make together (ProtocolFeeLibrary, Pool.swap), and which hooks leave a swap
 * priceable from pool state alone (Hooks: permissions are the low 14 bits of the hook's address).
 */

/** LPFeeLibrary.DYNAMIC_FEE_FLAG: a PoolKey fee with this value has its LP fee set by its hook. */
export const DYNAMIC_FEE_FLAG = 0x800000;
/** LPFeeLibrary.MAX_LP_FEE and SwapMath.MAX_SWAP_FEE: 100% in pips. */
export const MAX_LP_FEE = 1_000_000;
/** ProtocolFeeLibrary.MAX_PROTOCOL_FEE: 0.1% in pips, per direction. */
export const MAX_PROTOCOL_FEE = 1000;
/** TickMath.MAX_TICK_SPACING (type(int16).max). */
export const MAX_TICK_SPACING = 32_767;

/** Hooks.sol's permission flags: bit n of the hook address. */
export const HOOK_FLAGS = {
  beforeInitialize: 1 << 13,
  afterInitialize: 1 << 12,
  beforeAddLiquidity: 1 << 11,
  afterAddLiquidity: 1 << 10,
  beforeRemoveLiquidity: 1 << 9,
  afterRemoveLiquidity: 1 << 8,
  beforeSwap: 1 << 7,
  afterSwap: 1 << 6,
  beforeDonate: 1 << 5,
  afterDonate: 1 << 4,
  beforeSwapReturnsDelta: 1 << 3,
  afterSwapReturnsDelta: 1 << 2,
  afterAddLiquidityReturnsDelta: 1 << 1,
  afterRemoveLiquidityReturnsDelta: 1 << 0,
} as const;

/** Permissions that let a hook change what a swap pays or returns: the swap callbacks and every *ReturnsDelta bit. */
const SWAP_CHANGING =
  HOOK_FLAGS.beforeSwap |
  HOOK_FLAGS.afterSwap |
  HOOK_FLAGS.beforeSwapReturnsDelta |
  HOOK_FLAGS.afterSwapReturnsDelta |
  HOOK_FLAGS.afterAddLiquidityReturnsDelta |
  HOOK_FLAGS.afterRemoveLiquidityReturnsDelta;

/** A hook's permission bits: the low 14 bits of its address. */
export function hookPermissions(hooks: string): number {
  return Number(BigInt(hooks) & 0x3fffn);
}

/**
 * Why a v4 pool cannot be priced from its state alone, or undefined when it can: a pool without hooks, or with a hook
 * that has none of the swap-changing permissions on a static fee. A hook in `allowedHooks` (the catalogue's
 * CatalogDex.allowedHooks, lower case) is trusted by the operator not to change swap amounts, so its swap permissions
 * do not refuse the pool. `id` names the pool in the reason.
 *
 * A dynamic-fee pool (key fee DYNAMIC_FEE_FLAG) is priced only when its fee is exactly slot0.lpFee, followed as it
 * changes: its hook is listed in `allowedHooks` (the catalogue's statement that this hook's fee source is followed:
 * such pools are re-read at every block, since PoolManager.updateDynamicLPFee emits no event, and the list bounds that
 * cost) and has no beforeSwap permission (beforeSwap may return a per-swap fee with OVERRIDE_FEE_FLAG that no state
 * shows, whatever the operator trusts). Otherwise it is refused.
 */
export function v4Refusal(
  pool: { readonly address: string; readonly hooks: string; readonly fee: number },
  allowedHooks?: ReadonlySet<string>,
): string | undefined {
  if (BigInt(pool.hooks) === 0n) return undefined;
  const listed = allowedHooks?.has(pool.hooks.toLowerCase()) === true;
  if (!listed && (hookPermissions(pool.hooks) & SWAP_CHANGING) !== 0)
    return `v4 pool ${pool.address} has a hook that can change swap amounts`;
  if (pool.fee !== DYNAMIC_FEE_FLAG) return undefined;
  if ((hookPermissions(pool.hooks) & HOOK_FLAGS.beforeSwap) !== 0)
    return `v4 pool ${pool.address} has a dynamic fee its hook can override at each swap (beforeSwap)`;
  if (!listed) return `v4 pool ${pool.address} has a dynamic fee and its hook is not in the chain's allowedHooks`;
  return undefined;
}

/**
 * Whether a follower re-reads a v4 pool at every block: a dynamic-fee pool v4Refusal prices (its hook listed, without
 * beforeSwap), whose LP fee the hook can change through PoolManager.updateDynamicLPFee, which emits no event.
 */
export function v4DynamicFeeFollowed(
  pool: { readonly address: string; readonly hooks: string; readonly fee: number },
  allowedHooks?: ReadonlySet<string>,
): boolean {
  return pool.fee === DYNAMIC_FEE_FLAG && BigInt(pool.hooks) !== 0n && v4Refusal(pool, allowedHooks) === undefined;
}

/** The hooks a chain's catalogue lists (CatalogDex.allowedHooks of every DEX), lower case: SnapshotContext.allowedHooks. */
export function chainAllowedHooks(chain: { readonly dexes: readonly { readonly allowedHooks: readonly string[] }[] }): ReadonlySet<string> {
  return new Set(chain.dexes.flatMap((d) => d.allowedHooks.map((h) => h.toLowerCase())));
}

/** ProtocolFeeLibrary.getZeroForOneFee / getOneForZeroFee: the protocol fee of one direction, in pips. */
export function protocolFeeOf(protocolFee: number, zeroForOne: boolean): number {
  return zeroForOne ? protocolFee & 0xfff : protocolFee >>> 12;
}

/**
 * The fee Pool.swap charges in one direction: the LP fee alone without a protocol fee, else
 * ProtocolFeeLibrary.calculateSwapFee: protocolFee + lpFee - floor(protocolFee * lpFee / 1e6).
 */
export function swapFee(lpFee: number, protocolFee: number, zeroForOne: boolean): number {
  const p = protocolFeeOf(protocolFee, zeroForOne);
  if (p === 0) return lpFee;
  return p + lpFee - Math.floor((p * lpFee) / MAX_LP_FEE);
}

/** A request's `hooks` option: "none" keeps hookless v4 pools only; "safe" (the default) adds the ones priced exactly. */
export type HooksOption = 'none' | 'safe';

/** The values of `hooks`; the first is the default. */
export const HOOKS_OPTIONS: readonly HooksOption[] = ['safe', 'none'];

/**
 * Whether a v4 pool may be a route candidate under a request's `hooks` option: "none" admits hookless pools only;
 * "safe" admits those, pools whose hook v4Refusal lets through (no swap-changing permission, static fee) and pools
 * whose hook is in `allowedHooks` (the catalogue's, lower-case).
 */
export function v4HookAdmits(
  pool: { readonly address: string; readonly hooks: string; readonly fee: number },
  option: HooksOption,
  allowedHooks: ReadonlySet<string>,
): boolean {
  if (BigInt(pool.hooks) === 0n) return true;
  if (option === 'none') return false;
  return allowedHooks.has(pool.hooks.toLowerCase()) || v4Refusal(pool) === undefined;
}
