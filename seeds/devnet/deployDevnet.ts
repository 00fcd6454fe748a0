import { type Address, encodeDeployData, encodeFunctionData, getAddress, type Hex, maxUint256, parseAbi, stringToHex, toHex } from 'viem';
import { devnetArtifact, linkBytecode } from './artifacts.ts';
import {
  DEPLOY_ORDER,
  type DevnetAddresses,
  type DevnetContract,
  devnetAddresses,
  MULTICALL3_ADDRESS,
  ROUTING_DEPLOY_ORDER,
  sortTokens,
} from './devnetAddresses.ts';
import {
  DEVNET_FEE_TIERS,
  DEVNET_TOKENS,
  DEVNET_V2_PAIRS,
  DEVNET_V3_POOLS,
  type DevnetPhase,
  type DevnetTokenSymbol,
} from './devnetPlan.ts';
import { jsonRpc, receiptOf } from './jsonRpc.ts';

/** Gas limit of every devnet transaction: fixed, so no estimate can fall short when a block lands in a later second. */
const TX_GAS = 15_000_000n;
/** Far-future deadline for router and position-manager calls. */
const DEADLINE = 2n ** 40n;
/** Ether given to the deployer so it can wrap as much WETH as the pools need. */
const DEPLOYER_ETHER = 10n ** 9n * 10n ** 18n;

const erc20Abi = parseAbi([
  'function mint(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function deposit() payable',
]);
const v3FactoryAbi = parseAbi(['function enableFeeAmount(uint24 fee, int24 tickSpacing)']);
const v2RouterAbi = parseAbi([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
]);
const npmAbi = parseAbi([
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
]);

interface Receipt {
  status: Hex;
  contractAddress: Address | null;
  logs: { address: Address; topics: Hex[]; data: Hex }[];
}

/** Sends transactions from one unlocked anvil account, one at a time (automine), failing on a revert. */
export class DevnetSender {
  txCount = 0;
  constructor(
    readonly rpcUrl: string,
    readonly from: Address,
  ) {}

  /** Sends a transaction (to = undefined deploys) and returns its receipt. */
  async send(to: Address | undefined, data: Hex, value = 0n, label = 'tx'): Promise<Receipt> {
    const tx: Record<string, string> = { from: this.from, data, gas: toHex(TX_GAS) };
    if (to) tx.to = to;
    if (value > 0n) tx.value = toHex(value);
    const hash = await jsonRpc<Hex>(this.rpcUrl, 'eth_sendTransaction', [tx]);
    this.txCount++;
    const receipt = await receiptOf<Receipt>(this.rpcUrl, hash).catch((err: Error) => {
      throw new Error(`${label}: ${err.message}`);
    });
    if (receipt.status !== '0x1') throw new Error(`${label}: transaction ${hash} reverted`);
    return receipt;
  }

  /** Gives the sender `amount` of a devnet token: WETH by wrapping as much of its ether, any other by MintableERC20.mint. */
  async fund(token: Address, amount: bigint, label: string): Promise<void> {
    if (token === devnetAddresses().tokens.WETH)
      await this.send(token, encodeFunctionData({ abi: erc20Abi, functionName: 'deposit' }), amount, `wrap ${label}`);
    else
      await this.send(token, encodeFunctionData({ abi: erc20Abi, functionName: 'mint', args: [this.from, amount] }), 0n, `mint ${label}`);
  }

  /** Approves `spender` for all of the sender's `token`. */
  async approve(token: Address, spender: Address, label: string): Promise<void> {
    await this.send(
      token,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] }),
      0n,
      `approve ${label}`,
    );
  }
}

/** What a deployer mints (or wraps) of a devnet token to provide liquidity: 10^12 whole tokens, 10^6 of WETH. */
export function liquiditySupply(symbol: DevnetTokenSymbol): bigint {
  return symbol === 'WETH' ? 10n ** 6n * 10n ** 18n : 10n ** 12n * 10n ** BigInt(token(symbol).decimals);
}

/** Integer square root (floor) of a non-negative bigint. */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of a negative number');
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x && x * x <= n && (x + 1n) * (x + 1n) > n) return x;
    x = y;
  }
}

/** Raw amount of a token worth `usd` dollars at `priceMicroUsd` per whole token. */
export function rawAmount(usd: bigint, priceMicroUsd: bigint, decimals: number): bigint {
  return (usd * 1_000_000n * 10n ** BigInt(decimals)) / priceMicroUsd;
}

export function token(symbol: DevnetTokenSymbol) {
  const spec = DEVNET_TOKENS.find((t) => t.symbol === symbol);
  if (!spec) throw new Error(`unknown devnet token ${symbol}`);
  return spec;
}

/** sqrtPriceX96 and tick (floor) for a pool whose token0/token1 have the given micro-USD prices. */
export function initialPrice(t0: DevnetTokenSymbol, t1: DevnetTokenSymbol): { sqrtPriceX96: bigint; tick: number } {
  const a = token(t0);
  const b = token(t1);
  const num = a.priceMicroUsd * 10n ** BigInt(b.decimals);
  const den = b.priceMicroUsd * 10n ** BigInt(a.decimals);
  const sqrtPriceX96 = isqrt((num << 192n) / den);
  const tick = Math.floor(Math.log(Number(num) / Number(den)) / Math.log(1.0001));
  return { sqrtPriceX96, tick };
}

/** Deploys every devnet contract and pool onto a fresh anvil node (deployer nonce must be 0). */
export async function deployDevnet(rpcUrl: string): Promise<{ addresses: DevnetAddresses; txCount: number }> {
  const expected = devnetAddresses();
  const deployer = expected.deployer;
  const nonce = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
  if (nonce !== 0) throw new Error(`deployDevnet: deployer nonce is ${nonce}, expected a fresh node`);
  await jsonRpc(rpcUrl, 'anvil_setBalance', [deployer, toHex(DEPLOYER_ETHER)]);
  const sender = new DevnetSender(rpcUrl, deployer);
  const c = expected.contracts;
  const t = expected.tokens;

  const deploy = async (name: DevnetContract, bytecode: Hex): Promise<void> => {
    const receipt = await sender.send(undefined, bytecode, 0n, `deploy ${name}`);
    const got = receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
    if (got !== c[name]) throw new Error(`deploy ${name}: at ${got}, expected ${c[name]} (deployment order changed?)`);
  };
  const withArgs = (name: Parameters<typeof devnetArtifact>[0], args: readonly unknown[]): Hex => {
    const artifact = devnetArtifact(name);
    return encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  };

  // Contracts, in DEPLOY_ORDER (nonce = index).
  for (const name of DEPLOY_ORDER) {
    switch (name) {
      case 'WETH':
        await deploy(name, devnetArtifact('WETH9').bytecode);
        break;
      case 'USDC':
      case 'USDT':
      case 'WBTC':
      case 'DAI':
      case 'UNI': {
        const spec = token(name);
        await deploy(name, withArgs('MintableERC20', [spec.name, spec.symbol, spec.decimals]));
        break;
      }
      case 'uniswapV2Factory':
      case 'sushiswapV2Factory':
        await deploy(name, withArgs('UniswapV2Factory', [deployer]));
        break;
      case 'uniswapV2Router02':
        await deploy(name, withArgs('UniswapV2Router02', [c.uniswapV2Factory, t.WETH]));
        break;
      case 'sushiswapV2Router02':
        await deploy(name, withArgs('UniswapV2Router02', [c.sushiswapV2Factory, t.WETH]));
        break;
      case 'uniswapV3Factory':
        await deploy(name, devnetArtifact('UniswapV3Factory').bytecode);
        break;
      case 'nftDescriptorLibrary':
        await deploy(name, devnetArtifact('NFTDescriptor').bytecode);
        break;
      case 'nonfungibleTokenPositionDescriptor': {
        const artifact = devnetArtifact('NonfungibleTokenPositionDescriptor');
        const bytecode = linkBytecode(artifact, { NFTDescriptor: c.nftDescriptorLibrary });
        await deploy(name, encodeDeployData({ abi: artifact.abi, bytecode, args: [t.WETH, stringToHex('ETH', { size: 32 })] }));
        break;
      }
      case 'nonfungiblePositionManager':
        await deploy(name, withArgs('NonfungiblePositionManager', [c.uniswapV3Factory, t.WETH, c.nonfungibleTokenPositionDescriptor]));
        break;
      case 'swapRouter':
        await deploy(name, withArgs('SwapRouter', [c.uniswapV3Factory, t.WETH]));
        break;
      case 'swapRouter02':
        await deploy(name, withArgs('SwapRouter02', [c.uniswapV2Factory, c.uniswapV3Factory, c.nonfungiblePositionManager, t.WETH]));
        break;
      case 'quoterV2':
        await deploy(name, withArgs('QuoterV2', [c.uniswapV3Factory, t.WETH]));
        break;
    }
  }

  // Multicall3 at its canonical address: run its creation code in an eth_call to get the runtime code, then set it.
  const runtime = await jsonRpc<Hex>(rpcUrl, 'eth_call', [
    { from: deployer, data: devnetArtifact('Multicall3').bytecode, gas: toHex(TX_GAS) },
    'latest',
  ]);
  await jsonRpc(rpcUrl, 'anvil_setCode', [MULTICALL3_ADDRESS, runtime]);

  // Fee tier 100 (tick spacing 1), as enabled on mainnet after launch.
  await sender.send(
    c.uniswapV3Factory,
    encodeFunctionData({ abi: v3FactoryAbi, functionName: 'enableFeeAmount', args: [100, 1] }),
    0n,
    'enableFeeAmount',
  );

  await provideLiquidity(sender, 'base');

  // The 'routing' phase: its token contracts from a second account, then its balances, pairs and pools.
  const routing = new DevnetSender(rpcUrl, expected.routingDeployer);
  await jsonRpc(rpcUrl, 'anvil_setBalance', [expected.routingDeployer, toHex(10n ** 20n)]);
  await jsonRpc(rpcUrl, 'anvil_impersonateAccount', [expected.routingDeployer]);
  try {
    for (const name of ROUTING_DEPLOY_ORDER) {
      const bytecode =
        name === 'mixedRouteQuoterV1'
          ? withArgs('MixedRouteQuoterV1', [c.uniswapV3Factory, c.uniswapV2Factory, t.WETH])
          : withArgs('MintableERC20', [token(name).name, name, token(name).decimals]);
      const receipt = await routing.send(undefined, bytecode, 0n, `deploy ${name}`);
      const got = receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
      if (got !== c[name]) throw new Error(`deploy ${name}: at ${got}, expected ${c[name]} (routing deployment order changed?)`);
    }
  } finally {
    await jsonRpc(rpcUrl, 'anvil_stopImpersonatingAccount', [expected.routingDeployer]);
  }
  await provideLiquidity(sender, 'routing');
  return { addresses: expected, txCount: sender.txCount + routing.txCount };
}

/**
 * Mints the deployer's balances of a phase's tokens, approves the routers and the position manager, adds the
 * phase's v2 pairs through each DEX's router and creates, initialises and mints into its v3 pools.
 */
async function provideLiquidity(sender: DevnetSender, phase: DevnetPhase): Promise<void> {
  const { contracts: c, tokens: t } = devnetAddresses();
  const deployer = sender.from;
  const tokens = DEVNET_TOKENS.filter((spec) => spec.phase === phase);
  // Balances and approvals.
  for (const spec of tokens) await sender.fund(t[spec.symbol], liquiditySupply(spec.symbol), spec.symbol);
  const spenders = [c.uniswapV2Router02, c.sushiswapV2Router02, c.nonfungiblePositionManager];
  for (const spec of tokens) {
    if (spec.symbol === 'UNI') continue;
    for (const spender of spenders) await sender.approve(t[spec.symbol], spender, spec.symbol);
  }

  // v2 pairs: the router creates each pair through its factory and adds the first liquidity.
  for (const p of DEVNET_V2_PAIRS.filter((x) => x.phase === phase)) {
    const router = p.dex === 'uniswap' ? c.uniswapV2Router02 : c.sushiswapV2Router02;
    const a = token(p.a);
    const b = token(p.b);
    const amountA = rawAmount(p.usdPerSide, p.aPriceMicroUsd ?? a.priceMicroUsd, a.decimals);
    const amountB = rawAmount(p.usdPerSide, b.priceMicroUsd, b.decimals);
    const data = encodeFunctionData({
      abi: v2RouterAbi,
      functionName: 'addLiquidity',
      args: [t[p.a], t[p.b], amountA, amountB, 0n, 0n, deployer, DEADLINE],
    });
    await sender.send(router, data, 0n, `addLiquidity ${p.dex} ${p.a}/${p.b}`);
  }

  // v3 pools: create + initialise at the reference price, then mint every position.
  for (const p of DEVNET_V3_POOLS.filter((x) => x.phase === phase))
    await createV3Pool(sender, c.nonfungiblePositionManager, DEVNET_FEE_TIERS.get(p.fee)!, p, 'v3');
}

/** A v3-style pool of a devnet plan: its tokens, fee tier, positions (tick offsets around the reference price) and USD per position. */
export interface V3PoolPlan {
  readonly a: DevnetTokenSymbol;
  readonly b: DevnetTokenSymbol;
  readonly fee: number;
  readonly positions: readonly (readonly [number, number])[];
  readonly usdPerPosition: bigint;
}

/**
 * Creates and initialises a v3-style pool at the reference price through a NonfungiblePositionManager (Uniswap v3's,
 * or a fork's with the same ABI), then mints every position of its plan to the sender, half of each position's USD on
 * each side; labels name the DEX (`name`). Returns the pool's token0 and token1.
 */
export async function createV3Pool(
  sender: DevnetSender,
  positionManager: Address,
  spacing: number,
  p: V3PoolPlan,
  name: string,
): Promise<{ addr0: Address; addr1: Address }> {
  const t = devnetAddresses().tokens;
  const [addr0, addr1] = sortTokens(t[p.a], t[p.b]);
  const s0 = addr0 === t[p.a] ? p.a : p.b;
  const s1 = s0 === p.a ? p.b : p.a;
  const label = `${name} ${s0}/${s1} ${p.fee}`;
  const { sqrtPriceX96, tick } = initialPrice(s0, s1);
  await sender.send(
    positionManager,
    encodeFunctionData({ abi: npmAbi, functionName: 'createAndInitializePoolIfNecessary', args: [addr0, addr1, p.fee, sqrtPriceX96] }),
    0n,
    `create ${label}`,
  );
  const tok0 = token(s0);
  const tok1 = token(s1);
  for (const [lo, hi] of p.positions) {
    const tickLower = Math.floor((tick + lo) / spacing) * spacing;
    const tickUpper = Math.ceil((tick + hi) / spacing) * spacing;
    const half = p.usdPerPosition / 2n;
    const params = {
      token0: addr0,
      token1: addr1,
      fee: p.fee,
      tickLower,
      tickUpper,
      amount0Desired: rawAmount(half, tok0.priceMicroUsd, tok0.decimals),
      amount1Desired: rawAmount(half, tok1.priceMicroUsd, tok1.decimals),
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: sender.from,
      deadline: DEADLINE,
    };
    await sender.send(
      positionManager,
      encodeFunctionData({ abi: npmAbi, functionName: 'mint', args: [params] }),
      0n,
      `mint ${label} [${tickLower}, ${tickUpper}]`,
    );
  }
  return { addr0, addr1 };
}
