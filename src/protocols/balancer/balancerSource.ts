import { type Address, decodeEventLog, getAddress, type Hex, parseAbi, slice } from 'viem';
import { eventTopic, type PoolLog } from '../logWords.ts';
import { type BalancerPoolKey, DEFAULT_MULTICALL3, isV4Key, type PoolSource, type ReadCall, viewCall } from '../PoolSource.ts';
import { POOL_BALANCE_CHANGED, TOKENS_REGISTERED, VAULT_SWAP } from './balancerEvents.ts';
import { BalancerPoolRead } from './readBalancerPools.ts';
import { balancerRecord, type SnapshotPoolBalancer } from './SnapshotPoolBalancer.ts';

const factoryAbi = parseAbi(['function isPoolFromFactory(address pool) view returns (bool)']);
const multicallAbi = parseAbi(['function getCurrentBlockTimestamp() view returns (uint256 timestamp)']);
const registeredAbi = parseAbi(['event TokensRegistered(bytes32 indexed poolId, address[] tokens, address[] assetManagers)']);

/** The Vault's logs that name a pool by its poolId in topic1. */
const VAULT_POOL_TOPICS: ReadonlySet<string> = new Set([
  TOKENS_REGISTERED,
  VAULT_SWAP,
  POOL_BALANCE_CHANGED,
  eventTopic('PoolRegistered(bytes32,address,uint8)'),
  eventTopic('PoolBalanceManaged(bytes32,address,address,int256,int256)'),
]);

/** A Balancer poolId's pool contract: its first 20 bytes (PoolRegistry._toPoolId). */
export function poolOfId(poolId: string): Address {
  return getAddress(slice(poolId as Hex, 0, 20));
}

function isBalancerKey(key: unknown): key is BalancerPoolKey {
  return typeof key === 'object' && key !== null && 'vault' in key && 'factories' in key;
}

/** The catalogue DEX's Balancer key: its Vault and its weighted and stable pool factories with their kinds. */
function dexKey(dex: {
  balancerVaultAddress: string;
  balancerWeightedPoolFactories: readonly string[];
  balancerStablePoolFactories: readonly string[];
}): BalancerPoolKey {
  return {
    vault: getAddress(dex.balancerVaultAddress),
    factories: [
      ...dex.balancerWeightedPoolFactories.map((f) => ({ address: getAddress(f), kind: 'balancerWeighted' as const })),
      ...dex.balancerStablePoolFactories.map((f) => ({ address: getAddress(f), kind: 'balancerStable' as const })),
    ],
  };
}

/**
 * Balancer v2 pools: found by the Vault's TokensRegistered logs (the poolId names the pool contract in its first 20
 * bytes; the log lists every token, a composable stable pool's own BPT among them, which is not traded), kept when at
 * least two tokens are catalogued (keptPool); read in three phases through Multicall3: which catalogued factory made
 * the pool (isPoolFromFactory; none: dropped) and the block's timestamp, then the Vault's getPoolTokens and the
 * pool's getters for its kind, then every token's decimals and each rate provider's cache and rate
 * (readBalancerPools.ts's BalancerPoolRead). A pool's `address` is its poolId; its own contract's logs (fee and
 * amplification changes) are the pool's too (contractOf). The Vault holds the balances (ownBalances false).
 */
export const balancerSource: PoolSource<SnapshotPoolBalancer> = {
  version: 'balancerV2',
  discovery: (dex) =>
    dex.version === 'balancerV2' && dex.balancerVaultAddress
      ? {
          factory: dex.balancerVaultAddress,
          fees: [],
          key: dexKey(dex),
          ...(dex.factoryDeploymentBlock === undefined ? {} : { fromBlock: dex.factoryDeploymentBlock }),
        }
      : undefined,
  findPool() {
    throw new Error('Balancer pools are found by the Vault TokensRegistered logs only (no pair lookup)');
  },
  creationTopic: TOKENS_REGISTERED,
  discoveryTopics: [TOKENS_REGISTERED],
  created(log: PoolLog) {
    if (log.topics[0]?.toLowerCase() !== TOKENS_REGISTERED || log.topics.length !== 2) return undefined;
    let tokens: readonly Address[];
    try {
      tokens = decodeEventLog({ abi: registeredAbi, data: log.data as Hex, topics: log.topics as [Hex, Hex] }).args.tokens;
    } catch {
      return undefined;
    }
    const poolId = log.topics[1].toLowerCase() as Address;
    const own = poolOfId(poolId).toLowerCase();
    const traded = tokens.map((t) => getAddress(t)).filter((t) => t.toLowerCase() !== own);
    if (traded.length < 2) return undefined;
    const sorted = [...traded].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    return { address: poolId, token0: sorted[0], token1: sorted[1], tokens: sorted };
  },
  loggedPool(log) {
    return VAULT_POOL_TOPICS.has(log.topics[0]?.toLowerCase() ?? '') && log.topics[1] ? log.topics[1].toLowerCase() : undefined;
  },
  contractOf: (state) => state.pool.toLowerCase(),
  keyOf: (state) => ({
    vault: getAddress(state.vault),
    factories: [{ address: getAddress(state.factory), kind: state.poolKind }],
  }),
  ownBalances: false,
  readState(pool) {
    const key = isBalancerKey(pool.key) && !isV4Key(pool.key) ? pool.key : undefined;
    const poolId = pool.address.toLowerCase() as Hex;
    const contract = poolOfId(poolId);
    let factory: BalancerPoolKey['factories'][number] | undefined;
    let timestamp: bigint | undefined;
    let read: BalancerPoolRead | undefined;
    let dropped: string | undefined = key ? undefined : 'no Balancer Vault and factories (catalogue key)';
    return {
      calls(phase): ReadCall<unknown>[] {
        if (!key || dropped) return [];
        if (phase === 'state')
          return [
            viewCall(DEFAULT_MULTICALL3, multicallAbi, 'getCurrentBlockTimestamp'),
            ...key.factories.map((f) => viewCall(f.address, factoryAbi, 'isPoolFromFactory', [contract])),
          ];
        if (phase === 'bitmap') return read?.poolCalls() ?? [];
        return read?.tokenCalls() ?? [];
      },
      take(phase, results) {
        if (!key || dropped) return;
        if (phase === 'state') {
          timestamp = results[0] as bigint | undefined;
          factory = key.factories.find((_, i) => results[i + 1] === true);
          if (timestamp === undefined) dropped = 'block timestamp read failed';
          else if (!factory) dropped = 'not a pool of a catalogued factory';
          else read = new BalancerPoolRead({ address: contract, poolId, kind: factory.kind }, key.vault);
        } else if (phase === 'bitmap') read?.takePool(results);
        else read?.takeTokens(results);
      },
      finish() {
        if (!read || !factory || timestamp === undefined || !key) return { ok: false, reason: dropped ?? 'state reads failed' };
        // getAmplificationParameter's value is the amplification at this block: a ramp under way is not needed.
        const updating = read.amp?.[1] === true;
        if (updating && read.amp) read.ramp = { startValue: read.amp[0], endValue: read.amp[0], startTime: 0n, endTime: 0n };
        const state = read.finish();
        if (typeof state === 'string') return { ok: false, reason: state };
        const record = balancerRecord(
          state,
          { dex: pool.dex, vault: key.vault, factory: factory.address, timestamp, ampUpdating: updating },
          read.amp?.[0],
        );
        return { ok: true, state: record };
      },
    };
  },
};
