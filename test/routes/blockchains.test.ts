import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { inject } from 'light-my-request';
import { pino } from 'pino';
import t from 'tap';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { GraphHolder } from '../../src/graph/GraphHolder.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import { buildTestApp, fixtureCatalogDir, fixtureSnapshotDir } from '../helpers/testApp.ts';

const { request } = buildTestApp();

const DAI = {
  address: '0x3333333333333333333333333333333333333333',
  symbol: 'DAI',
  name: 'Dai',
  slug: 'dai',
  decimals: 18,
  logo: '',
  blockchainId: 1001,
};
const ETH = {
  address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
  symbol: 'ETH',
  name: 'Ether',
  slug: 'eth',
  decimals: 18,
  logo: '',
  blockchainId: 1001,
};
const USDC = {
  address: '0x2222222222222222222222222222222222222222',
  symbol: 'USDC',
  name: 'USD Coin',
  slug: 'usdc',
  decimals: 6,
  logo: '',
  blockchainId: 1001,
};
const WETH = {
  address: '0x1111111111111111111111111111111111111111',
  symbol: 'WETH',
  name: 'Wrapped Ether',
  slug: 'weth',
  decimals: 18,
  logo: '',
  blockchainId: 1001,
};
const TRON_USDT = {
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  symbol: 'USDT',
  name: 'Tether USD',
  slug: 'usdt',
  decimals: 6,
  logo: '',
  blockchainId: 728126428,
};

const TESTCHAIN = {
  name: 'Test Chain',
  slug: 'testchain',
  chainId: 1001,
  symbol: 'ETH',
  nativeToken: 'Ether',
  ecosystem: 'evm',
  blockExplorer: 'https://explorer.test',
  rpcUrl: '',
  blockChainLogo: 'https://logo.test/chain.png',
  hasPoolState: true,
  snapshotBlock: 1234,
  // The file names no base tokens, and in its snapshot no token has pools to two others (one WETH/USDC pair).
  baseTokens: [],
  baseTokensFrom: 'pools',
  tokens: [DAI, ETH, USDC, WETH],
};
const EMPTYCHAIN = {
  name: 'Empty Chain',
  slug: 'emptychain',
  chainId: 1002,
  symbol: 'EMP',
  nativeToken: 'Empty',
  ecosystem: 'evm',
  blockExplorer: 'https://empty.test',
  rpcUrl: '',
  blockChainLogo: '',
  hasPoolState: false,
  snapshotBlock: null,
  baseTokens: [],
  baseTokensFrom: 'pools',
  tokens: [],
};
const TRON = {
  name: 'TRON',
  slug: 'tron',
  chainId: 728126428,
  symbol: 'TRX',
  nativeToken: 'TRON',
  ecosystem: 'tvm',
  blockExplorer: 'https://tronscan.org',
  rpcUrl: '',
  blockChainLogo: '',
  hasPoolState: false,
  snapshotBlock: null,
  baseTokens: [],
  baseTokensFrom: 'pools',
  tokens: [TRON_USDT],
};
const UNI_V2 = {
  chainId: 1001,
  name: 'Uniswap V2',
  slug: 'uniswap',
  version: 'v2',
  v2FactoryAddress: '0x7777777777777777777777777777777777777777',
  v2RouterAddress: '0x8888888888888888888888888888888888888888',
  v3FactoryAddress: '',
  v3RouterAddress: '',
  v3QuoterAddress: '',
  v4PoolManagerAddress: '',
  v4StateViewAddress: '',
  v4QuoterAddress: '',
  v4PositionManagerAddress: '',
  allowedHooks: [],
  universalRouterAddress: '',
  permit2Address: '',
  settlementAddress: '',
  feeBps: 30,
  feeTiers: [],
  balancerVaultAddress: '',
  balancerQueriesAddress: '',
  balancerWeightedPoolFactories: [],
  balancerStablePoolFactories: [],
};
const UNI_V3 = {
  chainId: 1001,
  name: 'Uniswap V3',
  slug: 'uniswap',
  version: 'v3',
  v2FactoryAddress: '',
  v2RouterAddress: '',
  v3FactoryAddress: '0x4444444444444444444444444444444444444444',
  v3RouterAddress: '0x5555555555555555555555555555555555555555',
  v3QuoterAddress: '0x6666666666666666666666666666666666666666',
  v4PoolManagerAddress: '',
  v4StateViewAddress: '',
  v4QuoterAddress: '',
  v4PositionManagerAddress: '',
  allowedHooks: [],
  universalRouterAddress: '',
  permit2Address: '',
  settlementAddress: '',
  feeBps: 0,
  feeTiers: [500, 3000],
  balancerVaultAddress: '',
  balancerQueriesAddress: '',
  balancerWeightedPoolFactories: [],
  balancerStablePoolFactories: [],
};
const V2_POOL = {
  name: 'Uniswap V2 WETH/USDC 0.3%',
  symbol: 'WETH/USDC',
  dexName: 'Uniswap V2',
  dexSlug: 'uniswap',
  version: 'v2',
  pairAddress: '0x9999999999999999999999999999999999999999',
  poolType: 'v2',
  poolFee: 3000,
  tickSpacing: 0,
  isActivePool: true,
  marketCap: '',
  baseToken: WETH,
  baseTokenAddress: WETH.address,
  baseTokenBalance: '10000000000000000000',
  quoteToken: USDC,
  quoteTokenAddress: USDC.address,
  quoteTokenBalance: '30000000000',
  liquidity: { baseTokenBalance: '10', quoteTokenBalance: '30000' },
  liquidityInUsd: { baseTokenBalance: '30000.00', quoteTokenBalance: '30000.00', totalPoolBalance: '60000.00' },
};
const V3_POOL = {
  name: 'Uniswap V3 WETH/USDC 0.05%',
  symbol: 'WETH/USDC',
  dexName: 'Uniswap V3',
  dexSlug: 'uniswap',
  version: 'v3',
  pairAddress: '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa',
  poolType: 'v3',
  poolFee: 500,
  tickSpacing: 10,
  isActivePool: false,
  marketCap: '',
  baseToken: WETH,
  baseTokenAddress: WETH.address,
  baseTokenBalance: '0',
  quoteToken: USDC,
  quoteTokenAddress: USDC.address,
  quoteTokenBalance: '0',
  liquidity: { baseTokenBalance: '0', quoteTokenBalance: '0' },
  liquidityInUsd: { baseTokenBalance: '0.00', quoteTokenBalance: '0.00', totalPoolBalance: '0.00' },
};

t.test('GET /blockchains lists every chain by chain id, tokens embedded, rpcUrl empty', async (t) => {
  const res = await request('GET', '/blockchains');
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  t.strictSame(res.body, { code: 200, message: 'blockchains fetched successfully', data: [TESTCHAIN, EMPTYCHAIN, TRON] });
});

t.test('GET /blockchains filters by chainId or slug', async (t) => {
  t.strictSame((await request('GET', '/blockchains?chainId=728126428')).body, {
    code: 200,
    message: 'blockchains fetched successfully',
    data: [TRON],
  });
  t.strictSame((await request('GET', '/blockchains?slug=testchain')).body, {
    code: 200,
    message: 'blockchains fetched successfully',
    data: [TESTCHAIN],
  });
  t.strictSame((await request('GET', '/blockchains?chainId=1001&slug=tron')).body, {
    code: 200,
    message: 'blockchains fetched successfully',
    data: [],
  });
  t.strictSame((await request('GET', '/blockchains?chainId=5')).body, { code: 200, message: 'blockchains fetched successfully', data: [] });
});

t.test('GET /blockchains/tokens', async (t) => {
  t.same((await request('GET', '/blockchains/tokens')).body, {
    code: 200,
    message: 'tokens fetched successfully',
    data: [DAI, ETH, USDC, WETH, TRON_USDT],
  });
  t.same((await request('GET', '/blockchains/tokens?chainId=1001')).body, {
    code: 200,
    message: 'tokens fetched successfully',
    data: [DAI, ETH, USDC, WETH],
  });
  t.same((await request('GET', '/blockchains/tokens?chainId=999')).body, { code: 200, message: 'tokens fetched successfully', data: [] });
});

t.test('GET /blockchains/dex: chainId, slug, both or neither; always an array', async (t) => {
  const all = { code: 200, message: 'dexes fetched successfully', data: [UNI_V2, UNI_V3] };
  t.same((await request('GET', '/blockchains/dex')).body, all);
  t.same((await request('GET', '/blockchains/dex?chainId=1001')).body, all);
  t.same((await request('GET', '/blockchains/dex?slug=uniswap')).body, all);
  t.same((await request('GET', '/blockchains/dex?chainId=1001&slug=uniswap')).body, all);
  t.same((await request('GET', '/blockchains/dex?chainId=728126428')).body, { code: 200, message: 'dexes fetched successfully', data: [] });
  t.same((await request('GET', '/blockchains/dex?slug=sushiswap')).body, { code: 200, message: 'dexes fetched successfully', data: [] });
});

t.test('GET /blockchains/pools', async (t) => {
  t.same((await request('GET', '/blockchains/pools?chainId=1001')).body, {
    code: 200,
    message: 'pools fetched successfully',
    data: [V2_POOL, V3_POOL],
  });
  t.same((await request('GET', '/blockchains/pools?chainId=1001&dex=uniswap')).body, {
    code: 200,
    message: 'pools fetched successfully',
    data: [V2_POOL, V3_POOL],
  });
  t.same((await request('GET', '/blockchains/pools?chainId=1001&dex=sushiswap')).body, {
    code: 200,
    message: 'pools fetched successfully',
    data: [],
  });
  t.same(
    (await request('GET', '/blockchains/pools?chainId=1002')).body,
    { code: 200, message: 'pools fetched successfully', data: [] },
    'known chain without snapshot: no pools',
  );
  t.same(
    (await request('GET', '/blockchains/pools?chainId=424242')).body,
    { code: 200, message: 'pools fetched successfully', data: null },
    'unknown chain: data null',
  );
});

t.test('GET /blockchains/pools without chainId is 400 "invalid chain id"', async (t) => {
  for (const url of ['/blockchains/pools', '/blockchains/pools?chainId=', '/blockchains/pools?dex=uniswap']) {
    const res = await request('GET', url);
    t.equal(res.status, 400, url);
    t.same(res.body, { code: 400, message: 'invalid chain id' }, url);
  }
});

t.test('a chainId that is not a positive integer is 400 on every endpoint', async (t) => {
  for (const path of ['/blockchains', '/blockchains/tokens', '/blockchains/dex', '/blockchains/pools']) {
    for (const value of ['abc', '1.5', '-1', '0', '1e3', '9007199254740993', '0x10']) {
      const res = await request('GET', `${path}?chainId=${value}`);
      t.same([res.status, res.body], [400, { code: 400, message: 'chainId: must be a positive integer' }], `${path} ${value}`);
    }
  }
});

t.test('an empty chainId is a 400, not "every chain" (issue 15)', async (t) => {
  for (const path of ['/blockchains', '/blockchains/tokens', '/blockchains/dex']) {
    for (const query of ['?chainId=', '?chainId=&slug=devnet', '?chainId']) {
      const res = await request('GET', `${path}${query}`);
      t.same([res.status, res.body], [400, { code: 400, message: 'chainId: must be a positive integer' }], `${path}${query}`);
    }
  }
});

t.test('unknown paths and methods get the envelope', async (t) => {
  const res = await request('GET', '/nope');
  t.same([res.status, res.body], [404, { code: 404, message: 'not found: GET /nope' }]);
  t.match(res.headers['content-type'], /^application\/json/);
  const post = await request('POST', '/blockchains', { body: {} });
  t.same([post.status, post.body], [405, { code: 405, message: 'method not allowed' }]);
});

t.test('unknown query parameters are ignored', async (t) => {
  const res = await request('GET', '/blockchains?chainId=1002&foo=bar');
  t.strictSame(res.body, { code: 200, message: 'blockchains fetched successfully', data: [EMPTYCHAIN] });
});

t.test('GET /blockchains and /blockchains/tokens are gzipped for clients that accept it, byte for byte the plain body', async (t) => {
  const app = buildTestApp().app;
  for (const url of [
    '/blockchains',
    '/blockchains?slug=testchain',
    '/blockchains/tokens',
    '/blockchains/tokens?chainId=1001',
    '/blockchains/tokens?chainId=5',
  ]) {
    const plain = await inject(app.callback(), { method: 'GET', url });
    const zipped = await inject(app.callback(), { method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    t.equal(plain.headers['content-encoding'], undefined, `${url}: plain without Accept-Encoding`);
    t.equal(zipped.headers['content-encoding'], 'gzip', `${url}: gzip`);
    t.equal(zipped.headers.vary, 'Accept-Encoding');
    t.match(zipped.headers['content-type'], /^application\/json/);
    t.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body, `${url}: same JSON`);
  }
});

t.test('tokens the seeding run left out are served quotable: false with the reason, found approval resets as approvalReset', async (t) => {
  const seeded = JSON.parse(readFileSync(join(fixtureSnapshotDir, 'testchain.json'), 'utf8')) as Snapshot;
  const detail = 'decimals() is 8 on chain, 18 in the catalogue';
  const withFacts: Snapshot = {
    ...seeded,
    excludedTokens: [{ address: DAI.address, reason: 'metadata', detail, pools: [] }],
    approvalResetTokens: [USDC.address],
  };
  let current = 'plain';
  const catalog = loadCatalog(fixtureCatalogDir);
  const graphs: Record<string, PoolGraph> = { plain: new PoolGraph([seeded], catalog), facts: new PoolGraph([withFacts], catalog) };
  const { request } = buildTestApp({ deps: { graph: () => graphs[current] } });
  // Exact text: the catalogue fields in their order, then the findings (as approvalReset follows them in the catalogue).
  const text = (message: string, data: unknown[]) => JSON.stringify({ code: 200, message, data });
  const DAI_LEFT_OUT = { ...DAI, quotable: false, reason: detail };
  const USDC_RESET = { ...USDC, approvalReset: true };
  const served = [DAI_LEFT_OUT, ETH, USDC_RESET, WETH];
  const bodies = (tokens: unknown[]) => ({
    '/blockchains/tokens?chainId=1001': text('tokens fetched successfully', tokens),
    '/blockchains/tokens': text('tokens fetched successfully', [...tokens, TRON_USDT]),
    '/blockchains?chainId=1001': text('blockchains fetched successfully', [{ ...TESTCHAIN, tokens }]),
    '/blockchains': text('blockchains fetched successfully', [{ ...TESTCHAIN, tokens }, EMPTYCHAIN, TRON]),
  });
  for (const [graph, expected] of [
    ['plain', bodies([DAI, ETH, USDC, WETH])],
    ['facts', bodies(served)],
    ['plain', bodies([DAI, ETH, USDC, WETH])],
  ] as const) {
    current = graph;
    for (const [url, body] of Object.entries(expected)) {
      const res = await request('GET', url);
      t.same([res.status, res.text], [200, body], `${graph}: ${url}`);
    }
  }
});

t.test('hasPoolState and snapshotBlock follow the served graph: a snapshot reload, a followed block', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'blockchains-pool-state-'));
  let holder: GraphHolder | undefined;
  const built = buildTestApp({ snapshotDir: dir, deps: { graph: () => holder!.current() } });
  holder = new GraphHolder(built.catalog, { snapshotDir: dir }, pino({ level: 'silent' }));
  t.teardown(() => {
    holder!.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const app = built.app;
  /** The plain body, and the gzipped one unzipped (they must be the same bytes). */
  const get = async (url: string) => {
    const plain = await inject(app.callback(), { method: 'GET', url });
    const zipped = await inject(app.callback(), { method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    t.equal(gunzipSync(zipped.rawPayload).toString('utf8'), plain.body, `${url}: gzip is the same JSON`);
    return JSON.parse(plain.body) as { data: unknown };
  };
  const noState = { ...TESTCHAIN, hasPoolState: false, snapshotBlock: null };
  t.strictSame((await get('/blockchains')).data, [noState, EMPTYCHAIN, TRON], 'no snapshot in the folder');
  t.strictSame((await get('/blockchains?chainId=1001')).data, [noState]);

  copyFileSync(join(fixtureSnapshotDir, 'testchain.json'), join(dir, 'testchain.json'));
  t.equal(holder.reload('test').ok, true);
  t.strictSame((await get('/blockchains')).data, [TESTCHAIN, EMPTYCHAIN, TRON], 'after the reload: block 1234 of the snapshot file');
  t.strictSame((await get('/blockchains?slug=testchain')).data, [TESTCHAIN]);

  const moved = holder.apply({
    chainId: 1001,
    blockNumber: 1240,
    blockHash: `0x${'11'.repeat(32)}`,
    parentHash: `0x${'22'.repeat(32)}`,
    blockTimestamp: 1_700_000_100,
    gasPriceWei: '1000000000',
    pools: [],
    removed: [],
  });
  t.equal(moved, true);
  const followed = { ...TESTCHAIN, snapshotBlock: 1240 };
  t.strictSame((await get('/blockchains')).data, [followed, EMPTYCHAIN, TRON], 'a followed block moves snapshotBlock');
  t.strictSame((await get('/blockchains?chainId=1001')).data, [followed]);
});

t.test('GET /blockchains: the pool-state fields sit between blockChainLogo and tokens', async (t) => {
  const res = await request('GET', '/blockchains?chainId=1002');
  t.equal(
    res.text,
    '{"code":200,"message":"blockchains fetched successfully","data":[{"name":"Empty Chain","slug":"emptychain","chainId":1002,' +
      '"symbol":"EMP","nativeToken":"Empty","ecosystem":"evm","blockExplorer":"https://empty.test","rpcUrl":"","blockChainLogo":"",' +
      '"hasPoolState":false,"snapshotBlock":null,"baseTokens":[],"baseTokensFrom":"pools","tokens":[]}]}',
  );
});

t.test('GET /blockchains/dex serves a Balancer v2 DEX with its Vault, BalancerQueries and factories (shipped catalogue)', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'dex-snapshots-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  const shipped = buildTestApp({ catalogDir: fileURLToPath(new URL('../../catalog', import.meta.url)), snapshotDir: empty });
  // catalog/ethereum.json's entry, the addresses of @balancer-labs/v2-deployments (test/catalog/addresses.test.ts).
  const balancer = {
    chainId: 1,
    name: 'Balancer V2',
    slug: 'balancer',
    version: 'balancerV2',
    v2FactoryAddress: '',
    v2RouterAddress: '',
    v3FactoryAddress: '',
    v3RouterAddress: '',
    v3QuoterAddress: '',
    v4PoolManagerAddress: '',
    v4StateViewAddress: '',
    v4QuoterAddress: '',
    v4PositionManagerAddress: '',
    allowedHooks: [],
    universalRouterAddress: '',
    permit2Address: '',
    settlementAddress: '',
    feeBps: 0,
    feeTiers: [],
    balancerVaultAddress: '0xBA12222222228d8Ba445958a75a0704d566BF2C8',
    balancerQueriesAddress: '0xE39B5e3B6D74016b2F6A9673D7d7493B6DF549d5',
    balancerWeightedPoolFactories: ['0x5Dd94Da3644DDD055fcf6B3E1aa310Bb7801EB8b'],
    balancerStablePoolFactories: ['0xdba127fBc23fb20F5929C546af220A991b5C6e01'],
  };
  t.strictSame((await shipped.request('GET', '/blockchains/dex?chainId=1&slug=balancer')).body, {
    code: 200,
    message: 'dexes fetched successfully',
    data: [balancer],
  });
});
