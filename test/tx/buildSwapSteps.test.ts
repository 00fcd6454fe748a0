import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { decodeFunctionData, getAddress, type Abi, type Hex } from 'viem';
import { buildSwapSteps, type SwapStepsParams } from '../../src/tx/buildSwapSteps.ts';
import { StepBuildError } from '../../src/tx/StepBuildError.ts';

// Calldata is decoded with the ABIs of the compiled contracts, not with src/tx/abis.ts.
const require = createRequire(import.meta.url);
const artifact = (path: string): Abi => (JSON.parse(readFileSync(require.resolve(path), 'utf8')) as { abi: Abi }).abi;
const V2_ROUTER_ABI = artifact('@uniswap/v2-periphery/build/UniswapV2Router02.json');
const SWAP_ROUTER_ABI = artifact('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json');
const SWAP_ROUTER02_ABI = artifact('@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json');
const ERC20_ABI = artifact('@uniswap/v2-core/build/IERC20.json');

const decode = (abi: Abi, data: Hex): { functionName: string; args: readonly unknown[] } => {
  const { functionName, args } = decodeFunctionData({ abi, data });
  return { functionName, args: args ?? [] };
};

const NATIVE = { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 };
const WETH = { address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', symbol: 'WETH', decimals: 18 };
const USDC = { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', decimals: 6 };
const WBTC = { address: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', symbol: 'WBTC', decimals: 8 };
const V2_ROUTER = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D';
const SWAP_ROUTER = '0xE592427A0AEce92De3Edee1F18E0157C05861564';
const SWAP_ROUTER02 = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const DEADLINE = 1_900_000_000;

const V2 = { name: 'Uniswap V2', version: 'v2', v2RouterAddress: V2_ROUTER, v3RouterAddress: '', v3RouterKind: '' } as const;
const V3_SR = { name: 'Uniswap V3', version: 'v3', v2RouterAddress: '', v3RouterAddress: SWAP_ROUTER, v3RouterKind: 'SwapRouter' } as const;
const V3_SR02 = { name: 'Uniswap V3', version: 'v3', v2RouterAddress: '', v3RouterAddress: SWAP_ROUTER02, v3RouterKind: 'SwapRouter02' } as const;

const base = (over: Partial<SwapStepsParams>): SwapStepsParams => ({
  chainId: 1,
  dex: V2,
  tokenIn: USDC,
  tokenOut: WBTC,
  wrappedNativeToken: WETH.address,
  amountIn: 1_500_250_000n, // 1500.25 USDC
  amountOutMinimum: 2_480_000n,
  // lower case on purpose: steps carry checksummed addresses
  recipient: RECIPIENT.toLowerCase(),
  wallet: WALLET.toLowerCase(),
  deadline: DEADLINE,
  ...over,
});

type BuiltStep = ReturnType<typeof buildSwapSteps>[number];

/** The approval step with its calldata decoded, to compare as one value. */
const approvalView = (step: BuiltStep): Record<string, unknown> => ({ ...step, data: decode(ERC20_ABI, step.data) });
const expectedApproval = (router: string, dexName: string): Record<string, unknown> => ({
  message: `Approve 1500.25 USDC for ${dexName} router`,
  from: WALLET,
  to: USDC.address,
  data: { functionName: 'approve', args: [router, 1_500_250_000n] },
  amount: '1500250000',
  chainId: 1,
  spender: router,
});

t.test('buildSwapSteps v2: ERC-20 in, ERC-20 out', async (t) => {
  const steps = buildSwapSteps(base({}));
  t.equal(steps.length, 2);
  t.strictSame(approvalView(steps[0]!), expectedApproval(V2_ROUTER, 'Uniswap V2'));
  const swap = steps[1]!;
  t.strictSame(
    { ...swap, data: undefined },
    { message: 'Swap 1500.25 USDC for WBTC on Uniswap V2', from: WALLET, to: V2_ROUTER, data: undefined, amount: '1500250000', chainId: 1 },
  );
  t.notOk('value' in swap, 'no value on an ERC-20 input');
  t.strictSame(decode(V2_ROUTER_ABI, swap.data), {
    functionName: 'swapExactTokensForTokens',
    args: [1_500_250_000n, 2_480_000n, [USDC.address, WBTC.address], RECIPIENT, 1_900_000_000n],
  });
});

t.test('buildSwapSteps v2: native in', async (t) => {
  const steps = buildSwapSteps(base({ tokenIn: NATIVE, tokenOut: USDC, amountIn: 1_500_000_000_000_000_000n, amountOutMinimum: 4_400_123_456n }));
  t.equal(steps.length, 1, 'no approval for the native asset');
  const swap = steps[0]!;
  t.equal(swap.message, 'Swap 1.5 ETH for USDC on Uniswap V2');
  t.equal(swap.to, V2_ROUTER);
  t.equal(swap.value, '1500000000000000000');
  t.equal(swap.amount, '1500000000000000000');
  t.equal(swap.spender, undefined);
  t.strictSame(decode(V2_ROUTER_ABI, swap.data), {
    functionName: 'swapExactETHForTokens',
    args: [4_400_123_456n, [WETH.address, USDC.address], RECIPIENT, 1_900_000_000n],
  });
});

t.test('buildSwapSteps v2: native out', async (t) => {
  const steps = buildSwapSteps(base({ tokenOut: NATIVE, amountOutMinimum: 499_000_000_000_000_000n }));
  t.equal(steps.length, 2);
  t.strictSame(approvalView(steps[0]!), expectedApproval(V2_ROUTER, 'Uniswap V2'));
  t.equal(steps[1]!.message, 'Swap 1500.25 USDC for ETH on Uniswap V2');
  t.equal(steps[1]!.value, undefined);
  t.strictSame(decode(V2_ROUTER_ABI, steps[1]!.data), {
    functionName: 'swapExactTokensForETH',
    args: [1_500_250_000n, 499_000_000_000_000_000n, [USDC.address, WETH.address], RECIPIENT, 1_900_000_000n],
  });
});

const srParams = (tokenIn: string, tokenOut: string, recipient: string, amountIn: bigint, amountOutMinimum: bigint): Record<string, unknown> => ({
  tokenIn, tokenOut, fee: 500, recipient, deadline: 1_900_000_000n, amountIn, amountOutMinimum, sqrtPriceLimitX96: 0n,
});
const sr02Params = (tokenIn: string, tokenOut: string, recipient: string, amountIn: bigint, amountOutMinimum: bigint): Record<string, unknown> => ({
  tokenIn, tokenOut, fee: 500, recipient, amountIn, amountOutMinimum, sqrtPriceLimitX96: 0n,
});

t.test('buildSwapSteps v3 SwapRouter: ERC-20 in, ERC-20 out (plain exactInputSingle, deadline in the params)', async (t) => {
  const steps = buildSwapSteps(base({ dex: V3_SR, poolFee: 500 }));
  t.equal(steps.length, 2);
  t.strictSame(approvalView(steps[0]!), expectedApproval(SWAP_ROUTER, 'Uniswap V3'));
  t.equal(steps[1]!.message, 'Swap 1500.25 USDC for WBTC on Uniswap V3');
  t.equal(steps[1]!.to, SWAP_ROUTER);
  t.strictSame(decode(SWAP_ROUTER_ABI, steps[1]!.data), {
    functionName: 'exactInputSingle',
    args: [srParams(USDC.address, WBTC.address, RECIPIENT, 1_500_250_000n, 2_480_000n)],
  });
});

t.test('buildSwapSteps v3 SwapRouter: native in (multicall: exactInputSingle from WETH, refundETH)', async (t) => {
  const steps = buildSwapSteps(base({ dex: V3_SR, poolFee: 500, tokenIn: NATIVE, tokenOut: USDC, amountIn: 10n ** 18n, amountOutMinimum: 2_990_000_000n }));
  t.equal(steps.length, 1);
  const swap = steps[0]!;
  t.equal(swap.message, 'Swap 1 ETH for USDC on Uniswap V3');
  t.equal(swap.value, '1000000000000000000');
  const outer = decode(SWAP_ROUTER_ABI, swap.data);
  t.equal(outer.functionName, 'multicall');
  t.equal(outer.args.length, 1, 'multicall(bytes[]): no deadline argument');
  const inner = outer.args[0] as Hex[];
  t.equal(inner.length, 2);
  t.strictSame(decode(SWAP_ROUTER_ABI, inner[0]!), {
    functionName: 'exactInputSingle',
    args: [srParams(WETH.address, USDC.address, RECIPIENT, 10n ** 18n, 2_990_000_000n)],
  });
  t.strictSame(decode(SWAP_ROUTER_ABI, inner[1]!), { functionName: 'refundETH', args: [] });
});

t.test('buildSwapSteps v3 SwapRouter: native out (swap to the router, unwrapWETH9 to the recipient)', async (t) => {
  const steps = buildSwapSteps(base({ dex: V3_SR, poolFee: 500, tokenOut: NATIVE, amountOutMinimum: 499_000_000_000_000_000n }));
  t.equal(steps.length, 2);
  t.strictSame(approvalView(steps[0]!), expectedApproval(SWAP_ROUTER, 'Uniswap V3'));
  const outer = decode(SWAP_ROUTER_ABI, steps[1]!.data);
  t.equal(outer.functionName, 'multicall');
  const inner = outer.args[0] as Hex[];
  t.equal(inner.length, 2);
  t.strictSame(decode(SWAP_ROUTER_ABI, inner[0]!), {
    functionName: 'exactInputSingle',
    args: [srParams(USDC.address, WETH.address, SWAP_ROUTER, 1_500_250_000n, 499_000_000_000_000_000n)],
  });
  t.strictSame(decode(SWAP_ROUTER_ABI, inner[1]!), { functionName: 'unwrapWETH9', args: [499_000_000_000_000_000n, RECIPIENT] });
});

t.test('buildSwapSteps v3 SwapRouter02: ERC-20 in, ERC-20 out (multicall(deadline, [exactInputSingle]))', async (t) => {
  const steps = buildSwapSteps(base({ dex: V3_SR02, poolFee: 500 }));
  t.equal(steps.length, 2);
  t.strictSame(approvalView(steps[0]!), expectedApproval(SWAP_ROUTER02, 'Uniswap V3'));
  t.equal(steps[1]!.to, SWAP_ROUTER02);
  const outer = decode(SWAP_ROUTER02_ABI, steps[1]!.data);
  t.equal(outer.functionName, 'multicall');
  t.equal(outer.args[0], 1_900_000_000n, 'deadline is multicall\'s first argument');
  const inner = outer.args[1] as Hex[];
  t.equal(inner.length, 1);
  t.strictSame(decode(SWAP_ROUTER02_ABI, inner[0]!), {
    functionName: 'exactInputSingle',
    args: [sr02Params(USDC.address, WBTC.address, RECIPIENT, 1_500_250_000n, 2_480_000n)],
  });
});

t.test('buildSwapSteps v3 SwapRouter02: native in', async (t) => {
  const steps = buildSwapSteps(base({ dex: V3_SR02, poolFee: 500, tokenIn: NATIVE, tokenOut: USDC, amountIn: 123_456_789_000_000_000n, amountOutMinimum: 1n }));
  t.equal(steps.length, 1);
  t.equal(steps[0]!.message, 'Swap 0.123456789 ETH for USDC on Uniswap V3');
  t.equal(steps[0]!.value, '123456789000000000');
  const outer = decode(SWAP_ROUTER02_ABI, steps[0]!.data);
  t.equal(outer.args[0], 1_900_000_000n);
  const inner = outer.args[1] as Hex[];
  t.equal(inner.length, 2);
  t.strictSame(decode(SWAP_ROUTER02_ABI, inner[0]!), {
    functionName: 'exactInputSingle',
    args: [sr02Params(WETH.address, USDC.address, RECIPIENT, 123_456_789_000_000_000n, 1n)],
  });
  t.strictSame(decode(SWAP_ROUTER02_ABI, inner[1]!), { functionName: 'refundETH', args: [] });
});

t.test('buildSwapSteps v3 SwapRouter02: native out (ADDRESS_THIS = address(2), then unwrapWETH9(min, recipient))', async (t) => {
  const steps = buildSwapSteps(base({ dex: V3_SR02, poolFee: 3000, tokenIn: WBTC, tokenOut: NATIVE, amountIn: 12_345_678n, amountOutMinimum: 2_000_000_000_000_000_000n }));
  t.equal(steps.length, 2);
  t.equal(steps[0]!.message, 'Approve 0.12345678 WBTC for Uniswap V3 router');
  t.strictSame(decode(ERC20_ABI, steps[0]!.data), { functionName: 'approve', args: [SWAP_ROUTER02, 12_345_678n] });
  t.equal(steps[1]!.message, 'Swap 0.12345678 WBTC for ETH on Uniswap V3');
  const outer = decode(SWAP_ROUTER02_ABI, steps[1]!.data);
  t.equal(outer.args[0], 1_900_000_000n);
  const inner = outer.args[1] as Hex[];
  t.equal(inner.length, 2);
  t.strictSame(decode(SWAP_ROUTER02_ABI, inner[0]!), {
    functionName: 'exactInputSingle',
    args: [{ ...sr02Params(WBTC.address, WETH.address, '0x0000000000000000000000000000000000000002', 12_345_678n, 2_000_000_000_000_000_000n), fee: 3000 }],
  });
  const unwrap = decode(SWAP_ROUTER02_ABI, inner[1]!);
  t.strictSame(unwrap, { functionName: 'unwrapWETH9', args: [2_000_000_000_000_000_000n, RECIPIENT] });
  t.equal(inner[1]!.slice(0, 10), '0x49404b7c', 'the two-argument unwrapWETH9(uint256,address) overload');
});

t.test('buildSwapSteps refuses parameters the quote layer must never produce', async (t) => {
  const cases: [Partial<SwapStepsParams>, RegExp][] = [
    [{ amountIn: 0n }, /^amountIn: must be a positive uint256/],
    [{ amountOutMinimum: -1n }, /^amountOutMinimum: must be a non-negative uint256/],
    [{ deadline: 1.5 }, /^deadline: /],
    [{ tokenOut: USDC }, /^tokenIn\/tokenOut: both are/],
    [{ tokenIn: NATIVE, tokenOut: WETH }, /use buildWrapSteps$/],
    [{ tokenIn: WETH, tokenOut: NATIVE }, /use buildWrapSteps$/],
    [{ recipient: '0x1234' }, /^recipient: "0x1234" is not a valid EVM address$/],
    [{ dex: V3_SR }, /^poolFee: a v3 swap needs the pool fee in pips/],
    [{ dex: { ...V3_SR, v3RouterKind: '' }, poolFee: 500 }, /^dex\.v3RouterKind: "" is not SwapRouter or SwapRouter02/],
    [{ dex: { ...V2, v2RouterAddress: '' } }, /^dex\.v2RouterAddress: "" is not a valid EVM address$/],
  ];
  for (const [over, message] of cases) {
    t.throws(() => buildSwapSteps(base(over)), { name: 'StepBuildError', code: 'STEP_BUILD_FAILED', status: 500, message }, String(message));
  }
  t.ok(new StepBuildError('x') instanceof Error);
  t.equal(getAddress(RECIPIENT), RECIPIENT);
});
