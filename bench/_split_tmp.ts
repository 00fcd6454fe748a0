import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseUnits } from 'viem';
import { startDevnet } from '../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { seedChains } from '../src/chain/seedChains.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../src/graph/PricingGraph.ts';
import { bestTrade } from '../src/routing/bestTrade.ts';
import { jsonRpc } from '../seeds/devnet/jsonRpc.ts';
const devnet = await startDevnet({ balancer: true });
try {
  await jsonRpc(devnet.rpcUrl, 'evm_increaseTime', [3 * 86_400]);
  await jsonRpc(devnet.rpcUrl, 'evm_mine', []);
  const catalog = loadCatalog('catalog');
  const chain = catalog.chain('devnet')!;
  const report = await seedChains({ chains: [chain], rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]), snapshotDir: mkdtempSync(join(tmpdir(), 'x-')), write: false, progress: 'none', log: () => {} });
  const snapshot = report.chains[0].snapshot!;
  const index = pricingGraphOf(new PoolGraph([snapshot], catalog), catalog).chain(chain.chainId)!;
  const tok = (s: string) => chain.tokens.find((t) => t.symbol === s)!;
  const { balancerV2 } = await import('../src/protocols/balancer/balancerV2.ts');
  const { PoolCurve } = await import('../src/routing/pathCurve.ts');
  const { balancerSwap } = await import('../src/protocols/balancer/balancerState.ts');
  for (const rec of snapshot.pools.filter((p: any) => p.version === 'balancerV2' && p.poolKind === 'balancerStable' && p.tokens.length === 4)) {
    for (const view of balancerV2.pairViews!(rec as any)) {
      const pool = balancerV2.fromSnapshot(view as any);
      if (![pool.token0, pool.token1].includes(tok('USDC').address.toLowerCase()) || ![pool.token0, pool.token1].includes(tok('DAI').address.toLowerCase())) continue;
      const z = pool.token0 === tok('USDC').address.toLowerCase();
      const curve = new PoolCurve(balancerV2.curveSegments(pool, z));
      const [i, o] = z ? [pool.index0, pool.index1] : [pool.index1, pool.index0];
      for (const x of [1e6, 1e9, 25e9, 100e9, 300e9]) console.log('curve', x, curve.outputAt(x), balancerSwap(pool.state, i, o, 'exactIn', BigInt(x), 0n));
      for (let k = 0; k < 8; k++) { const sg = curve.segment(k); if (sg) console.log(sg.len, sg.a / sg.b); }
    }
  }
  for (const [tradeType, gas] of [['exactIn', 0n], ['exactIn', BigInt(snapshot.gasPriceWei ?? '1000000000')], ['exactOut', BigInt(snapshot.gasPriceWei ?? '1000000000')]] as const) {
    const r = bestTrade(index, { tokenIn: tok('USDC').address.toLowerCase(), tokenOut: tok('DAI').address.toLowerCase(), tradeType, amount: parseUnits('300000', tradeType === 'exactIn' ? 6 : 18), maxHops: 1, maxSplits: 3, gasPriceWei: gas, allow: () => true });
    console.log(tradeType, gas, r.ok ? [r.trade.amountIn, r.trade.amountOut, r.trade.splits.map((s) => [s.route.legs.map((l) => l.version).join('+'), s.route.amountIn])] : r.code);
  }
} finally { await devnet.stop(); }
