// SwapRouter02's v2 factory read from the router itself (src/chain/routerFacts.ts, src/graph/servedChain.ts), on a
// devnet (anvil with the real Uniswap contracts) named by a copy of catalog/devnet.json WITHOUT the override
// `v3RouterV2FactoryAddress`: the seeding run records the router's factory(), WETH9() and factoryV2() (expected: the
// addresses the devnet deployed them at, computed from the deployer's nonces by seeds/devnet/devnetAddresses.ts),
// routing then mixes v2 and v3 pools through SwapRouter02 (AAVE -v2-> LINK -v3-> WETH, whose only AAVE pool is the
// v2 AAVE/LINK pair), and the steps built on the same served chain execute on the chain delivering exactly amountOut
// for exactly amountIn. Without the router's facts (an older snapshot) the same request has no route at all. A catalogue contradicting the router (a wrong override, a router address that is no v3 router) is
// refused at seeding with the reason and no snapshot.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type Address, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { servedChain } from '../../src/graph/servedChain.ts';
import { loadSnapshots, type Snapshot } from '../../src/graph/snapshot.ts';
import { applyTokenFacts } from '../../src/quote/applyTokenFacts.ts';
import type { QuoteRequest } from '../../src/quote/quoteRequest.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { buildTradeSteps } from '../../src/tx/buildTradeSteps.ts';
import { devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const devnet = await startDevnet();
t.teardown(() => devnet.stop());
const c = devnet.addresses.contracts;

// The catalogue without SwapRouter02's v2 factory, and without the v4 entry: its Universal Router swaps the v2 and v3
// pools of the factories it was deployed with too, so it would route v2 -> v3 without SwapRouter02's facts.
const catalogDir = mkdtempSync(join(tmpdir(), 'router-facts-catalog-'));
const snapshotDir = mkdtempSync(join(tmpdir(), 'router-facts-snapshots-'));
t.teardown(() => {
  rmSync(catalogDir, { recursive: true, force: true });
  rmSync(snapshotDir, { recursive: true, force: true });
});
cpSync(join(ROOT, 'catalog'), catalogDir, { recursive: true });
const file = JSON.parse(readFileSync(join(catalogDir, 'devnet.json'), 'utf8')) as { dexes: Record<string, unknown>[] };
for (const dex of file.dexes) delete dex.v3RouterV2FactoryAddress;
file.dexes = file.dexes.filter((dex) => dex.version !== 'v4');
writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(file));
const catalog = loadCatalog(catalogDir);
const chain = catalog.chain('devnet')!;

async function seed(chains: readonly CatalogChain[], dir = snapshotDir) {
  return seedChains({ chains, rpcUrls: new Map([[devnet.chainId, devnet.rpcUrl]]), snapshotDir: dir, progress: 'none', log: () => {} });
}

const symbol = (address: string): string => chain.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase())!.symbol;
const shape = (trade: Trade): string[] =>
  trade.splits.map(
    ({ route }) =>
      `${route.executor.kind}: ${symbol(route.legs[0].tokenIn)}${route.legs.map((l) => ` -${l.dex}/${l.version}${l.version === 'v3' ? ` ${l.fee}` : ''}-> ${symbol(l.tokenOut)}`).join('')}`,
  );
const token = (s: string) => chain.tokens.find((x) => x.symbol === s)!;
/** 300 AAVE -> WETH, one route, Uniswap v2 and v3 pools only (the only AAVE pool: v2 AAVE/LINK; LINK/WETH: v3 only). */
function aaveToWeth(index: ChainPoolIndex): Trade {
  const outcome = bestTrade(index, {
    tokenIn: token('AAVE').address.toLowerCase(),
    tokenOut: token('WETH').address.toLowerCase(),
    tradeType: 'exactIn',
    amount: parseUnits('300', 18),
    maxHops: 3,
    maxSplits: 1,
    gasPriceWei: 0n,
    allow: (e) => e.dex === 'uniswap',
  });
  if (!outcome.ok) throw new Error(`no trade: ${outcome.code}`);
  return outcome.trade;
}

t.test(
  'a catalogue without v3RouterV2FactoryAddress: the seeding run reads the router, v2 -> v3 through SwapRouter02 executes exactly',
  async (t) => {
    t.notOk(
      chain.dexes.some((d) => d.v3RouterV2FactoryAddress),
      'the catalogue names no v2 factory for SwapRouter02',
    );
    const report = await seed([chain]);
    const seeded = report.chains[0];
    t.equal(seeded.status, 'seeded', seeded.reason ?? 'seeded');
    t.equal(seeded.calls.routers, 3, 'one SwapRouter02: factory(), WETH9(), factoryV2()');
    const snapshot = seeded.snapshot!;
    t.strictSame(
      snapshot.routers,
      [
        {
          dex: 'uniswap',
          version: 'v3',
          kind: 'SwapRouter02',
          address: c.swapRouter02,
          factory: c.uniswapV3Factory,
          weth9: c.WETH,
          factoryV2: c.uniswapV2Factory,
        },
      ],
      "the router's facts: the contracts the devnet deployed it with",
    );

    const graph = new PoolGraph(loadSnapshots(snapshotDir).snapshots, catalog);
    const index = new PricingGraph(graph, catalog).chain(devnet.chainId)!;
    const served = servedChain(chain, graph.snapshot(devnet.chainId));
    t.equal(index.chain, served, 'routing and the steps use one served chain object');
    const request = { originChain: chain, destinationChain: chain, tokenIn: token('AAVE'), tokenOut: token('WETH') } as QuoteRequest;
    t.equal(applyTokenFacts(request, graph).originChain, served, 'a quote request gets it too (applyTokenFacts), for its steps');
    t.equal(
      served.dexes.find((d) => d.v3RouterKind === 'SwapRouter02')!.v3RouterV2FactoryAddress,
      c.uniswapV2Factory,
      "served: SwapRouter02's v2 factory is the router's own",
    );

    const trade = aaveToWeth(index);
    t.strictSame(shape(trade), ['SwapRouter02: AAVE -uniswap/v2-> LINK -uniswap/v3 3000-> WETH'], 'mixed v2 -> v3 through SwapRouter02');

    // An older snapshot without the router's facts: the catalogue alone knows no v2 pairs for SwapRouter02.
    const { routers: _, ...older } = snapshot;
    const olderIndex = new PricingGraph(new PoolGraph([older as Snapshot], catalog), catalog).chain(devnet.chainId)!;
    t.throws(() => aaveToWeth(olderIndex), /no trade: NO_ROUTE/, "without the facts: no route (Uniswap's only LINK/WETH pools are v3)");

    const account = privateKeyToAccount(devnet.accounts[1].privateKey);
    const recipient = freshAddress('router-facts: recipient');
    const base = {
      trade,
      tokenIn: token('AAVE'),
      tokenOut: token('WETH'),
      amountOutMinimum: trade.amountOut,
      recipient,
      wallet: account.address,
      deadline: Math.floor(Date.now() / 1000) + 3_600,
    };
    t.throws(
      () => buildTradeSteps({ ...base, chain }),
      /does not swap uniswap v2 pool/,
      "the catalogue's own chain does not let SwapRouter02 swap the v2 pair: the served chain is what steps need",
    );
    const steps = buildTradeSteps({ ...base, chain: served });
    await fundAccount(devnet.rpcUrl, account.address, token('AAVE').address as Address, trade.amountIn);
    const wallet = devnetWallet(devnet);
    const inBefore = await wallet.balanceOf(token('AAVE').address, account.address);
    for (const step of steps) {
      const receipt = await wallet.sendStep(account, step, BigInt(step.gasLimit!));
      t.equal(receipt.status, 'success', `${step.message}: executed within its gasLimit ${step.gasLimit}`);
    }
    t.equal(await wallet.balanceOf(token('WETH').address, recipient), trade.amountOut, 'the recipient received exactly amountOut');
    t.equal(
      inBefore - (await wallet.balanceOf(token('AAVE').address, account.address)),
      trade.amountIn,
      'the sender spent exactly amountIn',
    );
    for (const held of ['AAVE', 'LINK', 'WETH'])
      t.equal(await wallet.balanceOf(token(held).address, c.swapRouter02), 0n, `no ${held} left in SwapRouter02`);
  },
);

t.test('a catalogue that contradicts the router is refused at seeding, with the reason and no snapshot', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'router-facts-refused-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const withV3 = (change: Partial<CatalogChain['dexes'][number]>): CatalogChain => ({
    ...chain,
    dexes: chain.dexes.map((d) => (d.v3RouterKind === 'SwapRouter02' ? { ...d, ...change } : d)),
  });
  const wrongOverride = (await seed([withV3({ v3RouterV2FactoryAddress: c.sushiswapV2Factory })], dir)).chains[0];
  t.equal(wrongOverride.status, 'failed');
  t.equal(
    wrongOverride.reason,
    `the catalogue disagrees with the chain: uniswap v3 SwapRouter02 ${c.swapRouter02}: factoryV2() is ${c.uniswapV2Factory}, the catalogue's v3RouterV2FactoryAddress is ${c.sushiswapV2Factory}; no snapshot written`,
  );
  const notARouter = (await seed([withV3({ v3RouterAddress: c.uniswapV2Router02 })], dir)).chains[0];
  t.equal(notARouter.status, 'failed');
  t.equal(
    notARouter.reason,
    `the catalogue disagrees with the chain: uniswap v3 SwapRouter02 ${c.uniswapV2Router02}: factory() is ${c.uniswapV2Factory}, the catalogue's v3FactoryAddress is ${c.uniswapV3Factory}; uniswap v3 SwapRouter02 ${c.uniswapV2Router02} does not answer WETH9(): no SwapRouter02 at that address; no snapshot written`,
    'UniswapV2Router02 answers factory() (its v2 factory) but not WETH9()',
  );
  t.notOk(existsSync(join(dir, 'devnet.json')), 'no snapshot written');
});
