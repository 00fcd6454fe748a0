// startDevnet / deployDevnet / fundAccount / the devnet catalogue files, checked against the chain itself:
// code at every address, the routers' embedded init code hashes, factory lookups, token decimals, prices,
// positions, fee tiers, and the no-pool pairs.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import {
  type Address,
  createPublicClient,
  encodePacked,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  parseAbi,
  zeroAddress,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { devnetArtifact } from '../../seeds/devnet/artifacts.ts';
import { devnetAddresses, NATIVE_TOKEN_ADDRESS, sortTokens } from '../../seeds/devnet/devnetAddresses.ts';
import { devnetCatalog } from '../../seeds/devnet/devnetCatalog.ts';
import { DEVNET_V3_POOLS } from '../../seeds/devnet/devnetPlan.ts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { DEVNET_MNEMONIC } from '../../seeds/devnet/startAnvil.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const erc20 = parseAbi(['function decimals() view returns (uint8)', 'function balanceOf(address) view returns (uint256)']);
const v2Factory = parseAbi(['function getPair(address, address) view returns (address)']);
const v2Pair = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);
const v2Router = parseAbi([
  'function factory() view returns (address)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
]);
const v3Factory = parseAbi([
  'function getPool(address, address, uint24) view returns (address)',
  'function feeAmountTickSpacing(uint24) view returns (int24)',
]);
const npm = parseAbi(['function balanceOf(address) view returns (uint256)']);
const quoterV2 = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)',
]);
const mixedQuoter = parseAbi([
  'function factoryV2() view returns (address)',
  'function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] v3SqrtPriceX96AfterList, uint32[] v3InitializedTicksCrossedList, uint256 v3SwapGasEstimate)',
]);
/** MixedRouteQuoterV1's path marks a v2 hop by this fee (the flag bit 0x800000; swap-router-contracts' V2_FEE_PLACEHOLDER). */
const V2_PATH_FEE = 0x800000;

t.test('startDevnet deploys the real artifacts at the deterministic addresses', async (t) => {
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  const a = devnet.addresses;
  t.equal(await client.getChainId(), 31337, 'chain id defaults to 31337');
  t.same(a, devnetAddresses(), 'addresses are the precomputed deterministic ones');
  t.equal(a.deployer, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', "deployer is anvil's account 0");
  t.equal(devnet.accounts[0].privateKey, '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', "anvil's well-known key 0");

  for (const [name, address] of Object.entries(a.contracts)) {
    const code = await client.getCode({ address });
    t.ok(code && code.length > 2, `${name} has code at ${address}`);
  }
  t.ok(((await client.getCode({ address: a.multicall3 })) ?? '0x').length > 2, 'Multicall3 at its canonical address');
  const [block] = await client.multicall({
    contracts: [{ address: a.tokens.USDC, abi: erc20, functionName: 'decimals' }],
    allowFailure: false,
    multicallAddress: a.multicall3,
  });
  t.equal(block, 6, "viem's multicall works through the canonical Multicall3");

  const decimals: Record<string, number> = { WETH: 18, USDC: 6, USDT: 6, WBTC: 8, DAI: 18, UNI: 18, LINK: 18, AAVE: 18 };
  for (const [symbol, d] of Object.entries(decimals)) {
    t.equal(
      await client.readContract({ address: a.tokens[symbol as keyof typeof a.tokens], abi: erc20, functionName: 'decimals' }),
      d,
      `${symbol} has ${d} decimals`,
    );
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
  t.equal(
    await client.readContract({ address: a.contracts.uniswapV2Router02, abi: v2Router, functionName: 'factory' }),
    a.contracts.uniswapV2Factory,
  );
  t.equal(
    await client.readContract({ address: a.contracts.sushiswapV2Router02, abi: v2Router, functionName: 'factory' }),
    a.contracts.sushiswapV2Factory,
  );

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
        : await client.readContract({
            address: a.contracts.uniswapV3Factory,
            abi: v3Factory,
            functionName: 'getPool',
            args: [p.token1, p.token0, p.fee],
          });
    t.equal(got, p.address, `${p.dex} ${p.version} ${p.fee} pool at its CREATE2 address`);
  }
  const fees = new Set(a.pools.filter((p) => p.version === 'v3').map((p) => p.fee));
  t.same(
    [...fees].sort((x, y) => x - y),
    [100, 500, 3000, 10000],
    'v3 pools at every fee tier',
  );
  t.equal(
    await client.readContract({ address: a.contracts.uniswapV3Factory, abi: v3Factory, functionName: 'feeAmountTickSpacing', args: [100] }),
    1,
    'fee tier 100 enabled',
  );

  // Pairs with no pool: WBTC/DAI everywhere, and UNI with anything.
  const noPool: [Address, Address][] = [
    [a.tokens.WBTC, a.tokens.DAI],
    ...(['WETH', 'USDC', 'DAI', 'LINK', 'AAVE'] as const).map((s): [Address, Address] => [a.tokens.UNI, a.tokens[s]]),
  ];
  for (const [x, y] of noPool) {
    for (const f of [a.contracts.uniswapV2Factory, a.contracts.sushiswapV2Factory]) {
      t.equal(await client.readContract({ address: f, abi: v2Factory, functionName: 'getPair', args: [x, y] }), zeroAddress);
    }
    for (const fee of [100, 500, 3000, 10000]) {
      t.equal(
        await client.readContract({ address: a.contracts.uniswapV3Factory, abi: v3Factory, functionName: 'getPool', args: [x, y, fee] }),
        zeroAddress,
      );
    }
  }

  // WETH/USDC on both v2 and v3; realistic prices with the right decimals.
  const [wethUsdcV2] = a.pools.filter(
    (p) =>
      p.version === 'v2' &&
      p.dex === 'uniswap' &&
      p.token0 === sortTokens(a.tokens.WETH, a.tokens.USDC)[0] &&
      p.token1 === sortTokens(a.tokens.WETH, a.tokens.USDC)[1],
  );
  t.ok(wethUsdcV2, 'WETH/USDC exists on Uniswap v2');
  t.ok(
    a.pools.some((p) => p.version === 'v3' && p.token0 === wethUsdcV2!.token0 && p.token1 === wethUsdcV2!.token1),
    'and on v3',
  );
  const oneEth = await client.readContract({
    address: a.contracts.uniswapV2Router02,
    abi: v2Router,
    functionName: 'getAmountsOut',
    args: [10n ** 18n, [a.tokens.WETH, a.tokens.USDC]],
  });
  t.ok(
    oneEth[1] > 2_950n * 10n ** 6n && oneEth[1] < 3_000n * 10n ** 6n,
    `1 WETH -> ${oneEth[1]} USDC units on Uniswap v2 (~3000 USDC less 0.3%)`,
  );
  const oneBtc = await client.readContract({
    address: a.contracts.uniswapV2Router02,
    abi: v2Router,
    functionName: 'getAmountsOut',
    args: [10n ** 6n, [a.tokens.WBTC, a.tokens.USDC]],
  });
  t.ok(oneBtc[1] > 590n * 10n ** 6n && oneBtc[1] < 600n * 10n ** 6n, `0.01 WBTC -> ${oneBtc[1]} USDC units (~600 USDC: BTC ~60000)`);
  // getAmountsOut equals the constant-product formula on the pair's reserves (so pairFor found the pair).
  const [r0, r1] = await client.readContract({ address: wethUsdcV2!.address, abi: v2Pair, functionName: 'getReserves' });
  const [rIn, rOut] = wethUsdcV2!.token0 === a.tokens.WETH ? [r0, r1] : [r1, r0];
  t.equal(oneEth[1], (10n ** 18n * 997n * rOut) / (rIn * 1000n + 10n ** 18n * 997n), 'router getAmountsOut reads the factory-created pair');

  // Positions and ticks: every v3 pool has several positions, and a large swap crosses several initialized ticks.
  const positions = DEVNET_V3_POOLS.reduce((n, p) => n + p.positions.length, 0);
  t.equal(
    await client.readContract({ address: a.contracts.nonfungiblePositionManager, abi: npm, functionName: 'balanceOf', args: [a.deployer] }),
    BigInt(positions),
    `${positions} v3 positions minted`,
  );
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
  const who = devnet.accounts[7].address;
  const before = await client.getBalance({ address: who });
  await fundAccount(devnet.rpcUrl, who, NATIVE_TOKEN_ADDRESS, 5n * 10n ** 18n);
  t.equal(await client.getBalance({ address: who }), before + 5n * 10n ** 18n, 'fundAccount adds native ETH');
  for (const [symbol, amount] of [
    ['WETH', 3n * 10n ** 18n],
    ['USDC', 12_345n * 10n ** 6n],
    ['WBTC', 2n * 10n ** 8n],
    ['UNI', 7n],
    ['AAVE', 11n],
  ] as const) {
    const address = a.tokens[symbol];
    const b0 = await client.readContract({ address, abi: erc20, functionName: 'balanceOf', args: [who] });
    await fundAccount(devnet.rpcUrl, who, address, amount);
    t.equal(
      await client.readContract({ address, abi: erc20, functionName: 'balanceOf', args: [who] }),
      b0 + amount,
      `fundAccount gives ${symbol}`,
    );
  }
  await t.rejects(fundAccount(devnet.rpcUrl, who, '0x000000000000000000000000000000000000dEaD', 1n), /not a devnet token/);

  const pid = devnet.pid;
  await devnet.stop();
  t.throws(() => process.kill(pid, 0), 'anvil process is gone after stop()');
});

t.test(
  'the routing phase: LINK only through WETH, AAVE only through LINK, a mixed v2 -> v3 path, a split beating every single path',
  async (t) => {
    const devnet = await startDevnet();
    t.teardown(() => devnet.stop());
    const client = createPublicClient({ transport: http(devnet.rpcUrl) });
    const a = devnet.addresses;
    const tk = a.tokens;
    t.equal(
      a.routingDeployer,
      getAddress(mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: 101 }).address),
      'routing contracts come from HD account 101',
    );
    for (const [name, nonce] of [
      ['LINK', 0n],
      ['AAVE', 1n],
      ['mixedRouteQuoterV1', 2n],
    ] as const) {
      t.equal(
        a.contracts[name],
        getContractAddress({ from: a.routingDeployer, nonce }),
        `${name} is the routing deployer's contract at nonce ${nonce}`,
      );
    }
    t.equal(
      await client.readContract({ address: a.contracts.mixedRouteQuoterV1, abi: mixedQuoter, functionName: 'factoryV2' }),
      a.contracts.uniswapV2Factory,
    );

    // Every pool that exists on the chain, found by asking each factory about every token pair: the plan's, no more.
    const symbols = Object.keys(tk) as (keyof typeof tk)[];
    const found: string[] = [];
    for (let i = 0; i < symbols.length; i++) {
      for (let j = i + 1; j < symbols.length; j++) {
        const [x, y] = [tk[symbols[i]], tk[symbols[j]]];
        for (const [dex, factory] of [
          ['uniswap', a.contracts.uniswapV2Factory],
          ['sushiswap', a.contracts.sushiswapV2Factory],
        ] as const) {
          if ((await client.readContract({ address: factory, abi: v2Factory, functionName: 'getPair', args: [x, y] })) !== zeroAddress)
            found.push(`${dex} v2 ${symbols[i]}/${symbols[j]}`);
        }
        for (const fee of [100, 500, 3000, 10000]) {
          if (
            (await client.readContract({
              address: a.contracts.uniswapV3Factory,
              abi: v3Factory,
              functionName: 'getPool',
              args: [x, y, fee],
            })) !== zeroAddress
          )
            found.push(`uniswap v3 ${symbols[i]}/${symbols[j]} ${fee}`);
        }
      }
    }
    t.equal(found.length, a.pools.length, `${found.length} pools on the chain, as many as the plan lists`);
    t.same(
      found.filter((p) => /\bLINK\b|\bAAVE\b|\bUNI\b/.test(p)),
      ['uniswap v3 WETH/LINK 3000', 'uniswap v2 LINK/AAVE'],
      'LINK pools only with WETH (v3), AAVE only with LINK (Uniswap v2), UNI with nothing',
    );

    // Prices through the only paths: LINK -> WETH -> USDC on v3 (QuoterV2), AAVE -> LINK (v2) -> WETH -> USDC (v3) on MixedRouteQuoterV1.
    const path = (tokens: Address[], fees: number[]): Hex =>
      encodePacked(
        tokens.flatMap((_, i) => (i < fees.length ? ['address', 'uint24'] : ['address'])),
        tokens.flatMap((x, i) => (i < fees.length ? [x, fees[i]] : [x])),
      );
    const link = await client.simulateContract({
      address: a.contracts.quoterV2,
      abi: quoterV2,
      functionName: 'quoteExactInput',
      args: [path([tk.LINK, tk.WETH, tk.USDC], [3000, 500]), 10n ** 18n],
    });
    t.ok(
      link.result[0] > 14_800_000n && link.result[0] < 15_000_000n,
      `1 LINK -> ${link.result[0]} USDC units in two v3 hops (~15 USD less fees)`,
    );
    const aave = await client.simulateContract({
      address: a.contracts.mixedRouteQuoterV1,
      abi: mixedQuoter,
      functionName: 'quoteExactInput',
      args: [path([tk.AAVE, tk.LINK, tk.WETH, tk.USDC], [V2_PATH_FEE, 3000, 500]), 10n ** 18n],
    });
    t.ok(
      aave.result[0] > 98_500_000n && aave.result[0] < 100_000_000n,
      `1 AAVE -> ${aave.result[0]} USDC units in three hops, v2 then v3 (~100 USD less fees)`,
    );
    const [, aaveLink] = await client.readContract({
      address: a.contracts.uniswapV2Router02,
      abi: v2Router,
      functionName: 'getAmountsOut',
      args: [10n ** 18n, [tk.AAVE, tk.LINK]],
    });
    const rest = await client.simulateContract({
      address: a.contracts.quoterV2,
      abi: quoterV2,
      functionName: 'quoteExactInput',
      args: [path([tk.LINK, tk.WETH, tk.USDC], [3000, 500]), aaveLink!],
    });
    t.equal(aave.result[0], rest.result[0], 'the mixed quote equals Router02 for the v2 hop, then QuoterV2 for the v3 hops');

    // 1000 WETH -> USDC: every simple path of at most 3 hops over the devnet's pools, priced hop by hop by the chain
    // (Router02.getAmountsOut of the pool's DEX for a v2 hop, QuoterV2.quoteExactInputSingle for a v3 hop), against
    // 13% through Uniswap v2 + 87% through Uniswap v3 (fee 500).
    const amountIn = 1_000n * 10n ** 18n;
    const hop = async (p: (typeof a.pools)[number], tokenIn: Address, amount: bigint): Promise<bigint> => {
      const tokenOut = p.token0 === tokenIn ? p.token1 : p.token0;
      if (p.version === 'v2') {
        const router = p.dex === 'uniswap' ? a.contracts.uniswapV2Router02 : a.contracts.sushiswapV2Router02;
        return (
          await client.readContract({ address: router, abi: v2Router, functionName: 'getAmountsOut', args: [amount, [tokenIn, tokenOut]] })
        )[1];
      }
      const q = await client.simulateContract({
        address: a.contracts.quoterV2,
        abi: quoterV2,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn, tokenOut, amountIn: amount, fee: p.fee, sqrtPriceLimitX96: 0n }],
      });
      return q.result[0];
    };
    const paths: (typeof a.pools)[number][][] = [];
    const walk = (token: Address, used: (typeof a.pools)[number][], seen: Address[]): void => {
      if (token === tk.USDC) return void paths.push(used);
      if (used.length === 3) return;
      for (const p of a.pools) {
        const next = p.token0 === token ? p.token1 : p.token1 === token ? p.token0 : undefined;
        if (next !== undefined && !seen.includes(next)) walk(next, [...used, p], [...seen, next]);
      }
    };
    walk(tk.WETH, [], [tk.WETH]);
    t.equal(paths.length, 20, '20 simple WETH -> USDC paths of at most 3 hops');
    let bestSingle = 0n;
    for (const p of paths) {
      let token: Address = tk.WETH;
      let amount = amountIn;
      for (const pool of p) {
        amount = await hop(pool, token, amount);
        token = pool.token0 === token ? pool.token1 : pool.token0;
      }
      if (amount > bestSingle) bestSingle = amount;
    }
    const [weth0, usdc1] = sortTokens(tk.WETH, tk.USDC);
    const v2Pool = a.pools.find((p) => p.dex === 'uniswap' && p.version === 'v2' && p.token0 === weth0 && p.token1 === usdc1)!;
    const v3Pool = a.pools.find((p) => p.version === 'v3' && p.fee === 500 && p.token0 === weth0 && p.token1 === usdc1)!;
    const toV2 = (amountIn * 13n) / 100n;
    const split = (await hop(v2Pool, tk.WETH, toV2)) + (await hop(v3Pool, tk.WETH, amountIn - toV2));
    t.ok(
      split > bestSingle,
      `1000 WETH: 13% Uniswap v2 + 87% Uniswap v3 0.05% gives ${split} USDC units, the best single path ${bestSingle}`,
    );
  },
);

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
    t.ok(
      chain.tokens.some((tok) => tok.address.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase() && tok.decimals === 18),
      'native ETH listed',
    );
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
