/**
 * The devnet's Uniswap v4: the published PoolManager (@uniswap/v4-core), PositionManager, StateView and V4Quoter
 * (@uniswap/v4-periphery) and UniversalRouter 2.1 (@uniswap/universal-router), deployed by a dedicated account AFTER
 * everything else (so no other devnet address or nonce changes), Permit2's runtime code placed at its canonical
 * address (as v4-periphery's DeployPermit2 helper does under Foundry), then the pools of devnetV4Plan.ts initialised
 * and minted into through the PositionManager. Every address is deterministic (that account's nonces 0 to 4).
 */
import { join } from 'node:path';
import {
  type Address,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbi,
  parseAbiParameters,
  toHex,
  zeroAddress,
} from 'viem';
import { getSqrtRatioAtTick } from '../../src/amm/tickMath.ts';
import { loadArtifact } from './artifacts.ts';
import { compileSolidity } from './compileSolidity.ts';
import { acrossDevnetAddresses } from './deployAcross.ts';
import { DevnetSender, initialPrice, liquiditySupply, rawAmount, token } from './deployDevnet.ts';
import { devnetAccount, devnetAddresses } from './devnetAddresses.ts';
import { devnetPermit2Code, PERMIT2_ADDRESS } from './devnetPermit2.ts';
import type { DevnetTokenSymbol } from './devnetPlan.ts';
import { DEVNET_V4_POOLS, type DevnetV4Currency, type DevnetV4PoolSpec } from './devnetV4Plan.ts';
import { jsonRpc } from './jsonRpc.ts';

/** npm paths of the v4 artifacts (real published builds, never recompiled; none needs library linking). */
export const V4_ARTIFACT_PATHS = {
  PoolManager: '@uniswap/v4-core/out/PoolManager.sol/PoolManager.json',
  PositionManager: '@uniswap/v4-periphery/foundry-out/PositionManager.sol/PositionManager.json',
  StateView: '@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json',
  V4Quoter: '@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json',
  MockHooks: '@uniswap/v4-core/out/MockHooks.sol/MockHooks.json',
  DynamicFeesTestHook: '@uniswap/v4-core/out/DynamicFeesTestHook.sol/DynamicFeesTestHook.json',
  UniversalRouter: '@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json',
} as const;

/** HD index (anvil's default mnemonic) of the account that deploys and owns the devnet's v4; not Across's 100 nor routing's 101. */
export const V4_DEPLOYER_INDEX = 102;

/** The contracts it deploys, in its nonce order (nonce = index). */
const V4_DEPLOY_ORDER = ['poolManager', 'positionManager', 'stateView', 'v4Quoter', 'universalRouter'] as const;
type V4Contract = (typeof V4_DEPLOY_ORDER)[number];

/** PositionManager's gas limit for a subscriber's unsubscribe callback (v4-periphery's deployment scripts use 300,000). */
const UNSUBSCRIBE_GAS_LIMIT = 300_000n;
const DEADLINE = 2n ** 40n;
const MAX_UINT128 = (1n << 128n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;
const MAX_UINT48 = 2 ** 48 - 1;
const Q96 = 1n << 96n;

/** Hardforks before Cancun (EIP-1153 transient storage), which the PoolManager's unlock needs; anvil names them so. */
const PRE_CANCUN = new Set(
  ['frontier', 'homestead', 'dao', 'tangerine', 'spuriousdragon', 'byzantium', 'constantinople', 'petersburg', 'istanbul'].concat([
    'muirglacier',
    'berlin',
    'london',
    'arrowglacier',
    'grayglacier',
    'paris',
    'merge',
    'shanghai',
  ]),
);

/** LPFeeLibrary.DYNAMIC_FEE_FLAG: the key fee of a pool whose hook sets its LP fee. */
const DYNAMIC_FEE_FLAG = 0x800000;

/**
 * Where the test hooks live: addresses whose low 14 bits are their permissions (Hooks.sol), code placed with
 * anvil_setCode as Foundry's deployCodeTo does (no salt to mine). MockHooks: beforeSwap (bit 7) | afterSwap (bit 6);
 * DynamicFeesTestHook: afterInitialize (bit 12) | beforeSwap (bit 7); DevnetDynamicFeeHook
 * (contracts/DevnetDynamicFeeHook.sol): none, its owner sets the fee with PoolManager.updateDynamicLPFee.
 */
export const DEVNET_V4_HOOKS = {
  swap: getAddress('0x44440000000000000000000000000000000000c0'),
  dynamicFee: getAddress('0x4444000000000000000000000000000000001080'),
  ownerFee: getAddress('0x4444000000000000000000000000000000004000'),
} as const;

/** DevnetDynamicFeeHook's owner: the v4 deployer (it calls init), who sets the pool's LP fee. */
export const devnetOwnerFeeHookAbi = parseAbi([
  'function init(address poolManager)',
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function setFee(PoolKey key, uint24 fee)',
]);

/** One v4 pool of the devnet, as its PoolKey says it (currency0 < currency1; native ETH is the zero address). */
export interface DevnetV4Pool {
  readonly currency0: Address;
  readonly currency1: Address;
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: Address;
  /** keccak256(abi.encode(key)). */
  readonly poolId: Hex;
  /** The LP fee slot0 holds: the key's fee, or for a dynamic-fee pool the fee its hook sets. */
  readonly lpFee: number;
  /** The protocol fee as slot0 holds it (oneForZero << 12 | zeroForOne), 0 when none. */
  readonly protocolFee: number;
}

/** Addresses of the devnet's v4 deployment (the same on every run and chain id). */
export interface V4DevnetAddresses {
  readonly deployer: Address;
  readonly permit2: Address;
  readonly contracts: Readonly<Record<V4Contract, Address>>;
  readonly pools: readonly DevnetV4Pool[];
}

const poolKeyAbi = parseAbiParameters('(address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks)');
const poolManagerAbi = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function initialize(PoolKey key, uint160 sqrtPriceX96) returns (int24 tick)',
  'function setProtocolFeeController(address controller)',
  'function setProtocolFee(PoolKey key, uint24 newProtocolFee)',
]);
const dynamicFeeHookAbi = parseAbi(['function setManager(address manager)', 'function setFee(uint24 fee)']);
const positionManagerAbi = parseAbi(['function modifyLiquidities(bytes unlockData, uint256 deadline) payable']);
const permit2Abi = parseAbi(['function approve(address token, address spender, uint160 amount, uint48 expiration)']);
const _erc20Abi = parseAbi([
  'function mint(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit() payable',
]);

/** v4-periphery Actions codes the deployment uses. */
const MINT_POSITION = 0x02;
const SETTLE_PAIR = 0x0d;
const SWEEP = 0x14;

/** The currency of a plan entry: a devnet token's address, or the zero address for native ETH. */
function currencyOf(c: DevnetV4Currency): Address {
  return c === 'ETH' ? zeroAddress : devnetAddresses().tokens[c];
}

/** The token whose price and decimals a currency has (native ETH priced as WETH). */
function priced(c: DevnetV4Currency): DevnetTokenSymbol {
  return c === 'ETH' ? 'WETH' : c;
}

/** A plan entry's PoolKey, currencies sorted. */
function poolOf(p: DevnetV4PoolSpec): DevnetV4Pool & { readonly symbols: readonly [DevnetV4Currency, DevnetV4Currency] } {
  const [a, b] = [currencyOf(p.a), currencyOf(p.b)];
  const swap = BigInt(a) > BigInt(b);
  const key = {
    currency0: swap ? b : a,
    currency1: swap ? a : b,
    fee: p.hook === 'dynamicFee' || p.hook === 'ownerFee' ? DYNAMIC_FEE_FLAG : p.fee,
    tickSpacing: p.tickSpacing,
    hooks: p.hook ? DEVNET_V4_HOOKS[p.hook] : zeroAddress,
  };
  const protocolFee = p.protocolFee ? (p.protocolFee.oneForZero << 12) | p.protocolFee.zeroForOne : 0;
  return {
    ...key,
    poolId: keccak256(encodeAbiParameters(poolKeyAbi, [key])),
    lpFee: p.fee,
    protocolFee,
    symbols: swap ? [p.b, p.a] : [p.a, p.b],
  };
}

/** The devnet v4 addresses and pools, computed without a node. */
export function v4DevnetAddresses(): V4DevnetAddresses {
  const deployer = devnetAccount(V4_DEPLOYER_INDEX).address;
  const contracts = {} as Record<V4Contract, Address>;
  V4_DEPLOY_ORDER.forEach((name, nonce) => {
    contracts[name] = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  });
  const pools = DEVNET_V4_POOLS.map((p) => {
    const { symbols: _, ...pool } = poolOf(p);
    return pool;
  });
  return { deployer, permit2: PERMIT2_ADDRESS, contracts, pools };
}

/** LiquidityAmounts.getLiquidityForAmounts: the most liquidity amount0 and amount1 pay for in [sqrtA, sqrtB] at sqrtP. */
function liquidityForAmounts(sqrtP: bigint, sqrtA: bigint, sqrtB: bigint, amount0: bigint, amount1: bigint): bigint {
  const from0 = (lo: bigint): bigint => (amount0 * ((lo * sqrtB) / Q96)) / (sqrtB - lo);
  const from1 = (hi: bigint): bigint => (amount1 * Q96) / (hi - sqrtA);
  if (sqrtP <= sqrtA) return from0(sqrtA);
  if (sqrtP >= sqrtB) return from1(sqrtB);
  const l0 = from0(sqrtP);
  const l1 = from1(sqrtP);
  return l0 < l1 ? l0 : l1;
}

/**
 * Deploys v4 onto a running devnet (after deployDevnet; anvil must run Cancun or later, for transient storage) and
 * creates the pools of DEVNET_V4_POOLS; anvil impersonates the deployer. Returns the addresses.
 */
export async function deployUniswapV4(rpcUrl: string): Promise<V4DevnetAddresses> {
  const expected = v4DevnetAddresses();
  const { deployer, contracts: c } = expected;
  const base = devnetAddresses();
  const nonce = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
  if (nonce !== 0) throw new Error(`deployUniswapV4: deployer ${deployer} has nonce ${nonce}, expected 0 (already deployed?)`);
  const { hardFork } = await jsonRpc<{ hardFork: string }>(rpcUrl, 'anvil_nodeInfo');
  if (PRE_CANCUN.has(hardFork.toLowerCase().replace(/[^a-z]/g, ''))) {
    throw new Error(`deployUniswapV4: anvil runs ${hardFork}; v4 needs Cancun or later (transient storage)`);
  }
  await jsonRpc(rpcUrl, 'anvil_setCode', [PERMIT2_ADDRESS, devnetPermit2Code()]);
  await jsonRpc(rpcUrl, 'anvil_setBalance', [deployer, toHex(10n ** 9n * 10n ** 18n)]);
  await jsonRpc(rpcUrl, 'anvil_impersonateAccount', [deployer]);
  try {
    const sender = new DevnetSender(rpcUrl, deployer);
    const args: Record<V4Contract, readonly unknown[]> = {
      poolManager: [deployer],
      positionManager: [c.poolManager, PERMIT2_ADDRESS, UNSUBSCRIBE_GAS_LIMIT, zeroAddress, base.tokens.WETH],
      stateView: [c.poolManager],
      v4Quoter: [c.poolManager],
      universalRouter: [
        {
          permit2: PERMIT2_ADDRESS,
          weth9: base.tokens.WETH,
          v2Factory: base.contracts.uniswapV2Factory,
          v3Factory: base.contracts.uniswapV3Factory,
          pairInitCodeHash: base.pairInitCodeHash,
          poolInitCodeHash: base.poolInitCodeHash,
          v4PoolManager: c.poolManager,
          v3NFTPositionManager: base.contracts.nonfungiblePositionManager,
          v4PositionManager: c.positionManager,
          spokePool: acrossDevnetAddresses().spokePool,
        },
      ],
    };
    const paths: Record<V4Contract, string> = {
      poolManager: V4_ARTIFACT_PATHS.PoolManager,
      positionManager: V4_ARTIFACT_PATHS.PositionManager,
      stateView: V4_ARTIFACT_PATHS.StateView,
      v4Quoter: V4_ARTIFACT_PATHS.V4Quoter,
      universalRouter: V4_ARTIFACT_PATHS.UniversalRouter,
    };
    for (const name of V4_DEPLOY_ORDER) {
      const artifact = loadArtifact(paths[name]);
      const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: args[name] });
      const receipt = await sender.send(undefined, data, 0n, `deploy ${name}`);
      const got = receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
      if (got !== c[name]) throw new Error(`deployUniswapV4: ${name} at ${got}, expected ${c[name]}`);
    }
    await placeHooks(rpcUrl, sender);
    await fundAndApprove(sender);
    await sender.send(
      c.poolManager,
      encodeFunctionData({ abi: poolManagerAbi, functionName: 'setProtocolFeeController', args: [deployer] }),
      0n,
      'setProtocolFeeController',
    );
    for (const spec of DEVNET_V4_POOLS) await createPool(sender, spec);
  } finally {
    await jsonRpc(rpcUrl, 'anvil_stopImpersonatingAccount', [deployer]);
  }
  return expected;
}

/**
 * Puts the test hooks' runtime code (their creation code run in an eth_call; DevnetDynamicFeeHook's compiled runtime)
 * at DEVNET_V4_HOOKS; points DynamicFeesTestHook and DevnetDynamicFeeHook at the PoolManager (the deployer owns the latter).
 */
async function placeHooks(rpcUrl: string, sender: DevnetSender): Promise<void> {
  const { contracts: c } = v4DevnetAddresses();
  for (const [kind, path] of [
    ['swap', V4_ARTIFACT_PATHS.MockHooks],
    ['dynamicFee', V4_ARTIFACT_PATHS.DynamicFeesTestHook],
  ] as const) {
    const runtime = await jsonRpc<Hex>(rpcUrl, 'eth_call', [{ from: sender.from, data: loadArtifact(path).bytecode }, 'latest']);
    await jsonRpc(rpcUrl, 'anvil_setCode', [DEVNET_V4_HOOKS[kind], runtime]);
  }
  const ownerFee = compileSolidity(join(import.meta.dirname, 'contracts', 'DevnetDynamicFeeHook.sol'), 'DevnetDynamicFeeHook');
  await jsonRpc(rpcUrl, 'anvil_setCode', [DEVNET_V4_HOOKS.ownerFee, ownerFee.deployedBytecode]);
  await sender.send(
    DEVNET_V4_HOOKS.ownerFee,
    encodeFunctionData({ abi: devnetOwnerFeeHookAbi, functionName: 'init', args: [c.poolManager] }),
    0n,
    'DevnetDynamicFeeHook.init',
  );
  await sender.send(
    DEVNET_V4_HOOKS.dynamicFee,
    encodeFunctionData({ abi: dynamicFeeHookAbi, functionName: 'setManager', args: [c.poolManager] }),
    0n,
    'DynamicFeesTestHook.setManager',
  );
}

/** Mints (or wraps) the deployer's balances of every token a v4 pool holds; approves Permit2, and Permit2 the PositionManager. */
async function fundAndApprove(sender: DevnetSender): Promise<void> {
  const { tokens } = devnetAddresses();
  const { contracts: c } = v4DevnetAddresses();
  const symbols = new Set<DevnetTokenSymbol>();
  for (const p of DEVNET_V4_POOLS) for (const s of [p.a, p.b]) if (s !== 'ETH') symbols.add(s);
  for (const symbol of symbols) {
    const address = tokens[symbol];
    await sender.fund(address, liquiditySupply(symbol), symbol);
    await sender.approve(address, PERMIT2_ADDRESS, `Permit2 ${symbol}`);
    await sender.send(
      PERMIT2_ADDRESS,
      encodeFunctionData({ abi: permit2Abi, functionName: 'approve', args: [address, c.positionManager, MAX_UINT160, MAX_UINT48] }),
      0n,
      `Permit2 approve ${symbol}`,
    );
  }
}

/** Initialises one pool at the reference price, sets its protocol fee, and mints every position of its plan. */
async function createPool(sender: DevnetSender, spec: DevnetV4PoolSpec): Promise<void> {
  const { contracts: c } = v4DevnetAddresses();
  const { symbols, poolId: _, protocolFee, lpFee: __, ...key } = poolOf(spec);
  const label = `v4 ${symbols[0]}/${symbols[1]} ${spec.fee}/${spec.tickSpacing}${spec.hook ? ` ${spec.hook} hook` : ''}`;
  const [s0, s1] = [priced(symbols[0]), priced(symbols[1])];
  const { sqrtPriceX96, tick } = initialPrice(s0, s1);
  if (spec.hook === 'dynamicFee') {
    await sender.send(
      DEVNET_V4_HOOKS.dynamicFee,
      encodeFunctionData({ abi: dynamicFeeHookAbi, functionName: 'setFee', args: [spec.fee] }),
      0n,
      `setFee ${label}`,
    );
  }
  await sender.send(
    c.poolManager,
    encodeFunctionData({ abi: poolManagerAbi, functionName: 'initialize', args: [key, sqrtPriceX96] }),
    0n,
    `initialize ${label}`,
  );
  if (spec.hook === 'ownerFee') {
    // A dynamic fee starts at 0 (no afterInitialize sets it): the owner sets it once the pool exists.
    await sender.send(
      DEVNET_V4_HOOKS.ownerFee,
      encodeFunctionData({ abi: devnetOwnerFeeHookAbi, functionName: 'setFee', args: [key, spec.fee] }),
      0n,
      `setFee ${label}`,
    );
  }
  if (protocolFee !== 0) {
    await sender.send(
      c.poolManager,
      encodeFunctionData({ abi: poolManagerAbi, functionName: 'setProtocolFee', args: [key, protocolFee] }),
      0n,
      `setProtocolFee ${label}`,
    );
  }
  const native = key.currency0 === zeroAddress;
  const [tok0, tok1] = [token(s0), token(s1)];
  const spacing = spec.tickSpacing;
  for (const [lo, hi] of spec.positions) {
    const tickLower = Math.floor((tick + lo) / spacing) * spacing;
    const tickUpper = Math.ceil((tick + hi) / spacing) * spacing;
    const half = spec.usdPerPosition / 2n;
    const amount0 = rawAmount(half, tok0.priceMicroUsd, tok0.decimals);
    const amount1 = rawAmount(half, tok1.priceMicroUsd, tok1.decimals);
    const liquidity = liquidityForAmounts(sqrtPriceX96, getSqrtRatioAtTick(tickLower), getSqrtRatioAtTick(tickUpper), amount0, amount1);
    const actions: number[] = [MINT_POSITION, SETTLE_PAIR];
    const params: Hex[] = [
      encodeAbiParameters(
        parseAbiParameters(
          '(address, address, uint24, int24, address) key, int24 tickLower, int24 tickUpper, uint256 liquidity, uint128 amount0Max, uint128 amount1Max, address owner, bytes hookData',
        ),
        [
          [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
          tickLower,
          tickUpper,
          liquidity,
          MAX_UINT128,
          MAX_UINT128,
          sender.from,
          '0x',
        ],
      ),
      encodeAbiParameters(parseAbiParameters('address, address'), [key.currency0, key.currency1]),
    ];
    if (native) {
      actions.push(SWEEP);
      params.push(encodeAbiParameters(parseAbiParameters('address, address'), [zeroAddress, sender.from]));
    }
    const unlockData = encodeAbiParameters(parseAbiParameters('bytes, bytes[]'), [toHex(Uint8Array.from(actions)), params]);
    // Native ETH is paid with the call: the amount the position needs (rounded up) plus a margin the SWEEP returns.
    const value = native ? amount0 + amount0 / 100n + 1n : 0n;
    await sender.send(
      c.positionManager,
      encodeFunctionData({ abi: positionManagerAbi, functionName: 'modifyLiquidities', args: [unlockData, DEADLINE] }),
      value,
      `mint ${label} [${tickLower}, ${tickUpper}]`,
    );
  }
}
