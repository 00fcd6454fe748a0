/**
 * Tokens with the quirks that break a plain approve + swap, deployed onto a devnet after the standard deployment
 * (seeds/devnet/deployDevnet.ts), with their pools, for the tests that execute them (test/chain/tokenQuirks.devnet.test.ts).
 * The shipped devnet, its catalogue files and snapshots are left as they are: quirkCatalog() is the devnet catalogue
 * plus these tokens, for a catalogue folder of the test's own.
 *
 * - RUSD (6 decimals): Tether USD's approval rule (approve reverts while the allowance is not zero) and no return
 *   values (seeds/devnet/contracts/ApprovalResetToken.sol, compiled with solc-js); catalogued with approvalReset.
 *   A Uniswap V2 pair with WETH.
 * - QUSD (6 decimals): the same contract and rule as RUSD, catalogued without approvalReset: only the seeding run's
 *   probe can tell (src/chain/probeApprovalResets.ts). A Uniswap V2 pair with WETH.
 * - DTT: @uniswap/v2-periphery's DeflatingERC20, which burns 1% of every transfer. A Uniswap V2 pair with WETH
 *   and a Uniswap V3 pool (0.3%) with WETH holding a WETH-only position (minting DTT into a v3 pool fails: the pool
 *   receives 1% less than it asks for).
 * - MIS: a MintableERC20 with 8 decimals, catalogued with 18. A Uniswap V2 pair with WETH.
 * - WRONG: a MintableERC20 whose symbol() is "WRONG", catalogued as "RIGHT". A Uniswap V2 pair with WETH.
 */
import { join } from 'node:path';
import { type Address, encodeDeployData, encodeFunctionData, getAddress, type Hex, maxUint256, parseAbi } from 'viem';
import { getSqrtRatioAtTick } from '../../src/amm/tickMath.ts';
import { devnetArtifact, loadArtifact } from './artifacts.ts';
import { compileSolidity } from './compileSolidity.ts';
import { DevnetSender } from './deployDevnet.ts';
import { devnetAddresses, sortTokens, v2PairAddress, v3PoolAddress } from './devnetAddresses.ts';
import { devnetCatalog } from './devnetCatalog.ts';

/** Far-future deadline for router and position-manager calls. */
const DEADLINE = 2n ** 40n;
const E18 = 10n ** 18n;
/** DTT's v3 pool: fee tier and the tick its price starts at (1 DTT = 0.0001 WETH, 1.0001^92100 ~ 10,000). */
const DTT_V3_FEE = 3000;
const DTT_V3_TICK = 92_100;

const abi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
  'function createAndInitializePoolIfNecessary(address token0, address token1, uint24 fee, uint160 sqrtPriceX96) payable returns (address pool)',
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
]);

/** What deployQuirkTokens deployed. */
export interface QuirkDeployment {
  readonly tokens: {
    readonly RUSD: Address;
    readonly QUSD: Address;
    readonly DTT: Address;
    readonly MIS: Address;
    readonly WRONG: Address;
  };
  /** Uniswap V2 pairs with WETH, by token. */
  readonly v2Pairs: {
    readonly RUSD: Address;
    readonly QUSD: Address;
    readonly DTT: Address;
    readonly MIS: Address;
    readonly WRONG: Address;
  };
  /** DTT/WETH on Uniswap V3, fee 0.3%. */
  readonly dttV3Pool: Address;
  readonly txCount: number;
}

/** Deploys the quirk tokens and their pools from the devnet deployer; the standard deployment must be done. */
export async function deployQuirkTokens(rpcUrl: string): Promise<QuirkDeployment> {
  const { deployer, contracts: c, tokens: t, pairInitCodeHash, poolInitCodeHash } = devnetAddresses();
  const sender = new DevnetSender(rpcUrl, deployer);
  const deploy = async (bytecode: Hex, label: string): Promise<Address> =>
    getAddress((await sender.send(undefined, bytecode, 0n, label)).contractAddress!);
  const call = (to: Address, data: Hex, label: string) => sender.send(to, data, 0n, label);

  const resetToken = compileSolidity(join(import.meta.dirname, 'contracts', 'ApprovalResetToken.sol'), 'ApprovalResetToken');
  const mintable = devnetArtifact('MintableERC20');
  const deflating = loadArtifact('@uniswap/v2-periphery/build/DeflatingERC20.json');
  const tokens = {
    RUSD: await deploy(
      encodeDeployData({ abi: resetToken.abi, bytecode: resetToken.bytecode, args: ['Reset USD', 'RUSD', 6] }),
      'deploy RUSD',
    ),
    QUSD: await deploy(
      encodeDeployData({ abi: resetToken.abi, bytecode: resetToken.bytecode, args: ['Quiet Reset USD', 'QUSD', 6] }),
      'deploy QUSD',
    ),
    DTT: await deploy(encodeDeployData({ abi: deflating.abi, bytecode: deflating.bytecode, args: [10n ** 9n * E18] }), 'deploy DTT'),
    MIS: await deploy(
      encodeDeployData({ abi: mintable.abi, bytecode: mintable.bytecode, args: ['Mismatched Decimals', 'MIS', 8] }),
      'deploy MIS',
    ),
    WRONG: await deploy(
      encodeDeployData({ abi: mintable.abi, bytecode: mintable.bytecode, args: ['Wrong Symbol', 'WRONG', 18] }),
      'deploy WRONG',
    ),
  };
  // Liquidity with WETH on Uniswap V2 (the deployer's WETH is approved to the routers by the standard deployment).
  const amounts = {
    RUSD: 300_000n * 10n ** 6n,
    QUSD: 300_000n * 10n ** 6n,
    DTT: 1_000_000n * E18,
    MIS: 1_000_000n * 10n ** 8n,
    WRONG: 1_000_000n * E18,
  };
  const wethPerPair = 100n * E18;
  for (const symbol of ['RUSD', 'QUSD', 'DTT', 'MIS', 'WRONG'] as const) {
    const token = tokens[symbol];
    if (symbol !== 'DTT')
      await call(token, encodeFunctionData({ abi, functionName: 'mint', args: [deployer, amounts[symbol] * 10n] }), `mint ${symbol}`);
    await call(token, encodeFunctionData({ abi, functionName: 'approve', args: [c.uniswapV2Router02, maxUint256] }), `approve ${symbol}`);
    await call(
      c.uniswapV2Router02,
      encodeFunctionData({
        abi,
        functionName: 'addLiquidity',
        args: [token, t.WETH, amounts[symbol], wethPerPair, 0n, 0n, deployer, DEADLINE],
      }),
      `addLiquidity ${symbol}/WETH`,
    );
  }
  // DTT/WETH on Uniswap V3 at 1 DTT = 0.0001 WETH, with a WETH-only position just past the price.
  const [token0, token1] = sortTokens(tokens.DTT, t.WETH);
  const dttIs0 = token0 === tokens.DTT;
  const tick = dttIs0 ? -DTT_V3_TICK : DTT_V3_TICK;
  await call(
    c.nonfungiblePositionManager,
    encodeFunctionData({
      abi,
      functionName: 'createAndInitializePoolIfNecessary',
      args: [token0, token1, DTT_V3_FEE, getSqrtRatioAtTick(tick)],
    }),
    'create v3 DTT/WETH',
  );
  // WETH is token1 when DTT is token0: a range below the price holds token1 only; otherwise a range above holds token0 only.
  const [tickLower, tickUpper] = dttIs0 ? [tick - 6_000, tick - 60] : [tick + 60, tick + 6_000];
  await call(
    c.nonfungiblePositionManager,
    encodeFunctionData({
      abi,
      functionName: 'mint',
      args: [
        {
          token0,
          token1,
          fee: DTT_V3_FEE,
          tickLower,
          tickUpper,
          amount0Desired: dttIs0 ? 0n : 50n * E18,
          amount1Desired: dttIs0 ? 50n * E18 : 0n,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: deployer,
          deadline: DEADLINE,
        },
      ],
    }),
    'mint v3 DTT/WETH',
  );
  const pair = (token: Address) => v2PairAddress(c.uniswapV2Factory, token, t.WETH, pairInitCodeHash);
  return {
    tokens,
    v2Pairs: { RUSD: pair(tokens.RUSD), QUSD: pair(tokens.QUSD), DTT: pair(tokens.DTT), MIS: pair(tokens.MIS), WRONG: pair(tokens.WRONG) },
    dttV3Pool: v3PoolAddress(c.uniswapV3Factory, tokens.DTT, t.WETH, DTT_V3_FEE, poolInitCodeHash),
    txCount: sender.txCount,
  };
}

/** The devnet (31337) catalogue file with the quirk tokens added as the catalogue would list them (MIS and WRONG wrongly, QUSD unflagged). */
export function quirkCatalog(deployment: QuirkDeployment): Record<string, unknown> {
  const base = devnetCatalog('devnet') as { tokens: unknown[] };
  const d = deployment.tokens;
  return {
    ...base,
    tokens: [
      ...base.tokens,
      { address: d.RUSD, symbol: 'RUSD', name: 'Reset USD', slug: 'reset-usd', decimals: 6, logo: '', approvalReset: true },
      { address: d.QUSD, symbol: 'QUSD', name: 'Quiet Reset USD', slug: 'quiet-reset-usd', decimals: 6, logo: '' },
      { address: d.DTT, symbol: 'DTT', name: 'Deflating Test Token', slug: 'dtt', decimals: 18, logo: '' },
      { address: d.MIS, symbol: 'MIS', name: 'Mismatched Decimals', slug: 'mis', decimals: 18, logo: '' },
      { address: d.WRONG, symbol: 'RIGHT', name: 'Wrong Symbol', slug: 'right', decimals: 18, logo: '' },
    ],
  };
}
