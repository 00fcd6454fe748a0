import { type Abi, type Address, decodeFunctionResult, encodeFunctionData, getAddress, type Hex } from 'viem';
import type { CatalogDex } from '../catalog/Catalog.ts';
import type { PoolLog } from './logWords.ts';
import type { SnapshotPoolBase } from './SnapshotPoolBase.ts';

/** One contract read (made through Multicall3): target, calldata, and how to decode a successful return. */
export interface ReadCall<T> {
  readonly target: Address;
  readonly data: Hex;
  readonly decode: (returnData: Hex) => T;
}

/** A read of a view function (viem encodes the call and decodes its return). */
export function viewCall<T>(target: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): ReadCall<T> {
  const call = { abi, functionName, args } as Parameters<typeof encodeFunctionData>[0];
  return {
    target,
    data: encodeFunctionData(call),
    decode: (data) => decodeFunctionResult({ ...call, data } as Parameters<typeof decodeFunctionResult>[0]) as T,
  };
}

/**
 * A pool's address as the service writes it: an EVM address checksummed; a v4 poolId (32 bytes: the pool has no
 * contract of its own) in lower case.
 */
export function poolAddress(address: string): Address {
  return (address.length === 66 ? address.toLowerCase() : getAddress(address)) as Address;
}

/** A pool to read: where it is and what the catalogue says it is (its snapshot version and the fee it was found by). */
export interface PoolToRead {
  readonly address: Address;
  readonly dex: string;
  readonly version: string;
  readonly token0: Address;
  readonly token1: Address;
  readonly fee: number;
  /**
   * What its reads need beyond its identity and no read returns: v4's PoolKeyExtras (from the Initialize log),
   * Balancer's BalancerPoolKey (from the catalogue); absent for v2/v3.
   */
  readonly key?: PoolReadKey;
}

/**
 * A Balancer v2 pool's reads beyond its poolId: the Vault that holds it, and the catalogued factories that may have
 * created it with the kind each creates (the read asks each isPoolFromFactory: a pool of no catalogued factory is
 * dropped, and the factory that made it names its kind).
 */
export interface BalancerPoolKey {
  readonly vault: Address;
  readonly factories: readonly { readonly address: Address; readonly kind: 'balancerWeighted' | 'balancerStable' }[];
}

/** What a pool's reads need beyond its identity, per protocol (PoolToRead.key). */
export type PoolReadKey = PoolKeyExtras | BalancerPoolKey;

/** Whether a read key is v4's PoolKey extras. */
export function isV4Key(key: PoolReadKey | undefined): key is PoolKeyExtras {
  return key !== undefined && 'poolManager' in key;
}

/** Multicall3's address on every catalogued EVM chain (a chain's catalogue multicall3Address may name another). */
export const DEFAULT_MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/**
 * A v4 pool's PoolKey beyond its currencies and fee: the PoolManager holds pools by poolId alone, so the tick spacing
 * and hooks are known from the Initialize log only.
 */
export interface PoolKeyExtras {
  readonly poolManager: Address;
  readonly tickSpacing: number;
  readonly hooks: Address;
}

/**
 * The phases that read pool state, in order; every pool's reads of one phase go out together (Multicall3 batches).
 * 'state' also reads both token balances of every pool (the reader of readPoolStates does).
 */
export const STATE_PHASES = ['state', 'bitmap', 'ticks'] as const;
export type StatePhase = (typeof STATE_PHASES)[number];

/** Why a pool read gave no state; `pending`: the pool exists but is not priceable yet (re-read at its next log). */
export interface PoolDropped {
  readonly reason: string;
  readonly pending?: boolean;
}

/** One pool's state being read, phase by phase. */
export interface PoolStateRead<S extends SnapshotPoolBase> {
  /** The reads this pool needs in a phase, given what the earlier phases returned ([] when none or dropped). */
  calls(phase: StatePhase): ReadCall<unknown>[];
  /**
   * Takes the phase's results, in the order of calls(phase) (undefined: the read failed). A failure that drops the
   * pool is remembered; one that makes the whole read wrong (a bitmap word or tick of a pool being read) throws.
   */
  take(phase: StatePhase, results: readonly unknown[]): void;
  /** After the last phase: the pool's state with the balances read beside it, or why it has none. */
  finish(balance0: bigint, balance1: bigint): { readonly ok: true; readonly state: S } | ({ readonly ok: false } & PoolDropped);
}

/** A creation log of a factory, decoded: the pool and its tokens (and its fee when the event carries one). */
export interface CreatedPool {
  readonly address: Address;
  readonly token0: Address;
  readonly token1: Address;
  readonly fee?: number;
  readonly key?: PoolReadKey;
  /**
   * A pool of more than two tokens (Balancer v2): every token it trades (its own BPT left out); token0 / token1 are
   * then its two lowest, and discovery keeps it when at least two of them are catalogued (keptPool).
   */
  readonly tokens?: readonly Address[];
}

/**
 * How pools of one protocol are found and read on a chain: by seeding (discovery through the factories, state through
 * Multicall3 at a pinned block) and by a follower (factory creation logs, re-reads of a pool its events cannot update).
 */
export interface PoolSource<S extends SnapshotPoolBase> {
  readonly version: S['version'];
  /**
   * The factory a catalogue DEX of this version finds pools with, the fees it finds them by (undefined: none), and
   * the block its creation logs start at (the catalogue's factoryDeploymentBlock; undefined: unknown, pools are then
   * found by pair lookups only), and what every pool of the DEX needs read beyond its identity (`key`: Balancer's
   * Vault and catalogued factories), which discovery gives each pool it keeps.
   */
  discovery(
    dex: CatalogDex,
  ): { readonly factory: string; readonly fees: readonly number[]; readonly fromBlock?: number; readonly key?: PoolReadKey } | undefined;
  /** The factory read that returns the pool of a pair and fee (the zero address when there is none). */
  findPool(factory: Address, token0: Address, token1: Address, fee: number): ReadCall<Address>;
  /**
   * topic0 of the factory's creation event (PairCreated, PoolCreated; later v4's Initialize, Balancer's
   * PoolRegistered): seeding scans the factory's logs of it from fromBlock to the head, and created() decodes them.
   */
  readonly creationTopic: string;
  /** topic0 of the logs a follower needs to find pools: the factory's creation event and any that make a pending pool priceable. */
  readonly discoveryTopics: readonly string[];
  /** A factory's creation log decoded, or undefined (another event, malformed). */
  created(log: PoolLog): CreatedPool | undefined;
  /**
   * For pools held by a singleton that emits every pool's events (v4's PoolManager, the DEX's "factory"): the pool a
   * log of it names (topic1, the poolId, lower case), or undefined. Absent: a pool's events come from its own address.
   */
  loggedPool?(log: PoolLog): string | undefined;
  /**
   * For pools whose identity is not the address of their contract (Balancer v2: the poolId), that contract's address
   * (lower case): its own logs (fee and amplification changes) are the pool's. Absent: none.
   */
  contractOf?(state: S): string | undefined;
  /**
   * What reading a pool of this state again needs beyond its identity (v4: its PoolKey's tick spacing, hooks and
   * PoolManager, PoolToRead.key); absent or undefined: nothing.
   */
  keyOf?(state: S): PoolReadKey | undefined;
  /**
   * For a protocol whose pools can exist before they are priceable (v3: created, then Initialize): the log that makes
   * a pool priceable, and the reads that say which factory made an unknown pool emitting it and for which pair. A
   * follower whose start state was written while such a pool waited (a snapshot lists priced pools only) finds it
   * this way. Absent: every pool is priceable from its creation log.
   */
  readonly identify?: {
    readonly topic: string;
    calls(pool: Address): ReadCall<unknown>[];
    /** The results of calls(pool) in order (undefined: failed) as the pool's creation, or undefined (not such a pool). */
    decode(pool: Address, results: readonly unknown[]): (CreatedPool & { readonly factory: Address }) | undefined;
  };
  /**
   * false: the protocol's pools hold no tokens of their own (v4: the PoolManager holds every pool's), so seeding reads
   * no balances for them and finish() states them itself. Absent: both token balances of the pool address are read.
   */
  readonly ownBalances?: false;
  /** Starts reading one pool's state; tickWindowWords bounds the v3 tick-bitmap window as the snapshot records it. */
  readState(pool: PoolToRead, tickWindowWords: number): PoolStateRead<S>;
}
