import { type Address, encodeDeployData, encodeFunctionData, getContractAddress, type Hex, parseAbi, toHex } from 'viem';
import { devnetArtifact } from '../../seeds/devnet/artifacts.ts';
import { devnetAddresses, sortTokens, v2PairAddress, v3PoolAddress } from '../../seeds/devnet/devnetAddresses.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import type { CatalogChain, CatalogToken } from '../../src/catalog/Catalog.ts';

const abi = parseAbi([
  'function mint(address to, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function createPair(address tokenA, address tokenB) returns (address pair)',
  'function mint(address to) returns (uint256 liquidity)',
  'function createPool(address tokenA, address tokenB, uint24 fee) returns (address pool)',
  'function initialize(uint160 sqrtPriceX96)',
]);

/** Generated tokens on a running devnet, as catalogue tokens, and the pools made for them. */
export interface BenchTokens {
  readonly tokens: readonly CatalogToken[];
  readonly v2Pairs: number;
  readonly v3Pools: number;
  readonly txCount: number;
  readonly ms: number;
}

/**
 * Deploys `count` MintableERC20 tokens (18 decimals, symbols G0, G1, ...) onto a devnet after its standard deployment,
 * each with a Uniswap V2 pair with liquidity against one of the devnet's base tokens (WETH, USDC, USDT, DAI, WBTC in
 * turn); every `v3Every`-th token also gets an initialized Uniswap V3 pool (0.3%, no positions) against the next
 * base. Real contracts, so the seeding run's decimals()/symbol() checks and transfer probes pass.
 */
export async function deployBenchTokens(rpcUrl: string, count: number, v3Every = 4): Promise<BenchTokens> {
  const started = performance.now();
  const { deployer, contracts: c, tokens: t, pairInitCodeHash, poolInitCodeHash } = devnetAddresses();
  const mintable = devnetArtifact('MintableERC20');
  const bases: { address: Address; decimals: number }[] = [
    { address: t.WETH, decimals: 18 },
    { address: t.USDC, decimals: 6 },
    { address: t.USDT, decimals: 6 },
    { address: t.DAI, decimals: 18 },
    { address: t.WBTC, decimals: 8 },
  ];
  // Transactions go out as JSON-RPC batches (one HTTP request per token) with explicit nonces; every receipt is
  // checked at the end.
  let nonce = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
  const hashes: Hex[] = [];
  const tokens: CatalogToken[] = [];
  let v3Pools = 0;
  for (let i = 0; i < count; i++) {
    const txs: { to?: Address; data: Hex }[] = [];
    const address = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
    txs.push({ data: encodeDeployData({ abi: mintable.abi, bytecode: mintable.bytecode, args: [`Generated ${i}`, `G${i}`, 18] }) });
    tokens.push({ address, symbol: `G${i}`, name: `Generated ${i}`, slug: `g${i}`, decimals: 18, logo: '', blockchainId: 31337 });
    const base = bases[i % bases.length];
    const pair = v2PairAddress(c.uniswapV2Factory, address, base.address, pairInitCodeHash);
    const baseAmount = 10n ** BigInt(base.decimals + 3);
    txs.push(
      { to: c.uniswapV2Factory, data: encodeFunctionData({ abi, functionName: 'createPair', args: [address, base.address] }) },
      { to: address, data: encodeFunctionData({ abi, functionName: 'mint', args: [pair, 10n ** 24n] }) },
      {
        to: base.address,
        data:
          base.address === t.WETH
            ? encodeFunctionData({ abi, functionName: 'transfer', args: [pair, baseAmount] })
            : encodeFunctionData({ abi, functionName: 'mint', args: [pair, baseAmount] }),
      },
      { to: pair, data: encodeFunctionData({ abi, functionName: 'mint', args: [deployer] }) },
    );
    if (i % v3Every === 0) {
      const [a, b] = sortTokens(address, bases[(i + 1) % bases.length].address);
      txs.push(
        { to: c.uniswapV3Factory, data: encodeFunctionData({ abi, functionName: 'createPool', args: [a, b, 3000] }) },
        {
          to: v3PoolAddress(c.uniswapV3Factory, a, b, 3000, poolInitCodeHash),
          data: encodeFunctionData({ abi, functionName: 'initialize', args: [2n ** 96n] }),
        },
      );
      v3Pools++;
    }
    const batch = txs.map((tx) => ({ from: deployer, ...tx, gas: toHex(6_000_000n), nonce: toHex(nonce++) }));
    hashes.push(
      ...(await jsonRpcBatch<Hex>(
        rpcUrl,
        batch.map((tx) => ['eth_sendTransaction', [tx]]),
      )),
    );
    // Wait until anvil has mined this token's transactions (its nonce catches up) before the next batch.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const mined = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
      if (mined >= nonce) break;
      if (Date.now() > deadline) throw new Error(`deployBenchTokens: G${i}: nonce ${mined} mined, ${nonce} sent, after 60 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  for (let i = 0; i < hashes.length; i += 200) {
    const chunk = hashes.slice(i, i + 200).map((h) => ['eth_getTransactionReceipt', [h]] as const);
    let receipts = await jsonRpcBatch<{ status: Hex } | null>(rpcUrl, chunk);
    for (let tries = 0; receipts.includes(null) && tries < 500; tries++) {
      await new Promise((r) => setTimeout(r, 20));
      receipts = await jsonRpcBatch<{ status: Hex } | null>(rpcUrl, chunk);
    }
    receipts.forEach((r, k) => {
      if (r?.status !== '0x1') throw new Error(`deployBenchTokens: transaction ${hashes[i + k]} ${r ? 'reverted' : 'has no receipt'}`);
    });
  }
  return { tokens, v2Pairs: count, v3Pools, txCount: hashes.length, ms: performance.now() - started };
}

/** Sends JSON-RPC calls as one batch request; results in order, throwing on the first error. */
async function jsonRpcBatch<T>(url: string, calls: readonly (readonly [string, readonly unknown[]])[]): Promise<T[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }))),
  });
  const replies = (await res.json()) as { id: number; result?: T; error?: { message: string } }[];
  return replies
    .sort((a, b) => a.id - b.id)
    .map((r) => {
      if (r.error) throw new Error(`${calls[r.id][0]}: ${r.error.message}`);
      return r.result as T;
    });
}

/** A catalogue chain with `extra` tokens added and the given base tokens (addresses). */
export function withTokens(
  chain: CatalogChain,
  extra: readonly CatalogToken[],
  baseTokens: readonly string[] = chain.baseTokens,
): CatalogChain {
  return { ...chain, tokens: [...chain.tokens, ...extra], baseTokens };
}
