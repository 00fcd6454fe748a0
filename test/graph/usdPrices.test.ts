// USD prices, pool values and market caps of GET /blockchains/pools against figures computed here, by hand, from the
// shipped devnet snapshot's raw reserves, sqrtPriceX96 and totalSupplies (exact fractions, floored to cents once), never
// through src/graph/usdPrices.ts: each token's price path is chosen below from the pools' balances, with the reason.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { DEVNET_V4_HOOKS } from '../../seeds/devnet/deployUniswapV4.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import { chainUsdPrices } from '../../src/graph/usdPrices.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { buildTestApp } from '../helpers/testApp.ts';

const catalogDir = fileURLToPath(new URL('../../catalog', import.meta.url));
const snapshotDir = fileURLToPath(new URL('../../seeds/snapshots', import.meta.url));
const raw = JSON.parse(readFileSync(`${snapshotDir}/devnet.json`, 'utf8')) as Snapshot;
const catalogFile = JSON.parse(readFileSync(`${catalogDir}/devnet.json`, 'utf8')) as {
  tokens: { address: string; symbol: string; decimals: number }[];
};
const catalog = loadCatalog(catalogDir);
const chainId = 31337;

const addr = (symbol: string): string => catalogFile.tokens.find((x) => x.symbol === symbol)!.address;
const decimalsOf = (symbol: string): number => catalogFile.tokens.find((x) => x.symbol === symbol)!.decimals;
/** A pool's fields as the file writes them (v2 reserves or v3 sqrtPriceX96, the one its version has). */
type RawPool = Record<'address' | 'token0' | 'token1' | 'balance0' | 'balance1' | 'reserve0' | 'reserve1' | 'sqrtPriceX96', string>;
const pool = (address: string): RawPool => raw.pools.find((p) => p.address === address) as unknown as RawPool;

/** A fraction n/d (d > 0). */
type Q = [bigint, bigint];
const mul = (a: Q, b: Q): Q => [a[0] * b[0], a[1] * b[1]];
const Q192 = 2n ** 192n;
/** USD cents of an amount at a price per smallest unit, rounded down, as `d.cc`. */
const cents = (amount: bigint, price: Q): bigint => (amount * price[0] * 100n) / price[1];
const usd = (c: bigint): string => `${c / 100n}.${(c % 100n).toString().padStart(2, '0')}`;
/** token1 units per token0 unit of a v3 pool. */
const v3Mid = (p: { sqrtPriceX96: string }): Q => [BigInt(p.sqrtPriceX96) ** 2n, Q192];
const inverse = (q: Q): Q => [q[1], q[0]];

// Pools (address order: WETH < LINK < AAVE < USDC; WETH < WBTC).
const WETH_USDC_V3_500 = '0xFdC4D91a842F98589094519645F3d5Af21155c7a';
const WETH_LINK_V3 = '0x7Cc2C89DF2E5463296CDbBB9024B07a9ff5CE927';
const LINK_AAVE_V2 = '0xE2A02264DA562c4c191c9a59C69A893d19838156';
const WETH_WBTC_V3 = '0x8DdB8BcdDc4a7fE1De000232B03830DA821f60f3';
const WBTC_USDC_V2 = '0x8b09811c655369C57C553CAFEe703Ee6A077084E';

// Stablecoins: $1 a whole token.
const price = new Map<string, Q>();
for (const s of ['USDC', 'USDT', 'DAI']) price.set(s, [1n, 10n ** BigInt(decimalsOf(s))]);
// WETH: the WETH/stablecoin pool holding the most stablecoin is Uniswap V3 WETH/USDC 0.05% (checked below).
price.set('WETH', mul(v3Mid(pool(WETH_USDC_V3_500)), price.get('USDC')!));
// LINK: its only pool, WETH/LINK v3 (token0 WETH): a LINK unit is worth 1/mid WETH units.
price.set('LINK', mul(inverse(v3Mid(pool(WETH_LINK_V3))), price.get('WETH')!));
// AAVE: its only pool, the v2 LINK/AAVE pair (token0 LINK): an AAVE unit is worth reserve0/reserve1 LINK units.
const linkAave = pool(LINK_AAVE_V2);
price.set('AAVE', mul([BigInt(linkAave.reserve0), BigInt(linkAave.reserve1)], price.get('LINK')!));
// WBTC: through WETH (WETH/WBTC v3, token0 WETH), deeper than any WBTC/stablecoin pool (checked below).
price.set('WBTC', mul(inverse(v3Mid(pool(WETH_WBTC_V3))), price.get('WETH')!));
const symbolOf = (address: string): string => catalogFile.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase())!.symbol;

t.test('the paths chosen above are the deepest: their shallowest pool holds the most USD of the side it prices from', async (t) => {
  const stables = new Set(['USDC', 'USDT', 'DAI']);
  // WETH: the stablecoin side of every WETH/stablecoin pool, in cents.
  const wethStable = raw.pools
    .filter((p) => symbolOf(p.token0) === 'WETH' && stables.has(symbolOf(p.token1)))
    .map((p) => ({ address: p.address, cents: cents(BigInt(p.balance1), price.get(symbolOf(p.token1))!) }))
    .sort((a, b) => (b.cents > a.cents ? 1 : -1));
  t.equal(wethStable[0].address, WETH_USDC_V3_500);
  t.equal(usd(wethStable[0].cents), '4083417.00', 'its USDC: 4,083,417.009758');
  t.ok(wethStable[1].cents < wethStable[0].cents, `next: ${usd(wethStable[1].cents)}`);
  // WBTC: through WETH the shallowest pool is WETH/WBTC v3 (its WETH side), deeper than WBTC's USDC pools.
  const viaWeth = cents(BigInt(pool(WETH_WBTC_V3).balance0), price.get('WETH')!);
  t.equal(usd(viaWeth), '2032685.54', 'WETH held by WETH/WBTC v3');
  const direct = raw.pools
    .filter((p) => symbolOf(p.token0) === 'WBTC' && symbolOf(p.token1) === 'USDC')
    .map((p) => cents(BigInt(p.balance1), price.get('USDC')!));
  t.same(direct.map(usd).sort(), ['1200000.00', '1224052.57', '207749.21'], 'USDC held by the WBTC/USDC pools');
  t.ok(direct.every((c) => c < viaWeth));
  const wethWbtcV2 = raw.pools.find((p) => p.version === 'v2' && symbolOf(p.token0) === 'WETH' && symbolOf(p.token1) === 'WBTC')!;
  t.ok(cents(BigInt(wethWbtcV2.balance0), price.get('WETH')!) < viaWeth, 'the v2 WETH/WBTC pair is shallower');
});

t.test('prices on the devnet: every token with a pool has one, equal to the hand-computed path', async (t) => {
  const graph = new PoolGraph([raw], catalog);
  const prices = chainUsdPrices(graph, catalog, chainId);
  const whole = (symbol: string, q: Q): string => usd(cents(10n ** BigInt(decimalsOf(symbol)), q));
  const got = Object.fromEntries([...prices].map(([a, q]) => [symbolOf(a), whole(symbolOf(a), [q.num, q.den])]));
  const want = Object.fromEntries([...price].map(([s, q]) => [s, whole(s, q)]));
  t.same(got, want);
  t.same(want, { USDC: '1.00', USDT: '1.00', DAI: '1.00', WETH: '2999.99', LINK: '14.99', AAVE: '99.99', WBTC: '60000.00' });
  t.equal(chainUsdPrices(graph, catalog, chainId), prices, 'kept with the graph');
});

/** The catalogue token as served (the devnet snapshot records no findings). */
const served = (symbol: string) => ({ ...catalogFile.tokens.find((x) => x.symbol === symbol)!, blockchainId: chainId });
const supply = (symbol: string): bigint => BigInt(raw.totalSupplies![addr(symbol)]);
/** The USD fields of a pool's row, computed here. */
function usdFields(p: { token0: string; token1: string; balance0: string; balance1: string }) {
  const s0 = symbolOf(p.token0);
  const s1 = symbolOf(p.token1);
  const c0 = cents(BigInt(p.balance0), price.get(s0)!);
  const c1 = cents(BigInt(p.balance1), price.get(s1)!);
  return {
    marketCap: usd(cents(supply(s0), price.get(s0)!)),
    liquidityInUsd: { baseTokenBalance: usd(c0), quoteTokenBalance: usd(c1), totalPoolBalance: usd(c0 + c1) },
  };
}

t.test('GET /blockchains/pools on the devnet: exact rows, every USD figure and market cap as computed here', async (t) => {
  const { request } = buildTestApp({ catalogDir, snapshotDir });
  const res = await request<{ data: Record<string, unknown>[] }>('GET', `/blockchains/pools?chainId=${chainId}`);
  t.equal(res.status, 200);
  const rows = res.body.data;
  t.equal(rows.length, 20);
  for (const p of raw.pools) {
    const row = rows.find((r) => r.pairAddress === p.address)!;
    t.strictSame({ marketCap: row.marketCap, liquidityInUsd: row.liquidityInUsd }, usdFields(p), `${row.name}`);
  }
  const row = (address: string) => rows.find((r) => r.pairAddress === address);
  t.strictSame(row(LINK_AAVE_V2), {
    name: 'Uniswap V2 LINK/AAVE 0.3%',
    symbol: 'LINK/AAVE',
    dexName: 'Uniswap V2',
    dexSlug: 'uniswap',
    version: 'v2',
    pairAddress: LINK_AAVE_V2,
    poolType: 'v2',
    poolFee: 3000,
    tickSpacing: 0,
    isActivePool: true,
    marketCap: '14999999999999.99',
    baseToken: served('LINK'),
    baseTokenAddress: addr('LINK'),
    baseTokenBalance: '33333333333333333333333',
    quoteToken: served('AAVE'),
    quoteTokenAddress: addr('AAVE'),
    quoteTokenBalance: '5000000000000000000000',
    liquidity: { baseTokenBalance: '33333.333333333333333333', quoteTokenBalance: '5000' },
    liquidityInUsd: { baseTokenBalance: '499999.99', quoteTokenBalance: '499999.99', totalPoolBalance: '999999.98' },
  });
  t.strictSame(row(WETH_LINK_V3), {
    name: 'Uniswap V3 WETH/LINK 0.3%',
    symbol: 'WETH/LINK',
    dexName: 'Uniswap V3',
    dexSlug: 'uniswap',
    version: 'v3',
    pairAddress: WETH_LINK_V3,
    poolType: 'v3',
    poolFee: 3000,
    tickSpacing: 60,
    isActivePool: true,
    marketCap: '2999999999.99',
    baseToken: served('WETH'),
    baseTokenAddress: addr('WETH'),
    baseTokenBalance: '273118118699964741651',
    quoteToken: served('LINK'),
    quoteTokenAddress: addr('LINK'),
    quoteTokenBalance: '54118039454295689010868',
    liquidity: { baseTokenBalance: '273.118118699964741651', quoteTokenBalance: '54118.039454295689010868' },
    liquidityInUsd: usdFields(pool(WETH_LINK_V3)).liquidityInUsd,
  });
  t.strictSame(row(WBTC_USDC_V2), {
    name: 'Uniswap V2 WBTC/USDC 0.3%',
    symbol: 'WBTC/USDC',
    dexName: 'Uniswap V2',
    dexSlug: 'uniswap',
    version: 'v2',
    pairAddress: WBTC_USDC_V2,
    poolType: 'v2',
    poolFee: 3000,
    tickSpacing: 0,
    isActivePool: true,
    marketCap: usd(cents(supply('WBTC'), price.get('WBTC')!)),
    baseToken: served('WBTC'),
    baseTokenAddress: addr('WBTC'),
    baseTokenBalance: '2000000000',
    quoteToken: served('USDC'),
    quoteTokenAddress: addr('USDC'),
    quoteTokenBalance: '1200000000000',
    liquidity: { baseTokenBalance: '20', quoteTokenBalance: '1200000' },
    liquidityInUsd: usdFields(pool(WBTC_USDC_V2)).liquidityInUsd,
  });
  t.equal(row(WBTC_USDC_V2)!.marketCap, '60000000000000000.00', '1e12 WBTC at $60,000 (the WETH path)');
});

/** A v2 pool of the devnet's Uniswap V2 between two tokens (token0 < token1 by address), both balances = reserves. */
function v2Pool(address: string, a: string, b: string, amountA: bigint, amountB: bigint): SnapshotPoolV2 {
  const [token0, token1, r0, r1] = BigInt(addr(a)) < BigInt(addr(b)) ? [a, b, amountA, amountB] : [b, a, amountB, amountA];
  return {
    address,
    dex: 'uniswap',
    version: 'v2',
    token0: addr(token0),
    token1: addr(token1),
    fee: 3000,
    balance0: r0.toString(),
    balance1: r1.toString(),
    reserve0: r0.toString(),
    reserve1: r1.toString(),
  };
}

t.test('a dust pool sets no price: UNI priced by one only from $10,000 of USDC in it; LINK keeps its deep path', async (t) => {
  const E18 = 10n ** 18n;
  // UNI has no pool on the devnet. A UNI/USDC pair with 9,999.999999 USDC for 1 UNI would say $9,999.99 a UNI.
  const dustUni = v2Pool('0x00000000000000000000000000000000000000d1', 'UNI', 'USDC', E18, 9_999_999_999n);
  // A LINK/USDC pair with $500 of USDC at $1,000 a LINK (LINK is $14.99 through WETH).
  const dustLink = v2Pool('0x00000000000000000000000000000000000000d2', 'LINK', 'USDC', E18 / 2n, 500_000_000n);
  const withDust: Snapshot = { ...raw, pools: [...raw.pools, dustUni, dustLink] };
  const graph = new PoolGraph([withDust], catalog);
  const prices = chainUsdPrices(graph, catalog, chainId);
  t.equal(prices.get(addr('UNI').toLowerCase()), undefined, 'UNI: no price');
  const link = prices.get(addr('LINK').toLowerCase())!;
  t.equal(usd(cents(E18, [link.num, link.den])), '14.99', 'LINK: the WETH path, not the dust pair');
  const { request } = buildTestApp({ catalogDir, snapshotDir, deps: { graph: () => graph } });
  const rows = (await request<{ data: Record<string, unknown>[] }>('GET', `/blockchains/pools?chainId=${chainId}`)).body.data;
  const uniRow = rows.find((r) => r.pairAddress === dustUni.address)!;
  const uniIsBase = dustUni.token0 === addr('UNI');
  t.equal(uniIsBase, true, 'UNI sorts below USDC: UNI is the base token');
  t.strictSame(
    [uniRow.marketCap, uniRow.liquidityInUsd],
    ['', { baseTokenBalance: '', quoteTokenBalance: '9999.99', totalPoolBalance: '' }],
    'no UNI price: no market cap, no UNI value, no total',
  );
  const linkRow = rows.find((r) => r.pairAddress === dustLink.address)!;
  t.strictSame(
    linkRow.liquidityInUsd,
    { baseTokenBalance: '7.49', quoteTokenBalance: '500.00', totalPoolBalance: '507.49' },
    '0.5 LINK at $14.99..., not at $1,000',
  );

  // Exactly $10,000 of USDC is deep enough: UNI is then $10,000.
  const deepUni = v2Pool(dustUni.address, 'UNI', 'USDC', E18, 10_000_000_000n);
  const priced = chainUsdPrices(new PoolGraph([{ ...raw, pools: [...raw.pools, deepUni] }], catalog), catalog, chainId);
  const uni = priced.get(addr('UNI').toLowerCase())!;
  t.equal(usd(cents(E18, [uni.num, uni.den])), '10000.00');
});

t.test('a followed block reprices from the new state and carries new supplies; the previous graph keeps its figures', async (t) => {
  const graph = new PoolGraph([raw], catalog);
  const before = chainUsdPrices(graph, catalog, chainId);
  // LINK/AAVE reserves moved: AAVE now 2x the LINK per AAVE; AAVE's supply halved.
  const moved: SnapshotPoolV2 = { ...(pool(LINK_AAVE_V2) as unknown as SnapshotPoolV2), reserve1: '2500000000000000000000' };
  const supplies = { ...raw.totalSupplies!, [addr('AAVE')]: '500000000000000000000000000000' };
  const update: BlockUpdate = {
    chainId,
    blockNumber: raw.blockNumber + 1,
    blockHash: `0x${'11'.repeat(32)}`,
    parentHash: `0x${'22'.repeat(32)}`,
    blockTimestamp: raw.blockTimestamp + 12,
    gasPriceWei: raw.gasPriceWei!,
    pools: [moved],
    removed: [],
    totalSupplies: supplies,
  };
  const next = graph.withUpdate(update);
  const after = chainUsdPrices(next, catalog, chainId);
  const aave = addr('AAVE').toLowerCase();
  const aavePrice = mul([BigInt(moved.reserve0), BigInt(moved.reserve1)], price.get('LINK')!);
  t.equal(usd(cents(10n ** 18n, [after.get(aave)!.num, after.get(aave)!.den])), usd(cents(10n ** 18n, aavePrice)), 'AAVE repriced');
  t.equal(usd(cents(10n ** 18n, aavePrice)), '199.99');
  t.equal(chainUsdPrices(graph, catalog, chainId), before, 'the previous graph keeps its prices');
  t.same(next.snapshot(chainId)!.totalSupplies, supplies, 'the update carries the supplies');
  const withoutSupplies = next.withUpdate({ ...update, blockNumber: update.blockNumber + 1, pools: [], totalSupplies: undefined });
  t.equal(withoutSupplies.snapshot(chainId)!.totalSupplies, supplies, 'an update without supplies keeps them');
});

t.test('a dynamic-fee v4 pool prices in USD only where the chain lists its hook, as quotes price it (chainContext)', async (t) => {
  const E18 = 10n ** 18n;
  // UNI has no pool on the devnet: a WETH/UNI dynamic-fee v4 pool (WETH < UNI: token0 WETH) at exactly 400 UNI a WETH
  // (sqrtPriceX96 = 20·2^96), 100 WETH deep, whose fee the devnet's owner-fee hook sets (no permission bit).
  const dynamic: SnapshotPoolV4 = {
    address: `0x${'d4'.repeat(32)}`,
    dex: 'uniswap',
    version: 'v4',
    token0: addr('WETH').toLowerCase(),
    token1: addr('UNI').toLowerCase(),
    fee: 0x800000,
    balance0: (100n * E18).toString(),
    balance1: (40_000n * E18).toString(),
    poolManager: '0x000000000000000000000000000000000000aa01',
    hooks: DEVNET_V4_HOOKS.ownerFee,
    tickSpacing: 60,
    lpFee: 3000,
    protocolFee: 0,
    sqrtPriceX96: (20n << 96n).toString(),
    tick: 59_914,
    liquidity: (2000n * E18).toString(),
    bitmapWords: [3, 4],
    ticks: [],
  };
  const snapshot: Snapshot = { ...raw, pools: [...raw.pools, dynamic] };
  // The shipped catalogue lists no hook; a copy lists the owner-fee hook on the devnet's v4 entry.
  const listedDir = mkdtempSync(join(tmpdir(), 'usd-prices-listed-'));
  t.teardown(() => rmSync(listedDir, { recursive: true, force: true }));
  cpSync(catalogDir, listedDir, { recursive: true });
  const file = JSON.parse(readFileSync(join(listedDir, 'devnet.json'), 'utf8')) as {
    dexes: { version: string; allowedHooks?: string[] }[];
  };
  for (const d of file.dexes) if (d.version === 'v4') d.allowedHooks = [DEVNET_V4_HOOKS.ownerFee];
  writeFileSync(join(listedDir, 'devnet.json'), JSON.stringify(file));
  const listedCatalog = loadCatalog(listedDir);

  const uni = addr('UNI').toLowerCase();
  // One UNI unit is worth 1/400 of a WETH unit.
  const want: Q = mul([1n, 400n], price.get('WETH')!);
  const others = (prices: ReadonlyMap<string, { num: bigint; den: bigint }>) =>
    Object.fromEntries([...prices].filter(([a]) => a !== uni).map(([a, q]) => [symbolOf(a), `${q.num}/${q.den}`]));
  const without = chainUsdPrices(new PoolGraph([raw], catalog), catalog, chainId);

  // Unlisted first, then listed, then unlisted again on the same pool objects: no answer carries to the other catalogue.
  for (const [label, cat, listed] of [
    ['shipped catalogue', catalog, false],
    ['hook listed', listedCatalog, true],
    ['shipped catalogue again', catalog, false],
  ] as const) {
    const prices = chainUsdPrices(new PoolGraph([snapshot], cat), cat, chainId);
    const got = prices.get(uni);
    if (listed) {
      t.ok(got, `${label}: UNI priced`);
      t.equal(got!.num * want[1], want[0] * got!.den, `${label}: UNI exactly WETH's price / 400`);
      t.equal(usd(cents(E18, want)), '7.49', 'a UNI at $2,999.99... / 400');
    } else {
      t.equal(got, undefined, `${label}: the refused pool prices nothing, UNI has no price`);
    }
    t.strictSame(others(prices), others(without), `${label}: every other price as without the pool`);
  }
  // The same pool hookless on a static fee is priced whatever the catalogue lists: the hook rule decides, not v4.
  const hookless = { ...dynamic, fee: 3000, hooks: '0x0000000000000000000000000000000000000000' };
  const plain = chainUsdPrices(new PoolGraph([{ ...raw, pools: [...raw.pools, hookless] }], catalog), catalog, chainId).get(uni)!;
  t.equal(plain.num * want[1], want[0] * plain.den, 'hookless: UNI exactly WETH / 400');
});
