/**
 * Reads Balancer v2 pools' state at one block through Multicall3: the Vault's getPoolTokens, the pool's swap fee and
 * weights (weighted) or BPT index, amplification, rate providers and their caches (composable stable), every token's
 * decimals and every rate provider's current rate. An amplification ramp in progress is taken from the pool's last
 * AmpUpdateStarted log (no getter returns its start and end).
 */
import { type Address, type Hex, type PublicClient, parseAbi, toHex } from 'viem';
import { decimalsScalingFactor } from '../../amm/balancerFixedPoint.ts';
import type { AmpRamp } from '../balancerStable/stableMath.ts';
import { eventTopic, logWords, type PoolLog } from '../logWords.ts';
import { type ReadCall, viewCall } from '../PoolSource.ts';
import type { BalancerPoolState, TokenRate } from './balancerState.ts';

export const balancerVaultAbi = parseAbi([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
]);
const poolAbi = parseAbi([
  'function getSwapFeePercentage() view returns (uint256)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getBptIndex() view returns (uint256)',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getRateProviders() view returns (address[])',
  'function getTokenRateCache(address token) view returns (uint256 rate, uint256 oldRate, uint256 duration, uint256 expires)',
]);
const tokenAbi = parseAbi(['function decimals() view returns (uint8)', 'function getRate() view returns (uint256)']);

/** topic0 of ComposableStablePool's AmpUpdateStarted(startValue, endValue, startTime, endTime). */
export const AMP_UPDATE_STARTED = eventTopic('AmpUpdateStarted(uint256,uint256,uint256,uint256)');

/** A pool to read: its address, poolId and kind (from the Vault's PoolRegistered and the factory that made it). */
export interface BalancerPoolRef {
  readonly address: Address;
  readonly poolId: Hex;
  readonly kind: BalancerPoolState['kind'];
}

const ZERO = '0x0000000000000000000000000000000000000000';

type PoolTokens = readonly [readonly Address[], readonly bigint[], bigint];
type Amp = readonly [bigint, boolean, bigint];
type RateCache = readonly [bigint, bigint, bigint, bigint];

/** One pool's reads, phase by phase: 'pool' (Vault and pool getters), then 'tokens' (decimals, rate caches, rates). */
export class BalancerPoolRead {
  tokens: PoolTokens | undefined;
  swapFee: bigint | undefined;
  weights: readonly bigint[] | undefined;
  bptIndex: bigint | undefined;
  amp: Amp | undefined;
  providers: readonly Address[] | undefined;
  decimals: (number | undefined)[] = [];
  caches: (RateCache | undefined)[] = [];
  current: (bigint | undefined)[] = [];
  ramp: AmpRamp | undefined;

  constructor(
    readonly ref: BalancerPoolRef,
    readonly vault: Address,
  ) {}

  poolCalls(): ReadCall<unknown>[] {
    const { address, poolId, kind } = this.ref;
    const calls: ReadCall<unknown>[] = [
      viewCall(this.vault, balancerVaultAbi, 'getPoolTokens', [poolId]),
      viewCall(address, poolAbi, 'getSwapFeePercentage'),
    ];
    if (kind === 'balancerWeighted') calls.push(viewCall(address, poolAbi, 'getNormalizedWeights'));
    else
      calls.push(
        viewCall(address, poolAbi, 'getBptIndex'),
        viewCall(address, poolAbi, 'getAmplificationParameter'),
        viewCall(address, poolAbi, 'getRateProviders'),
      );
    return calls;
  }

  takePool(results: readonly unknown[]): void {
    this.tokens = results[0] as PoolTokens | undefined;
    this.swapFee = results[1] as bigint | undefined;
    if (this.ref.kind === 'balancerWeighted') this.weights = results[2] as bigint[] | undefined;
    else {
      this.bptIndex = results[2] as bigint | undefined;
      this.amp = results[3] as Amp | undefined;
      this.providers = results[4] as Address[] | undefined;
    }
  }

  /** Providers per registered token (a composable stable pool's getRateProviders has one per token, BPT's zero). */
  providerOf(i: number): Address | undefined {
    const p = this.providers?.[i];
    return p && p !== ZERO ? p : undefined;
  }

  tokenCalls(): ReadCall<unknown>[] {
    if (!this.tokens) return [];
    const calls: ReadCall<unknown>[] = this.tokens[0].map((t) => viewCall(t, tokenAbi, 'decimals'));
    this.tokens[0].forEach((t, i) => {
      const provider = this.providerOf(i);
      if (provider) calls.push(viewCall(this.ref.address, poolAbi, 'getTokenRateCache', [t]), viewCall(provider, tokenAbi, 'getRate'));
    });
    return calls;
  }

  takeTokens(results: readonly unknown[]): void {
    if (!this.tokens) return;
    const n = this.tokens[0].length;
    this.decimals = results.slice(0, n) as (number | undefined)[];
    let k = n;
    this.tokens[0].forEach((_, i) => {
      if (!this.providerOf(i)) return;
      this.caches[i] = results[k++] as RateCache | undefined;
      this.current[i] = results[k++] as bigint | undefined;
    });
  }

  finish(): BalancerPoolState | string {
    const { address, poolId, kind } = this.ref;
    if (!this.tokens || this.swapFee === undefined) return 'pool reads failed';
    const [tokens, balances] = this.tokens;
    if (this.decimals.some((d) => d === undefined || d > 18)) return 'a token has no decimals (or more than 18)';
    const common = {
      address,
      poolId: poolId.toLowerCase(),
      tokens: tokens.map((t) => t.toLowerCase()),
      balances: [...balances],
      decimalsFactors: this.decimals.map((d) => decimalsScalingFactor(d as number)),
      swapFee: this.swapFee,
    };
    if (kind === 'balancerWeighted') {
      if (!this.weights || this.weights.length !== tokens.length) return 'weights read failed';
      return { kind, ...common, weights: [...this.weights] };
    }
    if (this.bptIndex === undefined || !this.amp || !this.providers) return 'stable pool reads failed';
    const [value, isUpdating] = this.amp;
    if (isUpdating && !this.ramp) return 'amplification ramp in progress but no AmpUpdateStarted log found';
    const amp = isUpdating && this.ramp ? this.ramp : { startValue: value, endValue: value, startTime: 0n, endTime: 0n };
    const rates: (TokenRate | undefined)[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const provider = this.providerOf(i);
      if (!provider) {
        rates.push(undefined);
        continue;
      }
      const cache = this.caches[i];
      const current = this.current[i];
      if (!cache || current === undefined) return `rate of token ${tokens[i]} failed`;
      rates.push({ provider: provider.toLowerCase(), cached: cache[0], duration: cache[2], expires: cache[3], current });
    }
    return { kind, ...common, bptIndex: Number(this.bptIndex), amp, rates };
  }
}

/** An AmpUpdateStarted log as the ramp it starts, or undefined (another event, malformed). */
export function ampRampOf(log: PoolLog): AmpRamp | undefined {
  const w = log.topics[0]?.toLowerCase() === AMP_UPDATE_STARTED ? logWords(log, 1, 4) : undefined;
  return w && { startValue: w[0], endValue: w[1], startTime: w[2], endTime: w[3] };
}

/**
 * Runs reads at the block being read, a result undefined where its call failed (src/chain/multicallBatched.ts through
 * Multicall3: the chain layer, which this protocol folder sits below).
 */
export type BatchedReads = (calls: readonly ReadCall<unknown>[]) => Promise<readonly unknown[]>;

/**
 * Reads the pools at options.blockNumber: their state in the order given, or the reason a pool has none. Ramps are
 * looked up in the pools' logs from `fromBlock` (the Vault's deployment block) to the block.
 */
export async function readBalancerPools(
  client: PublicClient,
  options: { readonly blockNumber: bigint; readonly vault: Address; readonly fromBlock?: bigint },
  pools: readonly BalancerPoolRef[],
  multicall: BatchedReads,
): Promise<(BalancerPoolState | string)[]> {
  const reads = pools.map((p) => new BalancerPoolRead(p, options.vault));
  const phase = async (
    calls: (r: BalancerPoolRead) => ReadCall<unknown>[],
    take: (r: BalancerPoolRead, results: readonly unknown[]) => void,
  ) => {
    const perPool = reads.map(calls);
    const results = await multicall(perPool.flat());
    let k = 0;
    reads.forEach((r, i) => {
      take(r, results.slice(k, k + perPool[i].length));
      k += perPool[i].length;
    });
  };
  await phase(
    (r) => r.poolCalls(),
    (r, res) => r.takePool(res),
  );
  await phase(
    (r) => r.tokenCalls(),
    (r, res) => r.takeTokens(res),
  );
  const ramping = reads.filter((r) => r.amp?.[1]);
  if (ramping.length > 0) {
    const logs = (await client.request({
      method: 'eth_getLogs',
      params: [
        {
          address: ramping.map((r) => r.ref.address),
          topics: [AMP_UPDATE_STARTED as Hex],
          fromBlock: toHex(options.fromBlock ?? 0n),
          toBlock: toHex(options.blockNumber),
        },
      ],
    })) as PoolLog[];
    for (const log of logs) {
      const r = ramping.find((x) => x.ref.address.toLowerCase() === log.address.toLowerCase());
      const ramp = ampRampOf(log);
      if (r && ramp) r.ramp = ramp; // logs come in order: the last one is the ramp in progress
    }
  }
  return reads.map((r) => r.finish());
}
