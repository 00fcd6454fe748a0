// Makes a freshly deployed devnet's pools look traded, as every pool on a live chain is, before gas is measured.
// A pool's first swap writes storage slots that are still zero: a v2 pair's two price accumulators and a v3 pool's
// fee growth of the input side (each about 17,100 gas more than rewriting a non-zero slot). Without this, the
// first swap through each pool costs ~34,000 (v2) or ~17,000 (v3) gas more than any later one.
import { fileURLToPath } from 'node:url';
import { type Address } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import type { Catalog, CatalogChain } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph, type PoolEntry } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { DevnetWallet } from './devnetWallet.ts';
import { poolSwapSteps } from './poolSwapSteps.ts';

/**
 * Swaps a millionth of each pool's balance through every pool of the chain's shipped snapshot (the state a fresh
 * devnet starts from), in both directions, from `account`, then moves the chain's clock on by an hour so later
 * swaps run in later blocks than these (price accumulators and oracles update as on a live chain). Seed after this.
 */
export async function warmPools(rpcUrl: string, wallet: DevnetWallet, catalog: Catalog, chain: CatalogChain, account: PrivateKeyAccount): Promise<number> {
  const shipped = loadSnapshots(fileURLToPath(new URL('../../seeds/snapshots', import.meta.url))).snapshots.filter((s) => s.chainId === chain.chainId);
  const index = new PricingGraph(new PoolGraph(shipped, catalog), catalog).chain(chain.chainId)!;
  const entries = new Set<PoolEntry>();
  for (const token of chain.tokens) for (const e of index.poolsOf(token.address.toLowerCase())) if (e.state) entries.add(e);
  const deadline = Number((await wallet.client.getBlock()).timestamp) + 3_600;
  let swaps = 0;
  for (const entry of entries) {
    for (const [tokenIn, tokenOut, balance] of [[entry.token0, entry.token1, entry.state!.balance0], [entry.token1, entry.token0, entry.state!.balance1]] as const) {
      const amount = BigInt(balance) / 1_000_000n;
      if (amount === 0n) continue;
      const tokenInfo = (a: string) => chain.tokens.find((t) => t.address.toLowerCase() === a)!;
      let steps;
      try {
        steps = poolSwapSteps(index, (e) => e === entry, { chain, tokenIn: tokenInfo(tokenIn), tokenOut: tokenInfo(tokenOut), amountIn: amount, account: account.address, deadline });
      } catch {
        continue; // the pool cannot take even this amount this way
      }
      await fundAccount(rpcUrl, account.address, tokenInfo(tokenIn).address as Address, amount);
      await wallet.sendSteps(account, steps);
      swaps++;
    }
  }
  await jsonRpc(rpcUrl, 'evm_increaseTime', [3_600]);
  await jsonRpc(rpcUrl, 'evm_mine', []);
  return swaps;
}
