// seedChains against a devnet of its own: the snapshot equals direct contract reads at its block (one eth_call
// per value, no Multicall3) and the positions the NonfungiblePositionManager holds; every read is pinned to
// that block; requests stay within ceil(calls / batch size) per phase; a chain whose RPC URL points at a closed
// port fails and one without an RPC URL is skipped while the devnet is seeded (the run as a whole failed); files are replaced atomically; the gas
// price is the block's base fee plus eth_maxPriorityFeePerGas, or eth_gasPrice where the endpoint refuses that.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import t from 'tap';
import { type Address, createPublicClient, http, parseAbi, toHex } from 'viem';
import { devnetAddresses } from '../../seeds/devnet/devnetAddresses.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { freePort } from '../../seeds/devnet/startAnvil.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedRunFailure } from '../../src/chain/formatReport.ts';
import type { ChainSeedReport } from '../../src/chain/SeedOptions.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { parseSnapshot, type Snapshot } from '../../src/graph/snapshot.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import { type RpcProxy, rpcProxy } from '../helpers/rpcProxy.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool initialized)',
]);
const npmAbi = parseAbi([
  'function totalSupply() view returns (uint256)',
  'function positions(uint256) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256, uint256, uint128, uint128)',
]);

/** A recording proxy in front of anvil; `refuse` names a method it answers "method not found". */
function recordingProxy(target: string, refuse?: string): Promise<RpcProxy> {
  return rpcProxy(target, (r) => (r.method === refuse ? { code: -32601, message: `Method not found: ${refuse}` } : undefined));
}

const validateSchema = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(ROOT, 'seeds', 'snapshot.schema.json'), 'utf8')) as object,
);

t.test('seedChains: devnet seeded, dead endpoint failed, missing one skipped, snapshot equals the chain', async (t) => {
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const proxy = await recordingProxy(devnet.rpcUrl);
  t.teardown(() => proxy.close());
  const catalog = loadCatalog(join(ROOT, 'catalog'));
  const chainA = catalog.chain('devnet')!;
  const chainB = catalog.chain('devnet-b')!;
  const ethereum = catalog.chain('ethereum')!;
  const closedPort = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'seed-test-'));
  writeFileSync(join(dir, 'devnet.json'), 'old content');
  const lines: string[] = [];
  const report = await seedChains({
    chains: [chainB, chainA, ethereum],
    rpcUrls: new Map([
      [chainA.chainId, proxy.url],
      [chainB.chainId, `http://127.0.0.1:${closedPort}`],
    ]),
    snapshotDir: dir,
    retries: 1,
    backoffMs: 10,
    progress: 'lines',
    log: (l) => lines.push(l),
  });

  // Failures, skips and the report.
  t.equal(report.seeded, 1, 'one chain seeded');
  t.equal(report.failed, 1, 'one failed');
  t.equal(report.skipped, 1, 'one skipped');
  const byslug = new Map(report.chains.map((c) => [c.slug, c]));
  t.equal(byslug.get('devnet-b')!.status, 'failed', 'closed port: failed');
  t.match(byslug.get('devnet-b')!.reason, /did not answer.*ECONNREFUSED/, 'closed port: endpoint did not answer');
  t.equal(byslug.get('ethereum')!.status, 'skipped', 'no RPC URL and not named: skipped');
  t.equal(byslug.get('ethereum')!.reason, 'no RPC URL (set RPC_URL_1)', 'no RPC URL: the reason');
  t.same(
    lines.filter((l) => / (failed|skipped): /.test(l)),
    [`[devnet-b] failed: ${byslug.get('devnet-b')!.reason}`, '[ethereum] skipped: no RPC URL (set RPC_URL_1)'],
    'one log line per chain not seeded',
  );
  t.equal(seedRunFailure(report), '1 of 2 chain(s) failed: devnet-b (31338)', 'the run failed: npm run seed exits 1');
  t.same(readdirSync(dir).sort(), ['devnet.json'], 'only the seeded chain has a file; no temporary file left');

  // The file: replaced atomically, valid against the agreed schema and the server's reader.
  const text = readFileSync(join(dir, 'devnet.json'), 'utf8');
  const raw = JSON.parse(text) as unknown;
  t.ok(validateSchema(raw), 'valid against seeds/snapshot.schema.json');
  const parsed = parseSnapshot(text);
  t.type(parsed, 'object', 'src/graph parseSnapshot accepts it');
  const snap = parsed as Snapshot;
  const seeded = byslug.get('devnet')!;
  t.same(raw, seeded.snapshot, 'file content is the reported snapshot');
  t.equal(snap.chainId, 31337);
  t.equal(snap.tickWindowWords, 20, 'default tick window: 20 words each side');

  // Discovery from the factories' creation logs (the devnet catalogue gives each factory's deployment block): one
  // eth_getLogs from block 0 to the head covers the three factories, the v4 PoolManager and the Balancer Vault; no pair lookup (test/chain/discoverPools.test.ts
  // covers the logs against the chain and the pair-lookup fallback).
  t.equal(seeded.candidates, 0, 'no pair lookup');
  t.same(
    seeded.discovery.map((d) => [d.dex, d.version, d.method, d.fromBlock, d.toBlock]),
    [
      // The devnet catalogue's Balancer Vault (deployed only by startDevnet({ balancer: true }): none here, no pools).
      ['balancer', 'balancerV2', 'logs', 0, seeded.blockNumber],
      ['sushiswap', 'v2', 'logs', 0, seeded.blockNumber],
      ['uniswap', 'v2', 'logs', 0, seeded.blockNumber],
      ['uniswap', 'v3', 'logs', 0, seeded.blockNumber],
      ['uniswap', 'v4', 'logs', 0, seeded.blockNumber],
    ],
    'every DEX found from its creation logs, blocks 0 to the head',
  );
  t.equal(seeded.logRequests, proxy.log.filter((r) => r.method === 'eth_getLogs').length, 'eth_getLogs requests as the endpoint saw them');
  const expectedPools = devnetAddresses().pools;
  t.same(snap.pools.map((p) => p.address).sort(), expectedPools.map((p) => p.address).sort(), 'exactly the pools the devnet created');
  for (const p of expectedPools) {
    const s = snap.pools.find((x) => x.address === p.address)!;
    t.same([s.dex, s.version, s.token0, s.token1, s.fee], [p.dex, p.version, p.token0, p.token1, p.fee], `pool ${p.address} identity`);
  }

  // Every read pinned to the snapshot's block; request count matches what the endpoint saw.
  const blockHex = toHex(snap.blockNumber);
  const calls = proxy.log.filter((r) => r.method === 'eth_call' || r.method === 'eth_getCode');
  t.ok(calls.length > 0);
  t.ok(
    calls.every((r) => r.params[1] === blockHex),
    `every eth_call / eth_getCode names block ${snap.blockNumber}`,
  );
  t.equal(seeded.rpcRequests, proxy.log.length, `report counts ${proxy.log.length} requests, as the endpoint saw`);
  const batches = (n: number): number => Math.ceil(n / 500);
  const c = seeded.calls;
  // 4: eth_chainId, eth_getBlockByNumber, eth_maxPriorityFeePerGas, eth_getCode (Multicall3).
  t.same(
    proxy.log.slice(0, 4).map((r) => r.method),
    ['eth_chainId', 'eth_getBlockByNumber', 'eth_maxPriorityFeePerGas', 'eth_getCode'],
  );
  const bound =
    4 +
    seeded.logRequests +
    [c.routers, c.tokens, c.discovery, c.state, c.probe, c.approve, c.bitmap, c.ticks].reduce((n, x) => n + batches(x), 0);
  t.equal(seeded.rpcRequests, bound, `requests = 4 + eth_getLogs + sum of ceil(calls / 500) over the eight phases = ${bound}`);
  t.same(
    [c.tokens, c.probe, c.approve],
    [24, 7, 8],
    'decimals(), symbol() and totalSupply() of the 8 ERC-20s; one transfer probe per token with a pool (UNI has none); one approval probe per ERC-20',
  );
  t.same(seeded.excludedTokens, [], 'no token left out');
  t.equal((raw as { excludedTokens?: unknown }).excludedTokens, undefined, 'no excludedTokens key when none is');
  t.equal(
    (raw as { approvalResetTokens?: unknown }).approvalResetTokens,
    undefined,
    "no approvalResetTokens key: the devnet's ERC-20s (WETH9, OpenZeppelin-style tokens) accept a new amount over an allowance",
  );

  // Direct reads at that block, one eth_call per value.
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  const blockNumber = BigInt(snap.blockNumber);
  const block = await client.getBlock({ blockNumber });
  t.equal(snap.blockTimestamp, Number(block.timestamp), 'block timestamp');
  t.equal(snap.blockHash, block.hash, 'block hash (a follower starting from the snapshot checks the chain still has it)');
  const contracts = devnet.addresses.contracts;
  t.strictSame(
    snap.routers,
    [
      {
        dex: 'uniswap',
        version: 'v3',
        kind: 'SwapRouter02',
        address: contracts.swapRouter02,
        factory: contracts.uniswapV3Factory,
        weth9: contracts.WETH,
        factoryV2: contracts.uniswapV2Factory,
      },
    ],
    "SwapRouter02's factory(), WETH9() and factoryV2(): the contracts the devnet deployed it with",
  );
  const tip = BigInt(await client.request({ method: 'eth_maxPriorityFeePerGas' }));
  t.ok(block.baseFeePerGas! > 0n && tip > 0n, `the devnet has a base fee (${block.baseFeePerGas}) and suggests a tip (${tip})`);
  t.equal(snap.gasPriceWei, (block.baseFeePerGas! + tip).toString(), "gas price: the block's baseFeePerGas + eth_maxPriorityFeePerGas");
  // Move the chain on (tokens sent to a pool), so a read at "latest" would differ from the snapshot.
  const moved = snap.pools[0];
  await fundAccount(devnet.rpcUrl, moved.address as Address, moved.token0 as Address, 12345n);
  const latest = await client.readContract({
    address: moved.token0 as Address,
    abi: erc20,
    functionName: 'balanceOf',
    args: [moved.address as Address],
  });
  t.equal(latest, BigInt(moved.balance0) + 12345n, 'the chain has moved on since the snapshot');
  for (const p of snap.pools) {
    if (p.version === 'balancerV2') continue; // this devnet has no Balancer
    const b0 = await client.readContract({
      address: p.token0 as Address,
      abi: erc20,
      functionName: 'balanceOf',
      args: [p.address as Address],
      blockNumber,
    });
    const b1 = await client.readContract({
      address: p.token1 as Address,
      abi: erc20,
      functionName: 'balanceOf',
      args: [p.address as Address],
      blockNumber,
    });
    t.same([p.balance0, p.balance1], [b0.toString(), b1.toString()], `${p.address} balances`);
    if (p.version === 'v2') {
      const [r0, r1] = await client.readContract({ address: p.address as Address, abi: pairAbi, functionName: 'getReserves', blockNumber });
      t.same([p.reserve0, p.reserve1], [r0.toString(), r1.toString()], `${p.address} reserves`);
      continue;
    }
    const [sqrtPriceX96, tick] = await client.readContract({
      address: p.address as Address,
      abi: poolAbi,
      functionName: 'slot0',
      blockNumber,
    });
    const liquidity = await client.readContract({ address: p.address as Address, abi: poolAbi, functionName: 'liquidity', blockNumber });
    const fee = await client.readContract({ address: p.address as Address, abi: poolAbi, functionName: 'fee', blockNumber });
    const tickSpacing = await client.readContract({
      address: p.address as Address,
      abi: poolAbi,
      functionName: 'tickSpacing',
      blockNumber,
    });
    t.same(
      [p.sqrtPriceX96, p.tick, p.liquidity, p.fee, p.tickSpacing],
      [sqrtPriceX96.toString(), tick, liquidity.toString(), fee, tickSpacing],
      `${p.address} slot0, liquidity, fee, tickSpacing`,
    );
    const word = Math.floor(tick / tickSpacing) >> 8;
    const window = [
      Math.max(word - 20, Math.floor(-887272 / tickSpacing) >> 8),
      Math.min(word + 20, Math.floor(887272 / tickSpacing) >> 8),
    ];
    t.same(p.bitmapWords, window, `${p.address} bitmap window: word ${word} +- 20, clamped to the words ticks can occupy`);
    const direct: [number, string][] = [];
    for (let w = p.bitmapWords[0]; w <= p.bitmapWords[1]; w++) {
      const bits = await client.readContract({
        address: p.address as Address,
        abi: poolAbi,
        functionName: 'tickBitmap',
        args: [w],
        blockNumber,
      });
      for (let bit = 0; bit < 256; bit++) {
        if ((bits >> BigInt(bit)) & 1n) {
          const tk = (w * 256 + bit) * tickSpacing;
          const info = await client.readContract({
            address: p.address as Address,
            abi: poolAbi,
            functionName: 'ticks',
            args: [tk],
            blockNumber,
          });
          t.ok(info[7], `tick ${tk} initialized`);
          direct.push([tk, info[1].toString()]);
        }
      }
    }
    t.same(p.ticks, direct, `${p.address}: ${direct.length} initialized ticks and liquidityNet equal direct tickBitmap/ticks reads`);
  }

  // Independent of the bitmap: the positions the NonfungiblePositionManager holds give every tick and its liquidityNet.
  const npm = devnet.addresses.contracts.nonfungiblePositionManager;
  const supply = await client.readContract({ address: npm, abi: npmAbi, functionName: 'totalSupply', blockNumber });
  const fromPositions = new Map<string, Map<number, bigint>>();
  for (let id = 1n; id <= supply; id++) {
    const pos = await client.readContract({ address: npm, abi: npmAbi, functionName: 'positions', args: [id], blockNumber });
    const key = `${pos[2]}/${pos[3]}/${pos[4]}`;
    const m = fromPositions.get(key) ?? new Map<number, bigint>();
    m.set(pos[5], (m.get(pos[5]) ?? 0n) + pos[7]);
    m.set(pos[6], (m.get(pos[6]) ?? 0n) - pos[7]);
    fromPositions.set(key, m);
  }
  for (const p of snap.pools.filter((x): x is SnapshotPoolV3 => x.version === 'v3')) {
    const m = fromPositions.get(`${p.token0}/${p.token1}/${p.fee}`)!;
    const expected = [...m.entries()]
      .filter(([, net]) => net !== 0n)
      .sort((a, b) => a[0] - b[0])
      .map(([tk, net]) => [tk, net.toString()]);
    t.same(p.ticks, expected, `${p.address}: ticks = sum of position liquidity at each bound (${expected.length} ticks)`);
  }

  // A small batch bound gives the same pools with more requests: 4 + eth_getLogs + ceil(calls / 7) per phase.
  const small = await seedChains({
    chains: [chainA],
    rpcUrls: new Map([[chainA.chainId, devnet.rpcUrl]]),
    snapshotDir: dir,
    batchSize: 7,
    tickWindowWords: 0,
    write: false,
    progress: 'none',
  });
  const r: ChainSeedReport = small.chains[0];
  const b7 = (n: number): number => Math.ceil(n / 7);
  t.equal(
    r.rpcRequests,
    4 +
      r.logRequests +
      [
        r.calls.routers,
        r.calls.tokens,
        r.calls.discovery,
        r.calls.state,
        r.calls.probe,
        r.calls.approve,
        r.calls.bitmap,
        r.calls.ticks,
      ].reduce((n, x) => n + b7(x), 0),
    'requests = 4 + eth_getLogs + ceil(calls / 7) per phase',
  );
  t.equal(r.calls.bitmap, 10, 'tickWindowWords 0: one bitmap word per v3 pool (10 pools)');
  t.equal(r.snapshot!.tickWindowWords, 0);
  for (const p of r.snapshot!.pools) {
    const full = snap.pools.find((x) => x.address === p.address)!;
    if (p.version === 'balancerV2' || full.version === 'balancerV2') continue; // this devnet has no Balancer
    if (p.version === 'v2' || full.version === 'v2') {
      // Balances may differ: tokens were sent to one pool after the first run.
      t.same({ ...p, balance0: '', balance1: '' }, { ...full, balance0: '', balance1: '' }, `${p.address}: same v2 state`);
      continue;
    }
    const [lo, hi] = p.bitmapWords;
    t.equal(lo, hi);
    const inWord = full.ticks.filter(([tk]) => Math.floor(tk / full.tickSpacing) >> 8 === lo);
    t.same(p.ticks, inWord, `${p.address}: window 0 keeps only the ticks of the current word (${inWord.length})`);
  }
  t.same(readdirSync(dir).sort(), ['devnet.json'], 'write: false leaves the folder alone');

  // An endpoint that refuses eth_maxPriorityFeePerGas: the gas price is its eth_gasPrice.
  const refusing = await recordingProxy(devnet.rpcUrl, 'eth_maxPriorityFeePerGas');
  t.teardown(() => refusing.close());
  const fallback = await seedChains({
    chains: [chainA],
    rpcUrls: new Map([[chainA.chainId, refusing.url]]),
    snapshotDir: dir,
    write: false,
    progress: 'none',
  });
  t.equal(fallback.seeded, 1, 'seeded without eth_maxPriorityFeePerGas');
  t.equal(seedRunFailure(fallback), undefined, 'every chain seeded: the run succeeded');
  t.same(
    refusing.log.slice(0, 5).map((r) => r.method),
    ['eth_chainId', 'eth_getBlockByNumber', 'eth_maxPriorityFeePerGas', 'eth_gasPrice', 'eth_getCode'],
    'asked once, then eth_gasPrice',
  );
  t.equal(fallback.chains[0].snapshot!.gasPriceWei, (await client.getGasPrice()).toString(), "gas price: the endpoint's eth_gasPrice");
});

t.test('seedChains over a ws:// RPC URL alone: the same snapshot as over HTTP at the same block', async (t) => {
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const chain = loadCatalog(join(ROOT, 'catalog')).chain('devnet')!;
  const wsUrl = devnet.rpcUrl.replace(/^http/, 'ws');
  const dir = mkdtempSync(join(tmpdir(), 'seed-ws-'));
  const seed = (url: string) =>
    seedChains({ chains: [chain], rpcUrls: new Map([[chain.chainId, url]]), snapshotDir: dir, write: false, progress: 'none' });
  const overWs = await seed(wsUrl);
  t.equal(overWs.chains[0].status, 'seeded', overWs.chains[0].reason ?? `seeded over ${wsUrl}`);
  const overHttp = await seed(devnet.rpcUrl);
  const { seededAt: _a, ...ws } = overWs.chains[0].snapshot!;
  const { seededAt: _b, ...http } = overHttp.chains[0].snapshot!;
  t.equal(ws.blockNumber, http.blockNumber, 'the chain did not move between the two runs');
  t.strictSame(ws, http, 'the same snapshot, field by field');
  t.ok(overWs.chains[0].rpcRequests > 0 && overWs.chains[0].rpcRequests === overHttp.chains[0].rpcRequests, 'as many requests either way');
  const dead = await seed(`ws://127.0.0.1:${await freePort()}`);
  t.equal(dead.chains[0].status, 'failed', 'a ws:// endpoint that does not answer: failed (not retried for ever)');
  t.match(dead.chains[0].reason, /^endpoint did not answer \(eth_chainId: .*ECONNREFUSED/, 'with the reason');
});
