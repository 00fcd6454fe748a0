/**
 * `npm run bench:discovery`: requests and seconds to discover a chain's pools from its factory's creation logs
 * (src/chain/discoverPools.ts) beside the pair lookups it replaces, on a devnet given BENCH_DISCOVERY_TOKENS catalogue
 * tokens (default 500; addresses without code, the first 5 as base tokens) and BENCH_DISCOVERY_EVENTS PairCreated
 * logs (default 50,000: pairs (i, j), i < j, in row order, made by bench/lib/PairSpawner.sol through the devnet's
 * Uniswap V2 factory, BENCH_DISCOVERY_PER_TX = 400 per transaction, BENCH_DISCOVERY_GAP = 0 empty blocks mined after
 * each: anvil mines ~1,700 empty blocks a second here, so spreading the logs over a mainnet-like span is left to that
 * variable). Runs: logs from block 0 (ranges of 100,000 blocks), a second run with nothing new, and
 * pair lookups (every token against the 5 bases, 500 calls per Multicall3 request). Only discovery is timed: no
 * state is read.
 */
import { join } from 'node:path';
import { type Address, encodeDeployData, encodeFunctionData, getAddress, type Hex, toHex } from 'viem';
import { compileSolidity } from '../seeds/devnet/compileSolidity.ts';
import { jsonRpc, receiptOf } from '../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../seeds/devnet/startDevnet.ts';
import type { CatalogChain, CatalogDex } from '../src/catalog/Catalog.ts';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { type Discovered, discoverPools } from '../src/chain/discoverPools.ts';
import type { RangeLog } from '../src/chain/logRanges.ts';
import { multicallBatched } from '../src/chain/multicallBatched.ts';
import { createSeedRpc } from '../src/chain/seedRpc.ts';
import type { Snapshot } from '../src/graph/snapshot.ts';

const TOKENS = Number(process.env.BENCH_DISCOVERY_TOKENS ?? 500);
const EVENTS = Number(process.env.BENCH_DISCOVERY_EVENTS ?? 50_000);
const PER_TX = Number(process.env.BENCH_DISCOVERY_PER_TX ?? 400);
const GAP = Number(process.env.BENCH_DISCOVERY_GAP ?? 0);
const ROOT = join(import.meta.dirname, '..');

const devnet = await startDevnet();
try {
  const { deployer, contracts, multicall3 } = devnet.addresses;
  const url = devnet.rpcUrl;
  const send = async (tx: { to?: Address; data: Hex }, gas: bigint): Promise<{ contractAddress: Address | null; status: Hex }> => {
    const hash = await jsonRpc<Hex>(url, 'eth_sendTransaction', [{ from: deployer, ...tx, gas: toHex(gas) }]);
    const receipt = await receiptOf<{ contractAddress: Address | null; status: Hex }>(url, hash);
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
    return receipt;
  };
  const spawner = compileSolidity(join(ROOT, 'bench', 'lib', 'PairSpawner.sol'), 'PairSpawner');
  const spawnerAddress = (await send({ data: encodeDeployData({ abi: spawner.abi, bytecode: spawner.bytecode }) }, 1_000_000n))
    .contractAddress!;
  await jsonRpc(url, 'evm_setBlockGasLimit', [toHex(PER_TX * 3_000_000 + 1_000_000)]);

  const tokens = Array.from({ length: TOKENS }, (_, i) => getAddress(`0x${(0x1000 + i).toString(16).padStart(40, '0')}`));
  const pairs: [Address, Address][] = [];
  for (let i = 0; i < TOKENS && pairs.length < EVENTS; i++)
    for (let j = i + 1; j < TOKENS && pairs.length < EVENTS; j++) pairs.push([tokens[i], tokens[j]]);
  const made = performance.now();
  for (let k = 0; k < pairs.length; k += PER_TX) {
    const chunk = pairs.slice(k, k + PER_TX);
    const data = encodeFunctionData({
      abi: spawner.abi,
      functionName: 'spawn',
      args: [contracts.uniswapV2Factory, chunk.map((p) => p[0]), chunk.map((p) => p[1])],
    });
    await send({ to: spawnerAddress, data }, BigInt(chunk.length) * 3_000_000n);
    if (GAP > 0) await jsonRpc(url, 'anvil_mine', [toHex(GAP)]);
  }
  const head = Number(await jsonRpc<Hex>(url, 'eth_blockNumber'));
  console.log(
    `devnet: ${GAP} empty blocks after each transaction; ${pairs.length} PairCreated logs among ${TOKENS} tokens in ${Math.ceil(pairs.length / PER_TX)} transactions, ${((performance.now() - made) / 1000).toFixed(1)} s; head ${head}`,
  );

  const devnetChain = loadCatalog(join(ROOT, 'catalog')).chain('devnet')!;
  const v2 = devnetChain.dexes.find((d) => d.slug === 'uniswap' && d.version === 'v2')!;
  const chainWith = (dex: CatalogDex): CatalogChain => ({
    ...devnetChain,
    wrappedNativeToken: tokens[0],
    baseTokens: tokens.slice(0, 5),
    pairs: [],
    tokens: tokens.map((address, i) => ({
      address,
      symbol: `T${i}`,
      name: `T${i}`,
      slug: `t${i}`,
      decimals: 18,
      logo: '',
      blockchainId: 31337,
    })),
    dexes: [dex],
  });
  const { factoryDeploymentBlock: _, ...withoutBlock } = v2;
  const run = async (label: string, chain: CatalogChain, options: { previous?: Snapshot } = {}): Promise<Discovered> => {
    const rpc = createSeedRpc({ url, retries: 3, backoffMs: 250, timeoutMs: 120_000 });
    const started = performance.now();
    const found = await discoverPools({
      chain,
      head,
      usable: new Set(tokens.map((a) => a.toLowerCase())),
      previous: options.previous,
      getLogs: (method, params) => rpc.client.request({ method, params } as never) as Promise<RangeLog[]>,
      lookup: (calls) => multicallBatched(rpc.client, { multicall3, blockNumber: BigInt(head), batchSize: 500, concurrency: 4 }, calls),
      logRange: 100_000,
      maxLogRequests: 20_000,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${label.padEnd(44)} ${String(found.pools.length).padStart(7)} pools ${String(found.logRequests).padStart(6)} eth_getLogs ${String(found.candidates).padStart(6)} lookups ${String(rpc.requests()).padStart(6)} requests ${seconds.toFixed(2).padStart(7)} s`,
    );
    return found;
  };
  const logs = await run('creation logs, ranges of 100,000 blocks', chainWith(v2));
  const previous: Snapshot = {
    formatVersion: 1,
    chainId: 31337,
    blockNumber: head,
    blockTimestamp: 0,
    seededAt: '',
    tickWindowWords: 0,
    pools: [],
    discovery: { ...logs.coverage!, unlisted: logs.logPools.map((p) => ({ ...p, version: 'v2' as const })) },
  };
  await run('creation logs, second run (nothing new)', chainWith(v2), { previous });
  await run('pair lookups (token x 5 bases), today', chainWith(withoutBlock as CatalogDex));
} finally {
  await devnet.stop();
}
