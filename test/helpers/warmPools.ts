// Makes a freshly deployed devnet's pools look traded, as every pool on a live chain is, before gas is measured.
// A pool's first swap writes storage slots that are still zero: a v2 pair's two price accumulators and a v3 pool's
// fee growth of the input side (each about 17,100 gas more than rewriting a non-zero slot). Without this, the
// first swap through each pool costs ~34,000 (v2) or ~17,000 (v3) gas more than any later one. A v2 pair only writes
// its accumulators when time has passed since its last update, so a swap in the same second as the pair's liquidity
// leaves it cold: the warm-up starts a second later, then proves each pool warm (verifyWarm) or throws.
import { fileURLToPath } from 'node:url';
import type { Address, Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import type { Catalog, CatalogChain } from '../../src/catalog/Catalog.ts';
import type { PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { Step } from '../../src/tx/Step.ts';
import type { DevnetWallet } from './devnetWallet.ts';
import { poolSwapSteps } from './poolSwapSteps.ts';

/**
 * Swaps a millionth of each pool's balance through every pool of the chain's shipped snapshot (the state a fresh
 * devnet starts from; or of the snapshots in `snapshotDir`), in both directions, from `account`, then moves the chain's clock on by `laterSeconds` (an
 * hour by default; a test whose deadlines follow the wall clock moves it less) so later swaps run in later blocks
 * than these (price accumulators and oracles update as on a live chain). Seed after this.
 */
export async function warmPools(
  rpcUrl: string,
  wallet: DevnetWallet,
  catalog: Catalog,
  chain: CatalogChain,
  account: PrivateKeyAccount,
  laterSeconds = 3_600,
  snapshotDir = fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)),
): Promise<number> {
  const shipped = loadSnapshots(snapshotDir).snapshots.filter((s) => s.chainId === chain.chainId);
  const index = new PricingGraph(new PoolGraph(shipped, catalog), catalog).chain(chain.chainId)!;
  const entries = new Set<PoolEntry>();
  for (const token of chain.tokens) for (const e of index.poolsOf(token.address.toLowerCase())) entries.add(e);
  await jsonRpc(rpcUrl, 'evm_increaseTime', [1]);
  await jsonRpc(rpcUrl, 'evm_mine', []);
  const deadline = Number((await wallet.client.getBlock()).timestamp) + 3_600;
  const swapped: WarmSwap[] = [];
  for (const entry of entries) {
    for (const [tokenIn, tokenOut, balance] of [
      [entry.token0, entry.token1, entry.state.balance0],
      [entry.token1, entry.token0, entry.state.balance1],
    ] as const) {
      const amount = BigInt(balance) / 1_000_000n;
      if (amount === 0n) continue;
      const tokenInfo = (a: string) => chain.tokens.find((t) => t.address.toLowerCase() === a)!;
      let steps: Step[];
      try {
        steps = poolSwapSteps(index, (e) => e === entry, {
          chain,
          tokenIn: tokenInfo(tokenIn),
          tokenOut: tokenInfo(tokenOut),
          amountIn: amount,
          account: account.address,
          deadline,
        });
      } catch {
        continue; // the pool cannot take even this amount this way
      }
      await fundAccount(rpcUrl, account.address, tokenInfo(tokenIn).address as Address, amount);
      await wallet.sendSteps(account, steps);
      swapped.push({
        pool: entry.address,
        name: `${tokenInfo(tokenIn).symbol} -> ${tokenInfo(tokenOut).symbol} through ${entry.address}`,
        steps,
        token: tokenInfo(tokenIn).address as Address,
        amount,
      });
    }
  }
  await jsonRpc(rpcUrl, 'evm_increaseTime', [1]);
  await jsonRpc(rpcUrl, 'evm_mine', []);
  await verifyWarm(rpcUrl, wallet, account, swapped);
  await jsonRpc(rpcUrl, 'evm_increaseTime', [laterSeconds]);
  await jsonRpc(rpcUrl, 'evm_mine', []);
  return swapped.length;
}

/** One warm-up swap: its pool, a name for messages, its steps and what funds them. */
interface WarmSwap {
  pool: string;
  name: string;
  steps: Step[];
  token: Address;
  amount: bigint;
}

type StorageDiff = Record<string, { storage?: Record<string, Hex> }>;

/** The pool's storage in one side of a diff-mode prestate trace (addresses compared case-insensitively). */
const poolStorage = (diff: StorageDiff, pool: string) =>
  Object.entries(diff).find(([a]) => a.toLowerCase() === pool.toLowerCase())?.[1].storage ?? {};

/**
 * Repeats every warm-up swap a second later and traces it (prestateTracer, diff mode): a warm pool rewrites only
 * slots that already hold a value, whatever its kind. A slot of the pool going from zero to non-zero means that
 * pool's warm-up was missed; this throws naming each such pool and slot, so the failure is the warm-up's, not a gas
 * mismatch in a later case.
 */
async function verifyWarm(rpcUrl: string, wallet: DevnetWallet, account: PrivateKeyAccount, swapped: readonly WarmSwap[]): Promise<void> {
  const cold: string[] = [];
  for (const s of swapped) {
    await fundAccount(rpcUrl, account.address, s.token, s.amount);
    const receipts = await wallet.sendSteps(account, s.steps);
    const trace = await jsonRpc<{ pre: StorageDiff; post: StorageDiff }>(rpcUrl, 'debug_traceTransaction', [
      receipts.at(-1)!.transactionHash,
      { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    ]);
    const pre = poolStorage(trace.pre, s.pool);
    for (const [slot, value] of Object.entries(poolStorage(trace.post, s.pool))) {
      if (BigInt(value) !== 0n && BigInt(pre[slot] ?? '0x0') === 0n) cold.push(`${s.name}: slot ${slot} written from zero`);
    }
  }
  if (cold.length > 0)
    throw new Error(`warm-up missed ${cold.length} slot(s), gas checks would be off by ~17,100 each:\n${cold.join('\n')}`);
}
