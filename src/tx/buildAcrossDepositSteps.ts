import { type Address, type Hex, pad } from 'viem';
import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { GAS, gasLimit } from '../routing/gasModel.ts';
import { acrossSpokePoolAbi } from './abis.ts';
import { approveSteps } from './approveStep.ts';
import { encodeCall } from './encodeCall.ts';
import { checkUint256, displayAmount, type Step, type StepToken, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';

/** Calldata encoders of the acrossSpokePool functions used here. */
const acrossSpokePoolCall = {
  depositNow: encodeCall(acrossSpokePoolAbi, 'depositNow'),
};

/** Parameters of {@link buildAcrossDepositSteps}: one Across deposit on the origin chain. */
export interface AcrossDepositParams {
  /** Origin chain id (the chain of every returned step). */
  readonly chainId: number;
  /** The origin chain's SpokePool (proxy). */
  readonly spokePool: string;
  /** How the bridge is named in messages, e.g. 'Across'. */
  readonly bridgeName: string;
  /** The token the wallet gives: an ERC-20, or the native asset (NATIVE_TOKEN_ADDRESS), sent as `value`. */
  readonly inputToken: StepToken;
  /** The origin chain's wrapped native token: the deposit's inputToken when the input is native. */
  readonly wrappedNativeToken: string;
  /** The destination chain's token the relayer pays out (an ERC-20; the wrapped native token pays native to an EOA). */
  readonly outputToken: StepToken;
  /**
   * What the recipient receives, as the message names it: outputToken, or the destination's native asset when
   * outputToken is its wrapped native token (the SpokePool pays that natively to an externally owned account).
   */
  readonly receivedToken: StepToken;
  readonly inputAmount: bigint;
  /** Exactly what the relayer pays the recipient (no partial fills). */
  readonly outputAmount: bigint;
  readonly destinationChainId: number;
  /** Destination chain name for the message. */
  readonly destinationName: string;
  /** Receives the fill on the destination chain. */
  readonly recipient: string;
  /** Sends the steps, and is the depositor (refunded on the origin chain when no relayer fills in time). */
  readonly wallet: string;
  /** Seconds after the deposit block until which a relayer may fill (depositNow fillDeadlineOffset). */
  readonly fillDeadlineOffsetSeconds: number;
  /** The wallet's current allowance of inputToken for the SpokePool, read from the chain; undefined when not read (approveSteps). */
  readonly allowance?: bigint;
}

/** An EVM address as the left-padded bytes32 the SpokePool takes. */
export function addressToBytes32(address: Address): Hex {
  return pad(address, { size: 32 });
}

/**
 * The steps of one Across deposit: an ERC-20 approval of exactly `inputAmount` for the SpokePool (omitted for
 * native input), then `depositNow(depositor = wallet, recipient, inputToken, outputToken, inputAmount, outputAmount,
 * destinationChainId, exclusiveRelayer = 0, fillDeadlineOffset, exclusivityParameter = 0, message = 0x)`.
 * The contract stamps quoteTimestamp with the block time and fillDeadline with block time + offset, so the step
 * never expires by itself; native input deposits the wrapped native token with `value` = inputAmount.
 *
 * Messages (amounts in display units, exact):
 * - `Approve <inputAmount> <inputToken> for <bridgeName> SpokePool`
 * - `Bridge <inputAmount> <inputToken> to <destinationName> through <bridgeName>: <outputAmount> <receivedToken> to <recipient>`
 *   (the assets the wallet sends and the recipient receives: `Bridge 1 ETH …: 0.99955 ETH to …` for a WETH fill paid natively)
 */
export function buildAcrossDepositSteps(params: AcrossDepositParams): Step[] {
  checkUint256(params.inputAmount, 'inputAmount');
  checkUint256(params.outputAmount, 'outputAmount');
  const offset = params.fillDeadlineOffsetSeconds;
  if (!Number.isInteger(offset) || offset <= 0 || offset >= 2 ** 32) {
    throw new StepBuildError(`fillDeadlineOffsetSeconds: must be a positive uint32, got ${offset}`);
  }
  if (!Number.isSafeInteger(params.destinationChainId) || params.destinationChainId <= 0 || params.destinationChainId === params.chainId) {
    throw new StepBuildError(`destinationChainId: must be a chain id other than ${params.chainId}, got ${params.destinationChainId}`);
  }
  const spokePool = stepAddress(params.spokePool, 'spokePool');
  const wallet = stepAddress(params.wallet, 'wallet');
  const recipient = stepAddress(params.recipient, 'recipient');
  const tokenIn = stepAddress(params.inputToken.address, 'inputToken');
  const outputToken = stepAddress(params.outputToken.address, 'outputToken');
  if (outputToken === NATIVE_TOKEN_ADDRESS)
    throw new StepBuildError('outputToken: must be an ERC-20 (the wrapped native token pays native)');
  const native = tokenIn === NATIVE_TOKEN_ADDRESS;
  const inputToken = native ? stepAddress(params.wrappedNativeToken, 'wrappedNativeToken') : tokenIn;
  const data = acrossSpokePoolCall.depositNow([
    addressToBytes32(wallet),
    addressToBytes32(recipient),
    addressToBytes32(inputToken),
    addressToBytes32(outputToken),
    params.inputAmount,
    params.outputAmount,
    BigInt(params.destinationChainId),
    addressToBytes32('0x0000000000000000000000000000000000000000'),
    offset,
    0,
    '0x',
  ]);
  const steps: Step[] = [];
  if (!native) {
    steps.push(
      ...approveSteps({
        chainId: params.chainId,
        token: params.inputToken,
        spender: spokePool,
        spenderName: `${params.bridgeName} SpokePool`,
        amount: params.inputAmount,
        wallet,
        allowance: params.allowance,
      }),
    );
  }
  const amount = params.inputAmount.toString();
  steps.push({
    message:
      `Bridge ${displayAmount(params.inputAmount, params.inputToken)} ${params.inputToken.symbol} to ${params.destinationName} through ${params.bridgeName}: ` +
      `${displayAmount(params.outputAmount, params.receivedToken)} ${params.receivedToken.symbol} to ${recipient}`,
    from: wallet,
    to: spokePool,
    data,
    amount,
    chainId: params.chainId,
    ...(native ? { value: amount } : {}),
    gasLimit: gasLimit(native ? GAS.acrossDeposit.native : GAS.acrossDeposit.erc20).toString(),
  });
  return steps;
}
