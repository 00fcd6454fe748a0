/**
 * BENCH_BEFORE: a commit of the project checked out beside this one (a detached git worktree sharing this checkout's
 * node_modules), so that a benchmark runs it and this checkout in the same run (bench:http, bench:routing's search).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../test/helpers/serverProcess.ts';
import { MAX_HOPS, MAX_SPLITS } from './routingGraphs.ts';

/** Checks `ref` out in a temporary detached worktree sharing node_modules; removeCheckout removes it. */
export function beforeCheckout(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-before-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: projectRoot, stdio: 'ignore' });
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Removes a worktree of beforeCheckout. */
export function removeCheckout(dir: string): void {
  execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: projectRoot, stdio: 'ignore' });
}

/** A trade outcome as any checkout's bestTrade answers it (the fields a comparison reads). */
export type CheckoutOutcome =
  | { readonly ok: true; readonly trade: { readonly amountIn: bigint; readonly amountOut: bigint } }
  | { readonly ok: false };

/** A search as bench/lib/routingGraphs.ts's bestTradeOfCase runs it, on a checkout's own modules. */
export type CheckoutSearch = (
  c: { readonly tokenIn: string; readonly tokenOut: string; readonly tradeType?: string; readonly amount: bigint },
  gasPriceWei: bigint,
) => CheckoutOutcome;

/**
 * Loads a catalogue and snapshot folder with the modules of the checkout at `root` (as routingGraphs.loadGraph
 * loads them with this one's) and returns its search at the API's defaults (maxHops 3, maxSplits 5, every pool; paths
 * of stages searched with `handoverSlippageBps`, as POST /quotes searches them at the request's slippage).
 */
export async function checkoutSearch(
  root: string,
  catalogDir: string,
  snapshotDir: string,
  chainId: number,
  handoverSlippageBps?: number,
): Promise<CheckoutSearch> {
  const { loadCatalog } = await import(`${root}/src/catalog/loadCatalog.ts`);
  const { loadSnapshots } = await import(`${root}/src/graph/snapshot.ts`);
  const { PoolGraph } = await import(`${root}/src/graph/PoolGraph.ts`);
  const { PricingGraph } = await import(`${root}/src/graph/PricingGraph.ts`);
  const { bestTrade } = await import(`${root}/src/routing/bestTrade.ts`);
  const catalog = loadCatalog(catalogDir);
  const index = new PricingGraph(new PoolGraph(loadSnapshots(snapshotDir).snapshots, catalog), catalog).chain(chainId);
  return (c, gasPriceWei) =>
    bestTrade(index, {
      tokenIn: c.tokenIn,
      tokenOut: c.tokenOut,
      tradeType: c.tradeType ?? 'exactIn',
      amount: c.amount,
      maxHops: MAX_HOPS,
      maxSplits: MAX_SPLITS,
      gasPriceWei,
      allow: () => true,
      ...(handoverSlippageBps === undefined ? {} : { handoverSlippageBps }),
    });
}
