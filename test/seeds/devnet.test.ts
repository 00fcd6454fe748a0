// startDevnet / deployDevnet / fundAccount / the devnet catalogue files, checked against the chain itself:
// code at every address, the routers' embedded init code hashes, factory lookups, token decimals, prices,
// positions, fee tiers, and the no-pool pairs.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, getAddress, http, keccak256, parseAbi, zeroAddress, type Address } from 'viem';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { devnetArtifact } from '../../seeds/devnet/artifacts.ts';
import { devnetAddresses, NATIVE_TOKEN_ADDRESS, sortTokens } from '../../seeds/devnet/devnetAddresses.ts';
import { devnetCatalog } from '../../seeds/devnet/devnetCatalog.ts';
import { DEVNET_V3_POOLS } from '../../seeds/devnet/devnetPlan.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const erc20 = parseAbi(['function decimals() view returns (uint8)', 'function balanceOf(address) view returns (uint256)']);
const v2Factory = parseAbi(['function getPair(address, address) view returns (address)']);
const v2Pair = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);
const v2Router = parseAbi([
  'function factory() view returns (address)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
]);
const v3Factory = parseAbi(['function getPool(address, address, uint24) view returns (address)', 'function feeAmountTickSpacing(uint24) view returns (int24)']);
const npm = parseAbi(['function balanceOf(address) view returns (uint256)']);
const quoterV2 = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);

t.test('startDevnet deploys the real artifacts at the deterministic addresses', async (t) => {
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  const a = devnet.addresses;
  t.equal(await client.getChainId(), 31337, 'chain id defaults to 31337');
  t.same(a, devnetAddresses(), 'addresses are the precomputed deterministic ones');
  t.equal(a.deployer, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', "deployer is anvil's account 0");
  t.equal(devnet.accounts[0]!.privateKey, '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', "anvil's well-known key 0");

  for (const [name, address] of Object.entries(a.contracts)) {
    const code = await client.getCode({ address });
    t.ok(code && code.length > 2, `${name} has code at ${address}`);
  }
  t.ok(((await client.getCode({ address: a.multicall3 })) ?? '0x').length > 2, 'Multicall3 at its canonical address');
  const [block] = await client.multicall({ contracts: [{ address: a.tokens.USDC, abi: erc20, functionName: 'decimals' }], allowFailure: false, multicallAddress: a.multicall3 });
  t.equal(block, 6, "viem's multicall works through the canonical Multicall3");

  const decimals: Record<string, number> = { WETH: 18, USDC: 6, USDT: 6, WBTC: 8, DAI: 18, UNI: 18 };
  for (const [symbol, d] of Object.entries(decimals)) {
    t.equal(await client.readContract({ address: a.tokens[symbol as keyof typeof a.tokens], abi: erc20, functionName: 'decimals' }), d, `${symbol} has ${d} decimals`);
  }

  // Init code hashes: the routers were compiled with the mainnet hash; it equals keccak256 of the published pair/pool creation code.
  const pairHash = keccak256(devnetArtifact('UniswapV2Pair').bytecode);
  const poolHash = keccak256(devnetArtifact('UniswapV3Pool').bytecode);
  t.equal(pairHash, '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f', 'pair init code hash is the mainnet value');
  t.equal(poolHash, '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54', 'pool init code hash is the mainnet value');
  for (const name of ['uniswapV2Router02', 'sushiswapV2Router02', 'swapRouter02'] as const) {
    const code = (await client.getCode({ address: a.contracts[name] }))!.toLowerCase();
    t.ok(code.includes(pairHash.slice(2)), `${name} embeds keccak256(UniswapV2Pair creation code)`);
  }
  for (const name of ['swapRouter', 'swapRouter02', 'quoterV2', 'nonfungiblePositionManager'] as const) {
    const code = (await client.getCode({ address: a.contracts[name] }))!.toLowerCase();
    t.ok(code.includes(poolHash.slice(2)), `${name} embeds keccak256(UniswapV3Pool creation code)`);
  }
  t.equal(await client.readContract({ address: a.contracts.uniswapV2Router02, abi: v2Router, functionName: 'factory' }), a.contracts.uniswapV2Factory);
  t.equal(await client.readContract({ address: a.contracts.sushiswapV2Router02, abi: v2Router, functionName: 'factory' }), a.contracts.sushiswapV2Factory);

  // Pools exist where the plan says (factory lookups), at the CREATE2 addresses.
  for (const p of a.pools) {
    const got =
      p.version === 'v2'
        ? await client.readContract({
            address: p.dex === 'uniswap' ? a.contracts.uniswapV2Factory : a.contracts.sushiswapV2Factory,
            abi: v2Factory,
            functionName: 'getPair',
            args: [p.token1, p.token0],
          })
        : await client.readContract({ address: a.contracts.uniswapV3Factory, abi: v3Factory, functionName: 'getPool', args: [p.token1, p.token0, p.fee] });
    t.equal(got, p.address, `${p.dex} ${p.version} ${p.fee} pool at its CREATE2 address`);
  }
  const fees = new Set(a.pools.filter((p) => p.version === 'v3').map((p) => p.fee));
  t.same([...fees].sort((x, y) => x - y), [100, 500, 3000, 10000], 'v3 pools at every fee tier');
  t.equal(await client.readContract({ address: a.contracts.uniswapV3Factory, abi: v3Factory, functionName: 'feeAmountTickSpacing', args: [100] }), 1, 'fee tier 100 enabled');

  // Pairs with no pool: WBTC/DAI everywhere, and UNI with anything.
  const noPool: [Address, Address][] = [[a.tokens.WBTC, a.tokens.DAI], ...(['WETH', 'USDC', 'DAI'] as const).map((s): [Address, Address] => [a.tokens.UNI, a.tokens[s]])];
  for (const [x, y] of noPool) {
    for (const f of [a.contracts.uniswapV2Factory, a.contracts.sushiswapV2Factory]) {
      t.equal(await client.readContract({ address: f, abi: v2Factory, functionName: 'getPair', args: [x, y] }), zeroAddress);
    }
    for (const fee of [100, 500, 3000, 10000]) {
      t.equal(await client.readContract({ address: a.contracts.uniswapV3Factory, abi: v3Factory, functionName: 'getPool', args: [x, y, fee] }), zeroAddress);
    }
  }

  // WETH/USDC on both v2 and v3; realistic prices with the right decimals.
  const [wethUsdcV2] = a.pools.filter((p) => p.version === 'v2' && p.dex === 'uniswap' && p.token0 === sortTokens(a.tokens.WETH, a.tokens.USDC)[0] && p.token1 === sortTokens(a.tokens.WETH, a.tokens.USDC)[1]);
  t.ok(wethUsdcV2, 'WETH/USDC exists on Uniswap v2');
  t.ok(a.pools.some((p) => p.version === 'v3' && p.token0 === wethUsdcV2!.token0 && p.token1 === wethUsdcV2!.token1), 'and on v3');
  const oneEth = await client.readContract({ address: a.contracts.uniswapV2Router02, abi: v2Router, functionName: 'getAmountsOut', args: [10n ** 18n, [a.tokens.WETH, a.tokens.USDC]] });
  t.ok(oneEth[1]! > 2_950n * 10n ** 6n && oneEth[1]! < 3_000n * 10n ** 6n, `1 WETH -> ${oneEth[1]} USDC units on Uniswap v2 (~3000 USDC less 0.3%)`);
  const oneBtc = await client.readContract({ address: a.contracts.uniswapV2Router02, abi: v2Router, functionName: 'getAmountsOut', args: [10n ** 6n, [a.tokens.WBTC, a.tokens.USDC]] });
  t.ok(oneBtc[1]! > 590n * 10n ** 6n && oneBtc[1]! < 600n * 10n ** 6n, `0.01 WBTC -> ${oneBtc[1]} USDC units (~600 USDC: BTC ~60000)`);
  // getAmountsOut equals the constant-product formula on the pair's reserves (so pairFor found the pair).
  const [r0, r1] = await client.readContract({ address: wethUsdcV2!.address, abi: v2Pair, functionName: 'getReserves' });
  const [rIn, rOut] = wethUsdcV2!.token0 === a.tokens.WETH ? [r0, r1] : [r1, r0];
  t.equal(oneEth[1], (10n ** 18n * 997n * rOut) / (rIn * 1000n + 10n ** 18n * 997n), 'router getAmountsOut reads the factory-created pair');

  // Positions and ticks: every v3 pool has several positions, and a large swap crosses several initialized ticks.
  const positions = DEVNET_V3_POOLS.reduce((n, p) => n + p.positions.length, 0);
  t.equal(await client.readContract({ address: a.contracts.nonfungiblePositionManager, abi: npm, functionName: 'balanceOf', args: [a.deployer] }), BigInt(positions), `${positions} v3 positions minted`);
  for (const p of a.pools.filter((x) => x.version === 'v3')) {
    const balance0 = await client.readContract({ address: p.token0, abi: erc20, functionName: 'balanceOf', args: [p.address] });
    const { result } = await client.simulateContract({
      address: a.contracts.quoterV2,
      abi: quoterV2,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn: p.token0, tokenOut: p.token1, amountIn: balance0, fee: p.fee, sqrtPriceLimitX96: 0n }],
    });
    t.ok(result[2] >= 4, `v3 ${p.fee} pool ${p.address}: selling its token0 balance crosses ${result[2]} initialized ticks`);
  }

  // A taken port is refused.
  await t.rejects(startDevnet({ port: devnet.port }), /taken/, 'startDevnet refuses a port in use');

  // fundAccount: native ETH, WETH and minted tokens.
  const who = devnet.accounts[7]!.address;
  const before = await client.getBalance({ address: who });
  await fundAccount(devnet.rpcUrl, who, NATIVE_TOKEN_ADDRESS, 5n * 10n ** 18n);
  t.equal(await client.getBalance({ address: who }), before + 5n * 10n ** 18n, 'fundAccount adds native ETH');
  for (const [symbol, amount] of [['WETH', 3n * 10n ** 18n], ['USDC', 12_345n * 10n ** 6n], ['WBTC', 2n * 10n ** 8n], ['UNI', 7n]] as const) {
    const address = a.tokens[symbol];
    const b0 = await client.readContract({ address, abi: erc20, functionName: 'balanceOf', args: [who] });
    await fundAccount(devnet.rpcUrl, who, address, amount);
    t.equal(await client.readContract({ address, abi: erc20, functionName: 'balanceOf', args: [who] }), b0 + amount, `fundAccount gives ${symbol}`);
  }
  await t.rejects(fundAccount(devnet.rpcUrl, who, '0x000000000000000000000000000000000000dEaD', 1n), /not a devnet token/);

  const pid = devnet.pid;
  await devnet.stop();
  t.throws(() => process.kill(pid, 0), 'anvil process is gone after stop()');
});

t.test('a second instance with chain id 31338 has the same addresses', async (t) => {
  const devnet = await startDevnet({ chainId: 31338 });
  t.teardown(() => devnet.stop());
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  t.equal(await client.getChainId(), 31338);
  t.same(devnet.addresses, devnetAddresses());
  for (const p of devnet.addresses.pools) {
    t.ok(((await client.getCode({ address: p.address })) ?? '0x').length > 2, `pool ${p.address} deployed`);
  }
});

t.test('catalog/devnet.json and devnet-b.json match the deployment', async (t) => {
  const a = devnetAddresses();
  for (const variant of ['devnet', 'devnet-b'] as const) {
    const file = JSON.parse(readFileSync(join(ROOT, 'catalog', `${variant}.json`), 'utf8')) as unknown;
    t.same(file, devnetCatalog(variant), `catalog/${variant}.json is what seeds/devnet/writeCatalog.ts generates`);
  }
  const catalog = loadCatalog(join(ROOT, 'catalog'));
  const devnet = catalog.chain('devnet')!;
  const devnetB = catalog.chain('devnet-b')!;
  t.equal(devnet.chainId, 31337);
  t.equal(devnetB.chainId, 31338);
  for (const chain of [devnet, devnetB]) {
    t.equal(chain.ecosystem, 'evm');
    t.equal(chain.wrappedNativeToken, a.tokens.WETH);
    t.equal(chain.multicall3Address, a.multicall3);
    t.ok(chain.tokens.some((tok) => tok.address.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase() && tok.decimals === 18), 'native ETH listed');
    const v2 = chain.dexes.find((d) => d.slug === 'uniswap' && d.version === 'v2')!;
    const sushi = chain.dexes.find((d) => d.slug === 'sushiswap' && d.version === 'v2')!;
    const v3 = chain.dexes.find((d) => d.slug === 'uniswap' && d.version === 'v3')!;
    t.equal(getAddress(v2.v2FactoryAddress), a.contracts.uniswapV2Factory);
    t.equal(getAddress(v2.v2RouterAddress), a.contracts.uniswapV2Router02);
    t.equal(getAddress(sushi.v2FactoryAddress), a.contracts.sushiswapV2Factory);
    t.equal(getAddress(sushi.v2RouterAddress), a.contracts.sushiswapV2Router02);
    t.equal(getAddress(v3.v3FactoryAddress), a.contracts.uniswapV3Factory);
    t.equal(getAddress(v3.v3QuoterAddress), a.contracts.quoterV2);
    t.same(v3.feeTiers, [100, 500, 3000, 10000]);
  }
  const v3a = devnet.dexes.find((d) => d.version === 'v3')!;
  const v3b = devnetB.dexes.find((d) => d.version === 'v3')!;
  t.equal(v3a.v3RouterKind, 'SwapRouter02');
  t.equal(getAddress(v3a.v3RouterAddress), a.contracts.swapRouter02);
  t.equal(v3b.v3RouterKind, 'SwapRouter');
  t.equal(getAddress(v3b.v3RouterAddress), a.contracts.swapRouter);
});
