// Exactness against the chain: for every pool of a devnet snapshot and a ladder of input amounts in both
// directions (1 wei up to 5x the pool's balance of the input token, crossing every initialized tick), the
// pricing engine (src/amm) on the snapshot returns exactly what the chain returns at the snapshot's block:
// QuoterV2.quoteExactInputSingle for v3 (amountOut, sqrtPriceX96After, initializedTicksCrossed) and
// UniswapV2Router02.getAmountsOut for v2. Also: a fresh seeding run reproduces the shipped snapshot.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { type Address, parseAbi } from 'viem';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { quoteExactInputSingle } from '../../src/amm/quoter.ts';
import { getAmountOut } from '../../src/amm/v2.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import { snapshotProtocol } from '../../src/protocols/registry.ts';
import { batchingClient } from '../helpers/devnetWallet.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const quoterAbi = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);
const routerAbi = parseAbi(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']);

/** 1 wei, 1000 wei, then fractions and multiples of the pool's balance of the input token; ascending, distinct. */
function ladder(balanceIn: bigint): bigint[] {
  const raw = [
    1n,
    1000n,
    balanceIn / 10n ** 9n,
    balanceIn / 10n ** 6n,
    balanceIn / 10n ** 4n,
    balanceIn / 1000n,
    balanceIn / 100n,
    balanceIn / 20n,
    balanceIn / 5n,
    balanceIn / 2n,
    balanceIn,
    2n * balanceIn,
    5n * balanceIn,
  ];
  return [...new Set(raw.filter((x) => x > 0n))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

t.test('src/amm equals QuoterV2 and Router02.getAmountsOut on every devnet pool', async (t) => {
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const catalog = loadCatalog(join(ROOT, 'catalog'));
  const chain = catalog.chain('devnet')!;
  const report = await seedChains({
    chains: [chain],
    rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
    snapshotDir: '',
    write: false,
    progress: 'none',
  });
  const snap: Snapshot = report.chains[0].snapshot!;
  t.ok(snap, 'devnet seeded');

  // The shipped snapshot is this same seeding run's output (deterministic devnet): same block, same pools.
  const shipped = JSON.parse(readFileSync(join(ROOT, 'seeds', 'snapshots', 'devnet.json'), 'utf8')) as Snapshot;
  t.equal(shipped.blockNumber, snap.blockNumber, 'shipped snapshot: same block number');
  t.same(shipped.pools, snap.pools, 'shipped snapshot: same pools and state as a fresh run');

  // A ladder's quotes are independent reads at one block: asked together, one JSON-RPC batch per 100.
  const client = batchingClient(devnet);
  const blockNumber = BigInt(snap.blockNumber);
  const a = devnet.addresses.contracts;
  let v2Cases = 0;
  let v3Cases = 0;
  let v3Unknown = 0;
  let maxCrossed = 0;
  for (const p of snap.pools) {
    const token0 = p.token0 as Address;
    const token1 = p.token1 as Address;
    if (p.version === 'v2') {
      const dex = chain.dexes.find((d) => d.slug === p.dex && d.version === 'v2')!;
      const router = p.dex === 'uniswap' ? a.uniswapV2Router02 : a.sushiswapV2Router02;
      t.equal(dex.v2RouterAddress, router, `${p.dex} router from the catalogue`);
      for (const zeroForOne of [true, false]) {
        const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0];
        const [reserveIn, reserveOut] = zeroForOne ? [BigInt(p.reserve0), BigInt(p.reserve1)] : [BigInt(p.reserve1), BigInt(p.reserve0)];
        const mismatches: string[] = [];
        const amountsIn = ladder(reserveIn);
        const quoted = await Promise.all(
          amountsIn.map((amountIn) =>
            client.readContract({
              address: router,
              abi: routerAbi,
              functionName: 'getAmountsOut',
              args: [amountIn, [tokenIn, tokenOut]],
              blockNumber,
            }),
          ),
        );
        for (const [i, amountIn] of amountsIn.entries()) {
          const amounts = quoted[i];
          const mine = getAmountOut(amountIn, reserveIn, reserveOut, dex.feeBps);
          v2Cases++;
          if (mine !== amounts[1]) mismatches.push(`amountIn ${amountIn}: chain ${amounts[1]}, src/amm ${mine}`);
        }
        t.same(mismatches, [], `v2 ${p.dex} ${p.address} ${zeroForOne ? '0->1' : '1->0'}: every amount exact`);
      }
      continue;
    }
    // The same conversion the service prices with (snapshot JSON -> createV3Pool).
    const priced = snapshotProtocol(p.version).fromSnapshot(p);
    if (priced.kind !== 'uniswapV3') throw new Error(`${p.address}: expected a v3 pool`);
    const pool = priced.pool;
    for (const zeroForOne of [true, false]) {
      const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0];
      const balanceIn = BigInt(zeroForOne ? p.balance0 : p.balance1);
      const mismatches: string[] = [];
      let unknown = 0;
      const amountsIn = ladder(balanceIn);
      const simulated = await Promise.all(
        amountsIn.map((amountIn) =>
          client.simulateContract({
            address: a.quoterV2,
            abi: quoterAbi,
            functionName: 'quoteExactInputSingle',
            args: [{ tokenIn, tokenOut, amountIn, fee: p.fee, sqrtPriceLimitX96: 0n }],
            blockNumber,
            // Walking a tick-spacing-1 pool to MIN/MAX_TICK reads thousands of empty bitmap words.
            gas: 1_000_000_000n,
          }),
        ),
      );
      for (const [i, amountIn] of amountsIn.entries()) {
        const { result } = simulated[i];
        const [amountOut, sqrtPriceX96After, crossed] = result;
        const q = quoteExactInputSingle(pool, zeroForOne, amountIn);
        v3Cases++;
        maxCrossed = Math.max(maxCrossed, crossed);
        if (q.ok) {
          if (q.amountOut !== amountOut || q.sqrtPriceX96After !== sqrtPriceX96After || q.initializedTicksCrossed !== crossed) {
            mismatches.push(
              `amountIn ${amountIn}: chain (${amountOut}, ${sqrtPriceX96After}, ${crossed}), src/amm (${q.amountOut}, ${q.sqrtPriceX96After}, ${q.initializedTicksCrossed})`,
            );
          }
        } else {
          // The walk left the bitmap words the snapshot read. On the devnet no liquidity lies beyond them, so the
          // amount out up to the edge is the chain's whole answer.
          unknown++;
          if (q.code !== 'INSUFFICIENT_KNOWN_LIQUIDITY' || q.amountOut !== amountOut) {
            mismatches.push(`amountIn ${amountIn}: chain ${amountOut}, src/amm not ok (${q.code}, ${q.amountOut})`);
          }
        }
      }
      v3Unknown += unknown;
      t.same(
        mismatches,
        [],
        `v3 ${p.fee} ${p.address} ${zeroForOne ? '0->1' : '1->0'}: every amount exact${unknown ? ` (${unknown} beyond the window, amount out still exact)` : ''}`,
      );
    }
  }
  t.ok(maxCrossed >= 10, `largest swaps cross up to ${maxCrossed} initialized ticks`);
  t.comment(`exactness cases: ${v2Cases} v2 + ${v3Cases} v3 = ${v2Cases + v3Cases} (v3 beyond the tick window: ${v3Unknown})`);
  t.ok(v2Cases + v3Cases >= 400, `${v2Cases + v3Cases} cases compared`);
});
