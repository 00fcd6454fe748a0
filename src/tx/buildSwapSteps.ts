import { encodeFunctionData, type Address, type Hex } from 'viem';
import { NATIVE_TOKEN_ADDRESS, type CatalogDex } from '../catalog/loadCatalog.ts';
import { SWAP_ROUTER02_ADDRESS_THIS, swapRouter02Abi, swapRouterAbi, uniswapV2Router02Abi } from './abis.ts';
import { approveSteps } from './approveStep.ts';
import { StepBuildError } from './StepBuildError.ts';
import { checkUint256, displayAmount, stepAddress, type Step, type StepToken } from './Step.ts';

/** Parameters of {@link buildSwapSteps}: one exact-input swap through one pool of one DEX deployment. */
export interface SwapStepsParams {
  readonly chainId: number;
  /** The DEX deployment; v2 uses `v2RouterAddress`, v3 uses `v3RouterAddress` of kind `v3RouterKind`. */
  readonly dex: Pick<CatalogDex, 'name' | 'version' | 'v2RouterAddress' | 'v3RouterAddress' | 'v3RouterKind'>;
  /** v3 only: the pool's fee in pips (hundredths of a bip), e.g. 500 or 3000. Ignored for v2. */
  readonly poolFee?: number;
  /** Either may be the native asset (NATIVE_TOKEN_ADDRESS); not both, and not native ↔ wrapped (see buildWrapSteps). */
  readonly tokenIn: StepToken;
  readonly tokenOut: StepToken;
  /** The chain's wrapped native token (CatalogChain.wrappedNativeToken): the pool's side of the native asset. */
  readonly wrappedNativeToken: string;
  readonly amountIn: bigint;
  /** Enforced on chain: the swap reverts when it would pay the recipient less. */
  readonly amountOutMinimum: bigint;
  /** Receives the output. */
  readonly recipient: string;
  /** Sends every step (SPEC `walletAddress`). */
  readonly wallet: string;
  /** Unix seconds; the router reverts once `block.timestamp` is past it. */
  readonly deadline: number;
}

/**
 * The ordered steps of one same-chain exact-input swap: an ERC-20 approval of exactly `amountIn` for the router
 * (omitted for native input), then the swap, with `amountOutMinimum` and `deadline` enforced in the calldata.
 *
 * Router calls:
 * - v2 (UniswapV2Router02): `swapExactTokensForTokens`, `swapExactETHForTokens` (native in, `value`),
 *   `swapExactTokensForETH` (native out); the path runs through the wrapped native token on the native side.
 * - v3 `SwapRouter` (v3-periphery): `exactInputSingle` with the deadline in its params; native in:
 *   `multicall([exactInputSingle, refundETH])` with `value`; native out: `multicall([exactInputSingle to the router
 *   itself, unwrapWETH9(amountOutMinimum, recipient)])`.
 * - v3 `SwapRouter02` (swap-router-contracts): `multicall(deadline, [...])` around the same calls (its
 *   `exactInputSingle` has no deadline); native out swaps to `ADDRESS_THIS` (address(2)) before `unwrapWETH9`.
 * `sqrtPriceLimitX96` is always 0 (no limit). `refundETH` returns any native input the pool did not take.
 *
 * Messages (amounts in display units, exact; symbols and `dex.name` from the catalogue):
 * - `Approve <amountIn> <tokenIn> for <dex name> router`, e.g. `Approve 1500.25 USDC for Uniswap V3 router`
 * - `Swap <amountIn> <tokenIn> for <tokenOut> on <dex name>`, e.g. `Swap 1.5 ETH for USDC on Uniswap V3`
 *
 * `amount` is `amountIn` on both steps; `value` (= `amountIn`) is present only on a native-input swap step.
 */
export function buildSwapSteps(params: SwapStepsParams): Step[] {
  checkUint256(params.amountIn, 'amountIn');
  checkUint256(params.amountOutMinimum, 'amountOutMinimum', true);
  if (!Number.isSafeInteger(params.deadline) || params.deadline <= 0) {
    throw new StepBuildError(`deadline: must be a positive integer of Unix seconds, got ${params.deadline}`);
  }
  const wrapped = stepAddress(params.wrappedNativeToken, 'wrappedNativeToken');
  const tokenIn = stepAddress(params.tokenIn.address, 'tokenIn');
  const tokenOut = stepAddress(params.tokenOut.address, 'tokenOut');
  const nativeIn = tokenIn === NATIVE_TOKEN_ADDRESS;
  const nativeOut = tokenOut === NATIVE_TOKEN_ADDRESS;
  if (tokenIn === tokenOut) throw new StepBuildError(`tokenIn/tokenOut: both are ${tokenIn}`);
  const poolIn = nativeIn ? wrapped : tokenIn;
  const poolOut = nativeOut ? wrapped : tokenOut;
  if (poolIn === poolOut) throw new StepBuildError(`tokenIn/tokenOut: ${tokenIn} -> ${tokenOut} is a wrap or unwrap; use buildWrapSteps`);

  const swap: SwapCall = {
    wallet: stepAddress(params.wallet, 'wallet'),
    recipient: stepAddress(params.recipient, 'recipient'),
    poolIn,
    poolOut,
    nativeIn,
    nativeOut,
    amountIn: params.amountIn,
    amountOutMinimum: params.amountOutMinimum,
    deadline: BigInt(params.deadline),
  };
  const { dex } = params;
  let router: Address;
  let data: Hex;
  if (dex.version === 'v2') {
    router = stepAddress(dex.v2RouterAddress, 'dex.v2RouterAddress');
    data = v2SwapData(swap);
  } else if (dex.version === 'v3') {
    router = stepAddress(dex.v3RouterAddress, 'dex.v3RouterAddress');
    const fee = params.poolFee;
    if (fee === undefined || !Number.isInteger(fee) || fee < 0 || fee >= 1_000_000) {
      throw new StepBuildError(`poolFee: a v3 swap needs the pool fee in pips, got ${fee}`);
    }
    if (dex.v3RouterKind === 'SwapRouter') data = swapRouterData(swap, router, fee);
    else if (dex.v3RouterKind === 'SwapRouter02') data = swapRouter02Data(swap, fee);
    else throw new StepBuildError(`dex.v3RouterKind: "${dex.v3RouterKind}" is not SwapRouter or SwapRouter02 (${dex.name})`);
  } else {
    throw new StepBuildError(`dex.version: "${String(dex.version)}" is not v2 or v3 (${dex.name})`);
  }

  const steps: Step[] = [];
  if (!nativeIn) {
    steps.push(
      ...approveSteps({
        chainId: params.chainId,
        token: params.tokenIn,
        spender: router,
        spenderName: `${dex.name} router`,
        amount: params.amountIn,
        wallet: swap.wallet,
      }),
    );
  }
  const amount = params.amountIn.toString();
  steps.push({
    message: `Swap ${displayAmount(params.amountIn, params.tokenIn)} ${params.tokenIn.symbol} for ${params.tokenOut.symbol} on ${dex.name}`,
    from: swap.wallet,
    to: router,
    data,
    amount,
    chainId: params.chainId,
    ...(nativeIn ? { value: amount } : {}),
  });
  return steps;
}

/** Checked, checksummed inputs shared by the router encoders. */
interface SwapCall {
  readonly wallet: Address;
  readonly recipient: Address;
  /** The pool's input and output tokens (wrapped native on a native side). */
  readonly poolIn: Address;
  readonly poolOut: Address;
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  readonly amountIn: bigint;
  readonly amountOutMinimum: bigint;
  readonly deadline: bigint;
}

/** UniswapV2Router02 calldata; `path` is the direct pair. */
function v2SwapData(s: SwapCall): Hex {
  const path = [s.poolIn, s.poolOut] as const;
  if (s.nativeIn) {
    return encodeFunctionData({
      abi: uniswapV2Router02Abi,
      functionName: 'swapExactETHForTokens',
      args: [s.amountOutMinimum, path, s.recipient, s.deadline],
    });
  }
  return encodeFunctionData({
    abi: uniswapV2Router02Abi,
    functionName: s.nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
    args: [s.amountIn, s.amountOutMinimum, path, s.recipient, s.deadline],
  });
}

/** v3-periphery SwapRouter calldata: deadline in the params; multicall(bytes[]) when a payment call follows. */
function swapRouterData(s: SwapCall, router: Address, fee: number): Hex {
  const swap = encodeFunctionData({
    abi: swapRouterAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: s.poolIn,
        tokenOut: s.poolOut,
        fee,
        recipient: s.nativeOut ? router : s.recipient,
        deadline: s.deadline,
        amountIn: s.amountIn,
        amountOutMinimum: s.amountOutMinimum,
        sqrtPriceLimitX96: 0n,
      },
    ],
  });
  const after = paymentCall(s, swapRouterAbi);
  if (after === undefined) return swap;
  return encodeFunctionData({ abi: swapRouterAbi, functionName: 'multicall', args: [[swap, after]] });
}

/** SwapRouter02 calldata: always multicall(deadline, data), since its exactInputSingle carries no deadline. */
function swapRouter02Data(s: SwapCall, fee: number): Hex {
  const swap = encodeFunctionData({
    abi: swapRouter02Abi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: s.poolIn,
        tokenOut: s.poolOut,
        fee,
        recipient: s.nativeOut ? SWAP_ROUTER02_ADDRESS_THIS : s.recipient,
        amountIn: s.amountIn,
        amountOutMinimum: s.amountOutMinimum,
        sqrtPriceLimitX96: 0n,
      },
    ],
  });
  const after = paymentCall(s, swapRouter02Abi);
  const data = after === undefined ? [swap] : [swap, after];
  return encodeFunctionData({ abi: swapRouter02Abi, functionName: 'multicall', args: [s.deadline, data] });
}

/** The call after the swap: unwrap to the recipient (native out), refund unused value (native in), or none. */
function paymentCall(s: SwapCall, abi: typeof swapRouterAbi | typeof swapRouter02Abi): Hex | undefined {
  if (s.nativeOut) {
    return encodeFunctionData({ abi, functionName: 'unwrapWETH9', args: [s.amountOutMinimum, s.recipient] });
  }
  if (s.nativeIn) return encodeFunctionData({ abi, functionName: 'refundETH' });
  return undefined;
}
