import { join } from 'node:path';
import { type Address, getAddress, type PublicClient, zeroAddress } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import type { Snapshot, SnapshotExcludedToken } from '../graph/snapshot.ts';
import type { ReadCall } from '../protocols/PoolSource.ts';
import { poolSource, type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import { writeFileAtomic } from '../store/writeFileAtomic.ts';
import { batchCount, type MulticallOptions, multicallBatched } from './multicallBatched.ts';
import { probeApprovalResets } from './probeApprovalResets.ts';
import { probeTransferFees, transferFeeProbeAmount } from './probeTransferFees.ts';
import { completePoolStates, type PhaseRunner, readPoolBasics } from './readPoolStates.ts';
import { createSeedProgress, type SeedProgress } from './seedProgress.ts';
import { createSeedRpc, RpcRequestError } from './seedRpc.ts';
import { checkTokenMetadata, TOKEN_METADATA_READS, tokenMetadataCalls, totalSuppliesOf } from './tokenMetadata.ts';

/** Multicall3's canonical address, used when a chain's catalogue file names none. */
export const DEFAULT_MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/** Options of a seeding run. */
export interface SeedOptions {
  /** Catalogue chains to seed (already selected). */
  readonly chains: readonly CatalogChain[];
  /** RPC endpoint per chain id (RPC_URL_<chainId>). */
  readonly rpcUrls: ReadonlyMap<number, string>;
  /** Folder the snapshots are written to (<slug>.json). */
  readonly snapshotDir: string;
  /** Half-width of the tick-bitmap window around each v3 pool's current word (default 20: words w-20..w+20). */
  readonly tickWindowWords?: number;
  /** Bound on calls per Multicall3 request (default 500). */
  readonly batchSize?: number;
  /** Multicall requests in flight per chain (default 4). */
  readonly concurrency?: number;
  /** Retries of a transient RPC failure (default 3), first backoff in ms (default 250, doubling). */
  readonly retries?: number;
  readonly backoffMs?: number;
  /** Per-request timeout in ms (default 15000). */
  readonly timeoutMs?: number;
  /** 'auto' (default): bar on a TTY, lines otherwise. */
  readonly progress?: 'auto' | 'bar' | 'lines' | 'none';
  /** Where log lines go (default console.log). */
  readonly log?: (line: string) => void;
  /** Write snapshot files (default true). */
  readonly write?: boolean;
  /**
   * The chains were named by the user (`--chain`): one that cannot be tried (no RPC URL, not EVM) is `failed`, not
   * `skipped` (default false: every catalogue chain, those without an RPC URL are let be).
   */
  readonly named?: boolean;
}

/** Outcome of one chain. */
export interface ChainSeedReport {
  readonly chainId: number;
  readonly slug: string;
  /**
   * `seeded`; `failed`: tried and not seeded (dead endpoint, wrong chain id, no Multicall3, a read that failed), or
   * named but not triable; `skipped`: not named and not triable (no RPC URL, not EVM), so not tried.
   */
  readonly status: 'seeded' | 'failed' | 'skipped';
  /** Why the chain failed or was skipped. */
  readonly reason?: string;
  readonly blockNumber?: number;
  readonly pools: number;
  readonly v2Pools: number;
  readonly v3Pools: number;
  /** Initialized ticks read. */
  readonly ticks: number;
  /** Discovery candidates (getPair / getPool calls). */
  readonly candidates: number;
  /** Calls made through Multicall3, by phase: token metadata, discovery, pool state, transfer probes, approval probes, tick bitmap words, ticks. */
  readonly calls: {
    readonly tokens: number;
    readonly discovery: number;
    readonly state: number;
    readonly probe: number;
    readonly approve: number;
    readonly bitmap: number;
    readonly ticks: number;
  };
  /** Tokens whose pools were left out, and why (also in the snapshot). */
  readonly excludedTokens: readonly SnapshotExcludedToken[];
  /** HTTP requests to the chain's endpoint (retries included). */
  readonly rpcRequests: number;
  readonly seconds: number;
  /** Snapshot file written (absent when skipped or write = false). */
  readonly file?: string;
  /** The snapshot (seeded chains only). */
  readonly snapshot?: Snapshot;
}

/** Outcome of a seeding run. */
export interface SeedReport {
  readonly chains: readonly ChainSeedReport[];
  readonly seeded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly pools: number;
  readonly rpcRequests: number;
  readonly seconds: number;
}

interface Candidate {
  readonly dex: string;
  readonly version: SnapshotPool['version'];
  readonly token0: Address;
  readonly token1: Address;
  /** v2: feeBps x 100; v3: the tier asked for (the pool's own fee() is read later). */
  readonly fee: number;
  readonly factory: Address;
}

/** Token addresses a chain's pairs are built from: its EVM tokens, the native asset replaced by the wrapped one, deduplicated. */
export function pairTokens(chain: CatalogChain): Address[] {
  const seen = new Map<string, Address>();
  const add = (a: string): void => {
    if (!a || a.toLowerCase() === NATIVE) return;
    seen.set(a.toLowerCase(), getAddress(a.toLowerCase()));
  };
  for (const t of chain.tokens) add(t.address.toLowerCase() === NATIVE ? chain.wrappedNativeToken : t.address);
  if (chain.wrappedNativeToken) add(chain.wrappedNativeToken);
  return [...seen.values()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

/**
 * The token pairs whose pools discovery looks for: every (token, base token) and (base, base) pair and every pair
 * the chain file lists (`pairs`), each once, token0 below token1; the native asset stands for the wrapped token.
 * A chain without base tokens has every token as a base (all pairs). `usable` (default: all) drops tokens that
 * failed their checks. Grows linearly with the token count: at most tokens x bases + pairs.
 */
export function discoveryPairs(chain: CatalogChain, usable?: ReadonlySet<string>): [Address, Address][] {
  const ok = (a: Address): boolean => !usable || usable.has(a.toLowerCase());
  const erc20 = (a: string): Address => getAddress((a.toLowerCase() === NATIVE ? chain.wrappedNativeToken : a).toLowerCase());
  const tokens = pairTokens(chain).filter(ok);
  const bases = chain.baseTokens.length > 0 ? [...new Set(chain.baseTokens.map(erc20))].filter(ok) : tokens;
  const seen = new Set<string>();
  const out: [Address, Address][] = [];
  const add = (a: Address, b: Address): void => {
    if (a === b || !ok(a) || !ok(b)) return;
    const pair: [Address, Address] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    const key = `${pair[0]}/${pair[1]}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(pair);
  };
  for (let i = 0; i < bases.length; i++) for (let j = i + 1; j < bases.length; j++) add(bases[i], bases[j]);
  for (const token of tokens) for (const base of bases) add(token, base);
  for (const [a, b] of chain.pairs) add(erc20(a), erc20(b));
  return out;
}

/**
 * Every discovery candidate of a chain: each discovery pair on each DEX, at each fee its protocol finds pools by
 * (registry.poolSource: v2 getPair at the DEX's fee, v3 getPool per fee tier).
 */
export function discoveryCandidates(chain: CatalogChain, usable?: ReadonlySet<string>): Candidate[] {
  const pairs = discoveryPairs(chain, usable);
  const out: Candidate[] = [];
  for (const dex of chain.dexes) {
    const found = poolSource(dex.version).discovery(dex);
    if (!found) continue;
    const factory = getAddress(found.factory);
    for (const [token0, token1] of pairs)
      for (const fee of found.fees) out.push({ dex: dex.slug, version: dex.version, token0, token1, fee, factory });
  }
  return out;
}

class SkipChain extends Error {}

async function seedOne(
  chain: CatalogChain,
  url: string | undefined,
  o: Required<Omit<SeedOptions, 'chains' | 'rpcUrls' | 'log'>>,
  progress: SeedProgress,
): Promise<ChainSeedReport> {
  const started = performance.now();
  const base = { chainId: chain.chainId, slug: chain.slug };
  const calls = { tokens: 0, discovery: 0, state: 0, probe: 0, approve: 0, bitmap: 0, ticks: 0 };
  const notSeeded = (status: 'failed' | 'skipped', reason: string, rpcRequests: number): ChainSeedReport => {
    progress.log(`[${chain.slug}] ${status}: ${reason}`);
    return {
      ...base,
      status,
      reason,
      pools: 0,
      v2Pools: 0,
      v3Pools: 0,
      ticks: 0,
      candidates: 0,
      calls,
      excludedTokens: [],
      rpcRequests,
      seconds: (performance.now() - started) / 1000,
    };
  };
  const untried = o.named ? 'failed' : 'skipped';
  if (chain.ecosystem !== 'evm') return notSeeded(untried, `ecosystem ${chain.ecosystem} is not seeded over EVM RPC`, 0);
  if (!url) return notSeeded(untried, `no RPC URL (set RPC_URL_${chain.chainId})`, 0);
  const failed = (reason: string, rpcRequests: number): ChainSeedReport => notSeeded('failed', reason, rpcRequests);
  const rpc = createSeedRpc({ url, retries: o.retries, backoffMs: o.backoffMs, timeoutMs: o.timeoutMs });
  const client: PublicClient = rpc.client;

  let blockNumber: bigint;
  let blockTimestamp: bigint;
  let gasPriceWei: bigint;
  const multicall3 = getAddress(chain.multicall3Address || DEFAULT_MULTICALL3);
  try {
    const id = await client.getChainId();
    if (id !== chain.chainId) throw new SkipChain(`endpoint reports chain id ${id}, catalogue says ${chain.chainId}`);
    const block = await client.getBlock({ blockTag: 'latest' });
    if (block.number === null) throw new SkipChain('latest block has no number');
    blockNumber = block.number;
    blockTimestamp = block.timestamp;
    gasPriceWei = await gasPriceAt(client, block.baseFeePerGas);
    const code = await client.getCode({ address: multicall3, blockNumber });
    if (!code || code === '0x') throw new SkipChain(`no Multicall3 contract at ${multicall3}`);
  } catch (err) {
    const msg = err instanceof SkipChain ? err.message : `endpoint did not answer (${shortError(err)})`;
    return failed(msg, rpc.requests());
  }

  const mc: MulticallOptions = {
    multicall3,
    blockNumber,
    batchSize: o.batchSize,
    concurrency: o.concurrency,
    onBatch: () => progress.tick(),
  };
  const phase = async <T>(
    name: keyof typeof calls,
    list: ReadCall<T>[],
    summary: (r: (T | undefined)[]) => string,
  ): Promise<(T | undefined)[]> => {
    calls[name] = list.length;
    progress.begin(chain.slug, name, batchCount(list.length, o.batchSize), list.length);
    const r = list.length === 0 ? [] : await multicallBatched(client, mc, list);
    progress.end(summary(r));
    return r;
  };

  try {
    // 0. Token metadata: decimals() and symbol() of every ERC-20 against the catalogue (a token that disagrees is left
    // out), and totalSupply() (market caps).
    const tokenAddresses = pairTokens(chain);
    const metadata = await phase(
      'tokens',
      tokenMetadataCalls(tokenAddresses),
      (r) => `${r.filter((x) => x === undefined).length} failed reads`,
    );
    const totalSupplies = totalSuppliesOf(
      tokenAddresses,
      tokenAddresses.map((_, i) => metadata[TOKEN_METADATA_READS * i + 2] as bigint | undefined),
    );
    const excluded = new Map<string, Omit<SnapshotExcludedToken, 'pools'> & { pools: string[] }>();
    const usable = new Set<string>();
    tokenAddresses.forEach((address, i) => {
      const listed = chain.tokens.find((t) => t.address === address)!;
      const [decimals, symbol] = metadata.slice(TOKEN_METADATA_READS * i);
      const problem = checkTokenMetadata(listed, decimals as number | undefined, symbol as string | undefined);
      if (problem) {
        excluded.set(address.toLowerCase(), { address, reason: 'metadata', detail: problem, pools: [] });
        progress.log(`[${chain.slug}] left out ${listed.symbol} (${address}): ${problem}`);
      } else {
        usable.add(address.toLowerCase());
      }
    });

    // 1. Discovery.
    const candidates = discoveryCandidates(chain, usable);
    const found = await phase(
      'discovery',
      candidates.map((c) => poolSource(c.version).findPool(c.factory, c.token0, c.token1, c.fee)),
      (r) => `${r.filter((a) => a && a !== zeroAddress).length} pools`,
    );
    const pools: (Candidate & { address: Address })[] = [];
    const seenPools = new Set<string>();
    candidates.forEach((c, i) => {
      const a = found[i];
      if (!a || a === zeroAddress || seenPools.has(a.toLowerCase())) return;
      seenPools.add(a.toLowerCase());
      pools.push({ ...c, address: getAddress(a) });
    });

    // 2. State: v2 reserves; v3 slot0, liquidity, fee, tickSpacing; balances of both tokens (readPoolStates.ts).
    const run: PhaseRunner = (name, list, summary) => phase(name, list, summary);
    const basics = await readPoolBasics(run, pools, o.tickWindowWords);
    // 2b. Transfer fees: for each token, the pool holding most of it sends a share to a spare address and gets it back
    // (probeTransferFees.ts); a token that loses part of a transfer, or whose transfer fails, is left out.
    const holders = new Map<string, { token: Address; holder: Address; balance: bigint }>();
    for (const { pool: p, balance0, balance1 } of basics) {
      for (const [token, balance] of [
        [p.token0, balance0],
        [p.token1, balance1],
      ] as const) {
        if (typeof balance !== 'bigint' || balance === 0n) continue;
        const known = holders.get(token.toLowerCase());
        if (!known || balance > known.balance) holders.set(token.toLowerCase(), { token, holder: p.address, balance });
      }
    }
    const probes = [...holders.values()].map((h) => ({ token: h.token, holder: h.holder, amount: transferFeeProbeAmount(h.balance) }));
    calls.probe = probes.length;
    progress.begin(chain.slug, 'probe', batchCount(probes.length, o.batchSize), probes.length);
    const fees = probes.length === 0 ? [] : await probeTransferFees(client, mc, probes);
    progress.end(`${fees.filter((f) => f.kind !== 'none').length} taxed or failing tokens`);
    probes.forEach((probe, i) => {
      const fee = fees[i];
      if (fee.kind === 'none') return;
      const listed = chain.tokens.find((t) => t.address === probe.token)!;
      const entry =
        fee.kind === 'fee'
          ? {
              address: probe.token,
              reason: 'transferFee' as const,
              detail: fee.detail,
              buyFeeBps: fee.buyFeeBps,
              sellFeeBps: fee.sellFeeBps,
              pools: [],
            }
          : { address: probe.token, reason: 'transferFailed' as const, detail: fee.detail, pools: [] };
      excluded.set(probe.token.toLowerCase(), entry);
      progress.log(`[${chain.slug}] left out ${listed.symbol} (${probe.token}): ${fee.detail}`);
    });

    // 2c. Approval rule: each token still quoted is approved over a leftover allowance (probeApprovalResets.ts); one
    // whose approve refuses that (Tether USD's rule) is recorded, and its approval steps reset the allowance first.
    const approvable = tokenAddresses.filter((a) => usable.has(a.toLowerCase()) && !excluded.has(a.toLowerCase()));
    calls.approve = approvable.length;
    progress.begin(chain.slug, 'approve', batchCount(approvable.length, o.batchSize), approvable.length);
    const approvals = approvable.length === 0 ? [] : await probeApprovalResets(client, mc, approvable);
    progress.end(`${approvals.filter((a) => a.kind === 'reset').length} tokens need an approval reset`);
    const approvalResetTokens = approvable.filter((token, i) => {
      const approval = approvals[i];
      if (approval.kind === 'none') return false;
      const listed = chain.tokens.find((t) => t.address === token)!;
      progress.log(`[${chain.slug}] ${listed.symbol} (${token}): ${approval.detail}`);
      return approval.kind === 'reset';
    });

    // 3-4. Tick bitmap words inside the window, liquidityNet of every initialized tick; pools of left-out tokens are not read.
    const kept = basics.filter(({ pool: p }) => {
      const leftOut = [excluded.get(p.token0.toLowerCase()), excluded.get(p.token1.toLowerCase())].filter((e) => e !== undefined);
      for (const e of leftOut) e.pools.push(p.address);
      return leftOut.length === 0;
    });
    const states = await completePoolStates(run, kept);
    for (const d of states.dropped)
      progress.log(`[${chain.slug}] dropped ${pools.find((p) => p.address === d.address)?.version} pool ${d.address}: ${d.reason}`);
    const all: SnapshotPool[] = states.pools.map((p) => snapshotProtocol(p.version).fileState(p)).sort(comparePools);
    const count = (version: SnapshotPool['version']): number => all.filter((p) => p.version === version).length;
    const excludedTokens = [...excluded.values()].sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1));
    const snapshot: Snapshot = {
      formatVersion: 1,
      chainId: chain.chainId,
      blockNumber: Number(blockNumber),
      blockTimestamp: Number(blockTimestamp),
      gasPriceWei: gasPriceWei.toString(),
      seededAt: new Date().toISOString(),
      tickWindowWords: o.tickWindowWords,
      totalSupplies,
      pools: all,
      ...(excludedTokens.length > 0 ? { excludedTokens } : {}),
      ...(approvalResetTokens.length > 0 ? { approvalResetTokens } : {}),
    };
    let file: string | undefined;
    if (o.write) {
      file = join(o.snapshotDir, `${chain.slug}.json`);
      writeFileAtomic(file, `${JSON.stringify(snapshot, null, 1)}\n`);
    }
    const tickCount = all.reduce((n, p) => n + snapshotProtocol(p.version).stateSize(p), 0);
    const seconds = (performance.now() - started) / 1000;
    progress.log(
      `[${chain.slug}] seeded at block ${blockNumber} (gas price ${gasPriceWei} wei): ${all.length} pools (${count('v2')} v2, ${count('v3')} v3, ${tickCount} ticks) from ${candidates.length} candidates, ${excludedTokens.length} tokens left out, ${rpc.requests()} RPC requests, ${seconds.toFixed(2)} s`,
    );
    return {
      ...base,
      status: 'seeded',
      blockNumber: Number(blockNumber),
      pools: all.length,
      v2Pools: count('v2'),
      v3Pools: count('v3'),
      ticks: tickCount,
      candidates: candidates.length,
      calls,
      excludedTokens,
      rpcRequests: rpc.requests(),
      seconds,
      file,
      snapshot,
    };
  } catch (err) {
    return failed(`seeding failed at block ${blockNumber} (${shortError(err)}); no snapshot written`, rpc.requests());
  }
}

/**
 * The chain's gas price at the pinned block, in wei: the block's baseFeePerGas plus the priority fee the endpoint
 * suggests (eth_maxPriorityFeePerGas). eth_gasPrice instead on a chain whose blocks have no base fee (before
 * EIP-1559) or an endpoint that refuses eth_maxPriorityFeePerGas.
 */
export async function gasPriceAt(client: PublicClient, baseFeePerGas: bigint | null | undefined): Promise<bigint> {
  if (baseFeePerGas !== null && baseFeePerGas !== undefined) {
    try {
      return baseFeePerGas + BigInt(await client.request({ method: 'eth_maxPriorityFeePerGas' }));
    } catch (err) {
      if (!refusedByEndpoint(err)) throw err;
    }
  }
  return client.getGasPrice();
}

/** The endpoint answered with a JSON-RPC error that retrying does not cure (e.g. method not found). */
function refusedByEndpoint(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RpcRequestError) return !e.transient && e.code !== undefined;
  }
  return false;
}

/** The order of pools in a snapshot file: version, DEX, token0, token1, fee. */
export function comparePools(a: SnapshotPool, b: SnapshotPool): number {
  const ka = `${a.version}/${a.dex}/${a.token0.toLowerCase()}/${a.token1.toLowerCase()}/${String(a.fee).padStart(7, '0')}`;
  const kb = `${b.version}/${b.dex}/${b.token0.toLowerCase()}/${b.token1.toLowerCase()}/${String(b.fee).padStart(7, '0')}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function shortError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RpcRequestError) return e.message;
  }
  const withShort = err as Error & { shortMessage?: string };
  return (withShort.shortMessage ?? err.message).split('\n')[0];
}

/**
 * Seeds the given chains one after another; a chain that fails (dead endpoint, failed read) is reported and the others
 * proceed, and a chain with no RPC URL is skipped (failed when `named`). Existing snapshots of chains not seeded are left alone.
 */
export async function seedChains(options: SeedOptions): Promise<SeedReport> {
  const started = performance.now();
  const log = options.log ?? ((line: string) => console.log(line));
  const mode = options.progress ?? 'auto';
  const progress = createSeedProgress(mode === 'auto' ? (process.stderr.isTTY ? 'bar' : 'lines') : mode, log);
  const o = {
    snapshotDir: options.snapshotDir,
    tickWindowWords: options.tickWindowWords ?? 20,
    batchSize: options.batchSize ?? 500,
    concurrency: options.concurrency ?? 4,
    retries: options.retries ?? 3,
    backoffMs: options.backoffMs ?? 250,
    timeoutMs: options.timeoutMs ?? 15_000,
    progress: mode,
    write: options.write ?? true,
    named: options.named ?? false,
  };
  if (!Number.isInteger(o.batchSize) || o.batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  if (!Number.isInteger(o.tickWindowWords) || o.tickWindowWords < 0) throw new RangeError('tickWindowWords must be a non-negative integer');
  const reports: ChainSeedReport[] = [];
  for (const chain of options.chains) reports.push(await seedOne(chain, options.rpcUrls.get(chain.chainId), o, progress));
  return {
    chains: reports,
    seeded: reports.filter((r) => r.status === 'seeded').length,
    failed: reports.filter((r) => r.status === 'failed').length,
    skipped: reports.filter((r) => r.status === 'skipped').length,
    pools: reports.reduce((n, r) => n + r.pools, 0),
    rpcRequests: reports.reduce((n, r) => n + r.rpcRequests, 0),
    seconds: (performance.now() - started) / 1000,
  };
}
