// Discovery from the factories' creation logs against a devnet of its own: the seeding run finds exactly the pools
// on chain whose two tokens are catalogued (the oracle: the v2 factories' allPairs and the v3 factory's getPool over
// every catalogued pair and fee tier, one eth_call each), non-base pairs included, with no `pairs` in the chain file;
// a second run scans only the blocks after the first; an endpoint that refuses old logs gets pair lookups instead,
// one that serves only small ranges gets them halved, and one whose ranges would take too many requests falls back.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseAbi,
  stringToHex,
  toHex,
  zeroAddress,
} from 'viem';
import { balancerDevnetAddresses } from '../../seeds/devnet/deployBalancer.ts';
import { v4DevnetAddresses } from '../../seeds/devnet/deployUniswapV4.ts';
import { devnetAddresses } from '../../seeds/devnet/devnetAddresses.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc, receiptOf } from '../../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import type { SeedOptions } from '../../src/chain/SeedOptions.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { rpcProxy } from '../helpers/rpcProxy.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const v2Factory = parseAbi([
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function allPairsLength() view returns (uint256)',
  'function allPairs(uint256) view returns (address)',
]);
const v2Pair = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function mint(address to) returns (uint256 liquidity)',
]);
const v3Factory = parseAbi(['function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)']);

interface Identity {
  address: string;
  dex: string;
  version: string;
  token0: string;
  token1: string;
  fee: number;
}
const byAddress = (a: Identity, b: Identity): number => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1);
const ident = ({ address, dex, version, token0, token1, fee }: Identity): Identity => ({
  address: getAddress(address),
  dex,
  version,
  token0: getAddress(token0),
  token1: getAddress(token1),
  fee,
});

t.test('discovery from creation logs: exactly the pools on chain, incremental, and the pair-lookup fallback', async (t) => {
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const url = devnet.rpcUrl;
  const client = createPublicClient({ transport: http(url) });
  const { tokens, contracts, deployer } = devnetAddresses();
  const send = async (to: Address, data: Hex): Promise<void> => {
    const hash = await jsonRpc<Hex>(url, 'eth_sendTransaction', [{ from: deployer, to, data, gas: toHex(5_000_000n) }]);
    const receipt = await receiptOf<{ status: Hex }>(url, hash);
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
  };
  /** A v2 pair created through the factory and given liquidity (both tokens minted into it, then mint()). */
  const pairWithLiquidity = async (factory: Address, a: Address, b: Address): Promise<Address> => {
    await send(factory, encodeFunctionData({ abi: v2Factory, functionName: 'createPair', args: [a, b] }));
    const pair = await client.readContract({ address: factory, abi: v2Factory, functionName: 'getPair', args: [a, b] });
    await fundAccount(url, pair, a, 10n ** 21n);
    await fundAccount(url, pair, b, 10n ** 21n);
    await send(pair, encodeFunctionData({ abi: v2Pair, functionName: 'mint', args: [deployer] }));
    return pair;
  };

  // The chain file without its explicit pairs: AAVE/LINK and LINK/UNI have no base token, pair lookups miss them.
  const catalog = loadCatalog(join(ROOT, 'catalog'));
  const chain: CatalogChain = { ...catalog.chain('devnet')!, pairs: [] };
  const catalogued = [...new Set(chain.tokens.map((x) => (x.address.toLowerCase() === NATIVE ? chain.wrappedNativeToken : x.address)))];
  const linkUni = await pairWithLiquidity(contracts.uniswapV2Factory, tokens.LINK, tokens.UNI);
  // A pair with a token the catalogue does not list: on chain, never discovered.
  const stranger = getAddress('0x00000000000000000000000000000000000c0ffe');
  await send(contracts.uniswapV2Factory, encodeFunctionData({ abi: v2Factory, functionName: 'createPair', args: [tokens.LINK, stranger] }));
  const strangerPair = await client.readContract({
    address: contracts.uniswapV2Factory,
    abi: v2Factory,
    functionName: 'getPair',
    args: [tokens.LINK, stranger],
  });

  /** The oracle: every pool on chain of the chain file's DEXes with both tokens catalogued, read one eth_call at a time. */
  const onChain = async (): Promise<Identity[]> => {
    const out: Identity[] = [];
    const listed = new Set(catalogued.map((a) => a.toLowerCase()));
    for (const dex of chain.dexes) {
      if (dex.version === 'v2') {
        const factory = dex.v2FactoryAddress as Address;
        const n = await client.readContract({ address: factory, abi: v2Factory, functionName: 'allPairsLength' });
        for (let i = 0n; i < n; i++) {
          const address = await client.readContract({ address: factory, abi: v2Factory, functionName: 'allPairs', args: [i] });
          const token0 = await client.readContract({ address, abi: v2Pair, functionName: 'token0' });
          const token1 = await client.readContract({ address, abi: v2Pair, functionName: 'token1' });
          if (listed.has(token0.toLowerCase()) && listed.has(token1.toLowerCase()))
            out.push({ address, dex: dex.slug, version: 'v2', token0, token1, fee: dex.feeBps * 100 });
        }
        continue;
      }
      for (let i = 0; i < catalogued.length; i++)
        for (let j = i + 1; j < catalogued.length; j++) {
          const [token0, token1] = [catalogued[i], catalogued[j]].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
          for (const fee of dex.feeTiers) {
            const address = await client.readContract({
              address: dex.v3FactoryAddress as Address,
              abi: v3Factory,
              functionName: 'getPool',
              args: [token0 as Address, token1 as Address, fee],
            });
            if (address !== zeroAddress) out.push({ address, dex: dex.slug, version: 'v3', token0, token1, fee });
          }
        }
    }
    return out.map(ident).sort(byAddress);
  };

  const seed = async (rpcUrl: string, snapshotDir: string, extra: Partial<SeedOptions> = {}) => {
    const report = await seedChains({
      chains: [chain],
      rpcUrls: new Map([[chain.chainId, rpcUrl]]),
      snapshotDir,
      progress: 'none',
      ...extra,
    });
    t.equal(report.seeded, 1, 'seeded');
    return report.chains[0];
  };
  const known = (r: Awaited<ReturnType<typeof seed>>): Identity[] =>
    [...r.snapshot!.pools, ...(r.snapshot!.discovery?.unlisted ?? [])].map(ident).sort(byAddress);

  // 1. A first run: one scan from block 0 to the head; exactly the catalogued pools on chain.
  const dir = mkdtempSync(join(tmpdir(), 'discover-test-'));
  const proxy = await rpcProxy(url);
  t.teardown(() => proxy.close());
  const first = await seed(proxy.url, dir);
  const expected = await onChain();
  t.same(known(first), expected, `exactly the ${expected.length} pools on chain with both tokens catalogued`);
  const addresses = new Set(known(first).map((p) => p.address));
  t.ok(addresses.has(linkUni), 'LINK/UNI (no base token) found');
  const aaveLink = devnetAddresses().pools.find((p) => new Set([p.token0, p.token1]).has(tokens.AAVE))!.address;
  t.ok(addresses.has(aaveLink), 'AAVE/LINK (no base token, not listed in `pairs`) found');
  t.notOk(addresses.has(strangerPair), 'LINK/uncatalogued token pair not kept');
  t.equal(first.candidates, 0, 'no pair lookup');
  const gets = proxy.log.filter((r) => r.method === 'eth_getLogs');
  t.same(
    gets.map((r) => r.params[0]),
    [
      {
        address: [
          balancerDevnetAddresses().contracts.vault,
          contracts.sushiswapV2Factory,
          contracts.uniswapV2Factory,
          contracts.uniswapV3Factory,
          v4DevnetAddresses().contracts.poolManager,
        ].map((a) => a.toLowerCase()),
        topics: [
          [
            keccak256(stringToHex('TokensRegistered(bytes32,address[],address[])')),
            keccak256(stringToHex('PairCreated(address,address,address,uint256)')),
            keccak256(stringToHex('PoolCreated(address,address,uint24,int24,address)')),
            keccak256(stringToHex('Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)')),
          ],
        ],
        fromBlock: '0x0',
        toBlock: toHex(first.blockNumber!),
      },
    ],
    'one eth_getLogs over the Balancer Vault, the three factories and the v4 PoolManager (the catalogue names them; this devnet has neither), every creation topic, blocks 0 to the head',
  );
  t.equal(first.logRequests, 1);
  t.same(
    first.discovery.map((d) => [d.dex, d.version, d.method, d.fromBlock, d.toBlock, d.pools]),
    [
      ['balancer', 'balancerV2', 'logs', 0, first.blockNumber, 0],
      ['sushiswap', 'v2', 'logs', 0, first.blockNumber, expected.filter((p) => p.dex === 'sushiswap').length],
      ['uniswap', 'v2', 'logs', 0, first.blockNumber, expected.filter((p) => p.dex === 'uniswap' && p.version === 'v2').length],
      ['uniswap', 'v3', 'logs', 0, first.blockNumber, expected.filter((p) => p.version === 'v3').length],
      ['uniswap', 'v4', 'logs', 0, first.blockNumber, 0],
    ],
    'the report: every DEX from logs, its blocks and pools',
  );
  const digest = keccak256(
    stringToHex(
      catalogued
        .map((a) => a.toLowerCase())
        .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
        .join(','),
    ),
  );
  t.same(
    { ...first.snapshot!.discovery, unlisted: [] },
    {
      tokens: digest,
      scanned: first.discovery.map((d) => ({ dex: d.dex, version: d.version, factory: d.factory, toBlock: first.blockNumber })),
      unlisted: [],
    },
    'the snapshot records the catalogue tokens and the last block scanned per factory',
  );

  // 2. New traffic, then a second run into the same folder: only the blocks after the first run are scanned, and the
  // 64 before them again (a pool created in a block a reorg replaced is not missed).
  const uniAave = await pairWithLiquidity(contracts.sushiswapV2Factory, tokens.UNI, tokens.AAVE);
  const before = proxy.log.length;
  const second = await seed(proxy.url, dir);
  const after = await onChain();
  t.same(known(second), after, `again exactly the ${after.length} pools on chain`);
  t.ok(new Set(known(second).map((p) => p.address)).has(uniAave), 'the new UNI/AAVE pair found');
  const secondGets = proxy.log.slice(before).filter((r) => r.method === 'eth_getLogs');
  t.same(
    secondGets.map((r) => {
      const f = r.params[0] as { fromBlock: string; toBlock: string };
      return [f.fromBlock, f.toBlock];
    }),
    [[toHex(first.blockNumber! + 1 - 64), toHex(second.blockNumber!)]],
    'one eth_getLogs from 64 blocks before the last block the first run scanned to the new head',
  );
  t.same(
    second.discovery.map((d) => [d.dex, d.version, d.fromBlock, d.newPools]),
    [
      ['balancer', 'balancerV2', first.blockNumber! + 1 - 64, 0],
      ['sushiswap', 'v2', first.blockNumber! + 1 - 64, 1],
      ['uniswap', 'v2', first.blockNumber! + 1 - 64, 0],
      ['uniswap', 'v3', first.blockNumber! + 1 - 64, 0],
      ['uniswap', 'v4', first.blockNumber! + 1 - 64, 0],
    ],
    'the report: the new blocks and the one new pool',
  );

  // 3. An endpoint without log history: pair lookups, as before creation logs (the base-token pairs only).
  const pruned = await rpcProxy(url, async (r) => {
    if (r.method !== 'eth_getLogs') return undefined;
    const head = Number(await jsonRpc<Hex>(url, 'eth_blockNumber'));
    const from = Number((r.params[0] as { fromBlock: string }).fromBlock);
    return from < head - 8 ? { code: -32000, message: `history pruned: logs before block ${head - 8} are not served` } : undefined;
  });
  t.teardown(() => pruned.close());
  const fallback = await seed(pruned.url, mkdtempSync(join(tmpdir(), 'discover-test-')));
  const bases = new Set(chain.baseTokens.map((a) => a.toLowerCase()));
  const withBase = after.filter((p) => bases.has(p.token0.toLowerCase()) || bases.has(p.token1.toLowerCase()));
  t.same(known(fallback), withBase, `pair lookups: the ${withBase.length} pools with a base token`);
  // 8 ERC-20s, 5 of them bases: C(5,2) + 3 x 5 = 25 pairs x (2 v2 DEXes + 4 v3 fee tiers).
  t.equal(fallback.candidates, 150, '150 pair lookups');
  t.same(
    fallback.discovery.map((d) => [d.dex, d.version, d.method, d.reason]),
    // v4 and Balancer too, though they have no pair lookup (a poolId needs the whole PoolKey, or the Vault's
    // registration): their pools wait for logs.
    ['balancer/balancerV2', 'sushiswap/v2', 'uniswap/v2', 'uniswap/v3', 'uniswap/v4'].map((k) => [
      ...k.split('/'),
      'pairs',
      `eth_getLogs refused (eth_getLogs: history pruned: logs before block ${fallback.blockNumber! - 8} are not served)`,
    ]),
    'the report says why each DEX was found by pair lookups',
  );
  t.equal(fallback.snapshot!.discovery, undefined, 'no discovery record when no DEX used logs');

  // 3b. The same endpoint seeding the folder of the two log runs: pair lookups, and the pools the earlier scans found
  // are kept (non-base pairs included), as is what those scans covered, so a run with the logs resumes from there.
  const kept = await seed(pruned.url, dir);
  t.same(known(kept), after, `all ${after.length} pools on chain, LINK/UNI and UNI/AAVE included`);
  const ofDex = (dex: string, version: string) => after.filter((p) => p.dex === dex && p.version === version).length;
  t.same(
    kept.discovery.map((d) => [d.dex, d.version, d.method, d.pools, d.carried]),
    [
      // No Balancer or v4 pools on this devnet: none found, none kept.
      ['balancer', 'balancerV2', 'pairs', 0, undefined],
      ['sushiswap', 'v2', 'pairs', ofDex('sushiswap', 'v2'), ofDex('sushiswap', 'v2')],
      ['uniswap', 'v2', 'pairs', ofDex('uniswap', 'v2'), ofDex('uniswap', 'v2')],
      ['uniswap', 'v3', 'pairs', ofDex('uniswap', 'v3'), ofDex('uniswap', 'v3')],
      ['uniswap', 'v4', 'pairs', 0, undefined],
    ],
    'the report: pair lookups, and the pools kept from the earlier scans',
  );
  t.same(kept.snapshot!.discovery!.scanned, second.snapshot!.discovery!.scanned, 'the blocks the earlier scans covered are kept');

  // 4. An endpoint that serves 16 blocks at most: the range is halved until it is served; the same pools.
  const small = await rpcProxy(url, (r) => {
    if (r.method !== 'eth_getLogs') return undefined;
    const f = r.params[0] as { fromBlock: string; toBlock: string };
    return Number(f.toBlock) - Number(f.fromBlock) + 1 > 16 ? { code: -32602, message: 'block range too large (max 16)' } : undefined;
  });
  t.teardown(() => small.close());
  const halved = await seed(small.url, mkdtempSync(join(tmpdir(), 'discover-test-')));
  t.same(known(halved), await onChain(), 'halved ranges: the same pools');
  const served = small.log
    .filter((r) => r.method === 'eth_getLogs')
    .map((r) => r.params[0] as { fromBlock: string; toBlock: string })
    .filter((f) => Number(f.toBlock) - Number(f.fromBlock) < 16);
  t.equal(
    served.reduce((n, f) => n + Number(f.toBlock) - Number(f.fromBlock) + 1, 0),
    halved.blockNumber! + 1,
    'the served ranges cover blocks 0 to the head once',
  );
  t.equal(halved.logRequests, small.log.filter((r) => r.method === 'eth_getLogs').length, 'every eth_getLogs counted');

  // 5. The same endpoint with a budget of 5 requests: the scan gives way to pair lookups.
  const budget = await seed(small.url, mkdtempSync(join(tmpdir(), 'discover-test-')), { maxLogRequests: 5 });
  t.same(known(budget), withBase, 'pair lookups: the pools with a base token');
  t.match(
    budget.discovery[0].reason,
    /^eth_getLogs refused \(the endpoint serves eth_getLogs over \d+ blocks at most: blocks \d+\.\.\d+ would take more than 5 requests\)$/,
  );
});
