/**
 * Balancer v2 pool discovery and live state. Discovery: the Vault's PoolRegistered and TokensRegistered logs give every
 * pool's id, address and tokens; a pool is kept when a supported factory's PoolCreated log names it (so its kind is
 * known) and at least two of its tradeable tokens are catalogued. Live state: the Vault's Swap and PoolBalanceChanged
 * logs update balances exactly as the Vault books them; the pool's SwapFeePercentageChanged, AmpUpdateStarted and
 * AmpUpdateStopped set what they say; any other log of the pool (rate cache updates, rate providers, pause, recovery
 * mode, the Vault's PoolBalanceManaged) is a re-read. A rate provider's own rate changes without a pool log: a follower
 * re-reads the rates of rate-provided pools every block.
 */
import { type Address, decodeEventLog, getAddress, type Hex, parseAbi } from 'viem';
import { eventTopic, logWords, type PoolLog, topicAddress } from '../logWords.ts';
import type { EventOutcome } from '../PoolProtocol.ts';
import type { BalancerPoolState } from './balancerState.ts';
import { AMP_UPDATE_STARTED, ampRampOf } from './readBalancerPools.ts';

const vaultEvents = parseAbi([
  'event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)',
  'event TokensRegistered(bytes32 indexed poolId, address[] tokens, address[] assetManagers)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
]);

export const POOL_REGISTERED = eventTopic('PoolRegistered(bytes32,address,uint8)');
export const TOKENS_REGISTERED = eventTopic('TokensRegistered(bytes32,address[],address[])');
/** A Balancer pool factory's PoolCreated(address indexed pool). */
export const POOL_CREATED = eventTopic('PoolCreated(address)');
export const VAULT_SWAP = eventTopic('Swap(bytes32,address,address,uint256,uint256)');
export const POOL_BALANCE_CHANGED = eventTopic('PoolBalanceChanged(bytes32,address,address[],int256[],uint256[])');
export const SWAP_FEE_PERCENTAGE_CHANGED = eventTopic('SwapFeePercentageChanged(uint256)');
export const AMP_UPDATE_STOPPED = eventTopic('AmpUpdateStopped(uint256)');

/** A pool the Vault registered, as its logs say. */
export interface RegisteredBalancerPool {
  readonly poolId: Hex;
  readonly address: Address;
  /** Registered tokens (lower-case) in registration order (a composable stable pool's BPT among them). */
  readonly tokens: readonly string[];
  readonly kind: BalancerPoolState['kind'];
  readonly factory: Address;
}

function decode(log: PoolLog) {
  try {
    return decodeEventLog({ abi: vaultEvents, data: log.data as Hex, topics: log.topics as [Hex, ...Hex[]] });
  } catch {
    return undefined;
  }
}

/**
 * The pools of the Vault's PoolRegistered / TokensRegistered logs that a supported factory created (factories: address
 * to kind; factoryLogs: their PoolCreated logs) with at least two catalogued tradeable tokens (the BPT is not one).
 */
export function discoverBalancerPools(
  vaultLogs: readonly PoolLog[],
  factoryLogs: readonly PoolLog[],
  factories: ReadonlyMap<string, BalancerPoolState['kind']>,
  catalogued: ReadonlySet<string>,
): RegisteredBalancerPool[] {
  const created = new Map<string, { kind: BalancerPoolState['kind']; factory: Address }>();
  for (const log of factoryLogs) {
    const kind = factories.get(log.address.toLowerCase());
    if (kind && log.topics[0]?.toLowerCase() === POOL_CREATED && log.topics.length === 2 && log.data === '0x') {
      created.set(topicAddress(log.topics[1]).toLowerCase(), { kind, factory: getAddress(log.address) });
    }
  }
  const registered = new Map<string, { address: Address; tokens: string[] }>();
  for (const log of vaultLogs) {
    const e = decode(log);
    if (e?.eventName === 'PoolRegistered') registered.set(e.args.poolId.toLowerCase(), { address: e.args.poolAddress, tokens: [] });
    else if (e?.eventName === 'TokensRegistered')
      registered.get(e.args.poolId.toLowerCase())?.tokens.push(...e.args.tokens.map((t) => t.toLowerCase()));
  }
  const out: RegisteredBalancerPool[] = [];
  for (const [poolId, { address, tokens }] of registered) {
    const made = created.get(address.toLowerCase());
    if (!made) continue;
    const tradeable = tokens.filter((t) => t !== address.toLowerCase() && catalogued.has(t));
    if (tradeable.length < 2) continue;
    out.push({ poolId: poolId as Hex, address, tokens, kind: made.kind, factory: made.factory });
  }
  return out;
}

/**
 * topic0 of the logs after which a pool is re-read (its rate cache or rate providers, pause, recovery mode; the Vault's
 * PoolBalanceManaged): a follower subscribes to these beside BALANCER_EVENT_TOPICS.
 */
export const BALANCER_REREAD_TOPICS: readonly string[] = [
  eventTopic('TokenRateCacheUpdated(uint256,uint256)'),
  eventTopic('TokenRateProviderSet(uint256,address,uint256)'),
  eventTopic('PausedStateChanged(bool)'),
  eventTopic('RecoveryModeStateChanged(bool)'),
  eventTopic('PoolBalanceManaged(bytes32,address,address,int256,int256)'),
];

/** topic0 of every log applyBalancerEvent follows exactly (the Vault's, then the pools'). */
export const BALANCER_EVENT_TOPICS: readonly string[] = [
  VAULT_SWAP,
  POOL_BALANCE_CHANGED,
  SWAP_FEE_PERCENTAGE_CHANGED,
  AMP_UPDATE_STARTED,
  AMP_UPDATE_STOPPED,
];

/**
 * Applies one log (the Vault's for this pool's poolId, or the pool contract's own) to the pool's state, in log order;
 * a new state (the old one untouched) or a re-read.
 */
export function applyBalancerEvent(state: BalancerPoolState, log: PoolLog): EventOutcome<BalancerPoolState> {
  const topic = log.topics[0]?.toLowerCase();
  const own = log.address.toLowerCase() === state.address.toLowerCase();
  if (!own && log.topics[1]?.toLowerCase() !== state.poolId) return { ok: false, reason: 'a log of another pool' };
  if (topic === VAULT_SWAP && !own) {
    const e = decode(log);
    if (e?.eventName !== 'Swap') return { ok: false, reason: 'malformed Swap' };
    const i = state.tokens.indexOf(e.args.tokenIn.toLowerCase());
    const o = state.tokens.indexOf(e.args.tokenOut.toLowerCase());
    if (i < 0 || o < 0 || i === o) return { ok: false, reason: 'Swap of tokens the pool does not hold' };
    const balances = [...state.balances];
    balances[i] += e.args.amountIn;
    balances[o] -= e.args.amountOut;
    if (balances[o] < 0n) return { ok: false, reason: 'Swap takes more than the known balance' };
    return { ok: true, state: { ...state, balances } };
  }
  if (topic === POOL_BALANCE_CHANGED && !own) {
    const e = decode(log);
    if (e?.eventName !== 'PoolBalanceChanged') return { ok: false, reason: 'malformed PoolBalanceChanged' };
    const { tokens, deltas, protocolFeeAmounts } = e.args;
    if (tokens.length !== state.tokens.length || deltas.length !== tokens.length || protocolFeeAmounts.length !== tokens.length) {
      return { ok: false, reason: 'PoolBalanceChanged does not list the pool tokens' };
    }
    const balances = [...state.balances];
    for (let k = 0; k < tokens.length; k++) {
      const i = state.tokens.indexOf(tokens[k].toLowerCase());
      if (i < 0) return { ok: false, reason: 'PoolBalanceChanged of a token the pool does not hold' };
      // joins add the amount in less the protocol fee; exits take the amount out plus it (PoolBalances.sol)
      balances[i] += deltas[k] - protocolFeeAmounts[k];
      if (balances[i] < 0n) return { ok: false, reason: 'PoolBalanceChanged takes more than the known balance' };
    }
    return { ok: true, state: { ...state, balances } };
  }
  if (own && topic === SWAP_FEE_PERCENTAGE_CHANGED) {
    const w = logWords(log, 1, 1);
    return w ? { ok: true, state: { ...state, swapFee: w[0] } } : { ok: false, reason: 'malformed SwapFeePercentageChanged' };
  }
  if (own && state.kind === 'balancerStable' && topic === AMP_UPDATE_STARTED) {
    const amp = ampRampOf(log);
    return amp ? { ok: true, state: { ...state, amp } } : { ok: false, reason: 'malformed AmpUpdateStarted' };
  }
  if (own && state.kind === 'balancerStable' && topic === AMP_UPDATE_STOPPED) {
    const w = logWords(log, 1, 1);
    return w
      ? { ok: true, state: { ...state, amp: { startValue: w[0], endValue: w[0], startTime: 0n, endTime: 0n } } }
      : { ok: false, reason: 'malformed AmpUpdateStopped' };
  }
  return { ok: false, reason: `log ${topic} is not followed: re-read` };
}
