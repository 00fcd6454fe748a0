import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Address, getAddress, type PublicClient } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { readSnapshotFile, type Snapshot, type SnapshotExcludedToken } from '../graph/snapshot.ts';
import { DEFAULT_MULTICALL3, type ReadCall } from '../protocols/PoolSource.ts';
import { type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import { writeFileAtomic } from '../store/writeFileAtomic.ts';
import { discoverPools, unlistedPools } from './discoverPools.ts';
import { pairTokens } from './discoveryPairs.ts';
import type { RangeLog } from './logRanges.ts';
import { batchCount, type MulticallOptions, multicallBatched } from './multicallBatched.ts';
import { probeApprovalResets } from './probeApprovalResets.ts';
import { probeTransferFees, transferFeeProbeAmount } from './probeTransferFees.ts';
import { completePoolStates, type PhaseRunner, readPoolBasics } from './readPoolStates.ts';
import { routerFactCalls, routerFacts } from './routerFacts.ts';
import type { ChainSeedReport, SeedOptions, SeedReport } from './SeedOptions.ts';
import { createSeedProgress, type SeedProgress } from './seedProgress.ts';
import { createSeedRpc, RpcRequestError, type SeedRpc, type SeedRpcOptions, shortError, socketRpc } from './seedRpc.ts';
import { checkTokenMetadata, TOKEN_METADATA_READS, tokenMetadataCalls, totalSuppliesOf } from './tokenMetadata.ts';

/** Multicall3's canonical address, used when a chain's catalogue file names none. */
export { DEFAULT_MULTICALL3 };

class SkipChain extends Error {}

/**
 * The seeding run's client for an endpoint: createSeedRpc for an http(s):// URL; for a ws(s):// URL (a chain whose
 * only endpoint is a WebSocket) the follower's WebSocket client (src/follow/heads.ts: viem's webSocket transport, two
 * retries instead of `retries`/`backoffMs`/`timeoutMs`, no reconnection: a dead endpoint fails the chain), to be
 * closed when done.
 */
function seedRpcFor(url: string, options: Omit<SeedRpcOptions, 'url'>): SeedRpc & { close?(): void } {
  return /^wss?:\/\//i.test(url) ? socketRpc(url, false) : createSeedRpc({ url, ...options });
}

async function seedOne(
  chain: CatalogChain,
  url: string | undefined,
  o: Required<Omit<SeedOptions, 'chains' | 'rpcUrls' | 'log'>>,
  progress: SeedProgress,
  open: (url: string) => SeedRpc,
): Promise<ChainSeedReport> {
  const started = performance.now();
  const base = { chainId: chain.chainId, slug: chain.slug };
  const calls = { routers: 0, tokens: 0, discovery: 0, state: 0, probe: 0, approve: 0, bitmap: 0, ticks: 0 };
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
      discovery: [],
      logRequests: 0,
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
  const rpc = open(url);
  const client: PublicClient = rpc.client;

  let blockNumber: bigint;
  let blockHash: string;
  let blockTimestamp: bigint;
  let gasPriceWei: bigint;
  const multicall3 = getAddress(chain.multicall3Address || DEFAULT_MULTICALL3);
  try {
    const id = await client.getChainId();
    if (id !== chain.chainId) throw new SkipChain(`endpoint reports chain id ${id}, catalogue says ${chain.chainId}`);
    const block = await client.getBlock({ blockTag: 'latest' });
    if (block.number === null) throw new SkipChain('latest block has no number');
    blockNumber = block.number;
    blockHash = block.hash;
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
    // 0a. The v3 routers' own facts: factory() and WETH9() must be the catalogue's (else the chain is refused: swaps
    // through the router would revert or miss the quoted pools), and a SwapRouter02's factoryV2() names the v2 pairs
    // it swaps too (routerFacts.ts).
    const routers = routerFacts(
      chain,
      await phase('routers', routerFactCalls(chain), (r) => `${r.filter((x) => x !== undefined).length} answers`),
    );
    for (const note of routers.notes) progress.log(`[${chain.slug}] ${note}`);
    if (routers.mismatches.length > 0)
      return failed(`the catalogue disagrees with the chain: ${routers.mismatches.join('; ')}; no snapshot written`, rpc.requests());

    // 0b. Token metadata: decimals() and symbol() of every ERC-20 against the catalogue (a token that disagrees is left
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

    // 1. Discovery: creation logs of each factory with a deployment block (only the blocks the previous snapshot
    // did not cover), pair lookups for the others and wherever the endpoint refuses the logs (discoverPools.ts).
    const found = await discoverPools({
      chain,
      head: Number(blockNumber),
      usable,
      previous: o.rescan ? undefined : previousSnapshot(o.snapshotDir, chain),
      getLogs: (method, params) => client.request({ method, params } as never) as Promise<RangeLog[]>,
      lookup: (list) => phase('discovery', list, (r) => `${r.filter((a) => a && BigInt(a) !== 0n).length} pools`),
      logRange: o.logRange,
      maxLogRequests: o.maxLogRequests,
    });
    for (const d of found.dexes)
      progress.log(
        `[${chain.slug}] ${d.dex} ${d.version}: ${d.pools} pools ${
          d.method === 'logs'
            ? `from creation logs (${d.fromBlock === undefined ? 'no new blocks' : `blocks ${d.fromBlock}..${d.toBlock}, ${d.newPools} new`})`
            : `by pair lookups (${d.reason})${d.carried ? `, ${d.carried} kept from the previous creation-log scan` : ''}`
        }`,
      );
    const pools = found.pools;

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
      blockHash,
      blockTimestamp: Number(blockTimestamp),
      gasPriceWei: gasPriceWei.toString(),
      seededAt: new Date().toISOString(),
      tickWindowWords: o.tickWindowWords,
      totalSupplies,
      pools: all,
      ...(excludedTokens.length > 0 ? { excludedTokens } : {}),
      ...(approvalResetTokens.length > 0 ? { approvalResetTokens } : {}),
      ...(found.coverage ? { discovery: { ...found.coverage, unlisted: unlistedPools(found.logPools, all) } } : {}),
      ...(routers.routers.length > 0 ? { routers: routers.routers } : {}),
    };
    let file: string | undefined;
    if (o.write) {
      file = join(o.snapshotDir, `${chain.slug}.json`);
      writeFileAtomic(file, `${JSON.stringify(snapshot, null, 1)}\n`);
    }
    const tickCount = all.reduce((n, p) => n + snapshotProtocol(p.version).stateSize(p), 0);
    const seconds = (performance.now() - started) / 1000;
    progress.log(
      `[${chain.slug}] seeded at block ${blockNumber} (gas price ${gasPriceWei} wei): ${all.length} pools (${count('v2')} v2, ${count('v3')} v3, ${tickCount} ticks) from ${found.logRequests} eth_getLogs requests and ${found.candidates} pair lookups, ${excludedTokens.length} tokens left out, ${rpc.requests()} RPC requests, ${seconds.toFixed(2)} s`,
    );
    return {
      ...base,
      status: 'seeded',
      blockNumber: Number(blockNumber),
      pools: all.length,
      v2Pools: count('v2'),
      v3Pools: count('v3'),
      ticks: tickCount,
      candidates: found.candidates,
      discovery: found.dexes,
      logRequests: found.logRequests,
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

/** The chain's snapshot a previous seeding run wrote to this folder, when it is there and valid. */
function previousSnapshot(dir: string, chain: CatalogChain): Snapshot | undefined {
  const file = join(dir, `${chain.slug}.json`);
  if (!existsSync(file)) return undefined;
  const parsed = readSnapshotFile(file);
  return typeof parsed === 'string' || parsed.chainId !== chain.chainId ? undefined : parsed;
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
    logRange: options.logRange ?? 100_000,
    maxLogRequests: options.maxLogRequests ?? 20_000,
    rescan: options.rescan ?? false,
    named: options.named ?? false,
  };
  if (!Number.isInteger(o.batchSize) || o.batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  if (!Number.isInteger(o.tickWindowWords) || o.tickWindowWords < 0) throw new RangeError('tickWindowWords must be a non-negative integer');
  const reports: ChainSeedReport[] = [];
  for (const chain of options.chains) {
    let opened: ReturnType<typeof seedRpcFor> | undefined;
    const open = (url: string): SeedRpc => (opened = seedRpcFor(url, o));
    try {
      reports.push(await seedOne(chain, options.rpcUrls.get(chain.chainId), o, progress, open));
    } finally {
      opened?.close?.();
    }
  }
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
