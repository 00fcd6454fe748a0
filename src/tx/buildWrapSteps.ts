import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { GAS, gasLimit, wrapGas } from '../routing/gasModel.ts';
import { erc20Abi, weth9Abi } from './abis.ts';
import { encodeCall } from './encodeCall.ts';
import { checkUint256, displayAmount, type Step, type StepToken, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';

/** Calldata encoders of the WETH9 and ERC-20 functions used here. */
const weth9Call = { deposit: encodeCall(weth9Abi, 'deposit'), withdraw: encodeCall(weth9Abi, 'withdraw') };
const erc20Call = { transfer: encodeCall(erc20Abi, 'transfer') };

/** Parameters of {@link buildWrapSteps}: the native asset and the chain's wrapped native token, one on each side. */
export interface WrapStepsParams {
  readonly chainId: number;
  readonly tokenIn: StepToken;
  readonly tokenOut: StepToken;
  /** The chain's wrapped native token (CatalogChain.wrappedNativeToken). */
  readonly wrappedNativeToken: string;
  /** Amount in and out (1:1), smallest units. */
  readonly amount: bigint;
  readonly recipient: string;
  readonly wallet: string;
}

/**
 * Steps that wrap the native asset into the wrapped native token (WETH9 `deposit()` with `value`) or unwrap it
 * (`withdraw(amount)`, no approval: the holder burns its own tokens), 1:1. WETH9 credits the sender, so when the
 * recipient is not the wallet a second step hands the result over.
 *
 * Messages (amounts in display units, exact; symbols from the tokens given):
 * - `Wrap <amount> <native> into <wrapped>`, e.g. `Wrap 1.5 ETH into WETH` — WETH9 `deposit()`, `value` = amount
 * - `Unwrap <amount> <wrapped> into <native>`, e.g. `Unwrap 1.5 WETH into ETH` — WETH9 `withdraw(amount)`
 * - then, only when recipient ≠ wallet: `Send <amount> <symbol> to <recipient>` — after a wrap, WETH
 *   `transfer(recipient, amount)`; after an unwrap, a plain native transfer (`to` = recipient, `data` '0x',
 *   `value` = amount).
 * `gasLimit` (src/routing/gasModel.ts with its margin): the WETH9 call (`wrapGas`), then the hand-over (`GAS.send`).
 */
export function buildWrapSteps(params: WrapStepsParams): Step[] {
  checkUint256(params.amount, 'amount');
  const wrapped = stepAddress(params.wrappedNativeToken, 'wrappedNativeToken');
  const tokenIn = stepAddress(params.tokenIn.address, 'tokenIn');
  const tokenOut = stepAddress(params.tokenOut.address, 'tokenOut');
  const wallet = stepAddress(params.wallet, 'wallet');
  const recipient = stepAddress(params.recipient, 'recipient');
  const wrap = tokenIn === NATIVE_TOKEN_ADDRESS && tokenOut === wrapped;
  const unwrap = tokenIn === wrapped && tokenOut === NATIVE_TOKEN_ADDRESS;
  if (!wrap && !unwrap) {
    throw new StepBuildError(`tokenIn/tokenOut: ${tokenIn} -> ${tokenOut} is not a wrap or unwrap of ${wrapped}`);
  }
  const amount = params.amount.toString();
  const shown = displayAmount(params.amount, params.tokenIn);
  const base = { from: wallet, amount, chainId: params.chainId };
  const call = { ...base, gasLimit: gasLimit(wrapGas(wrap)).toString() };
  const steps: Step[] = [
    wrap
      ? {
          ...call,
          message: `Wrap ${shown} ${params.tokenIn.symbol} into ${params.tokenOut.symbol}`,
          to: wrapped,
          data: weth9Call.deposit([]),
          value: amount,
        }
      : {
          ...call,
          message: `Unwrap ${shown} ${params.tokenIn.symbol} into ${params.tokenOut.symbol}`,
          to: wrapped,
          data: weth9Call.withdraw([params.amount]),
        },
  ];
  if (recipient !== wallet) {
    const message = `Send ${shown} ${params.tokenOut.symbol} to ${recipient}`;
    steps.push(
      wrap
        ? {
            ...base,
            message,
            to: wrapped,
            data: erc20Call.transfer([recipient, params.amount]),
            gasLimit: gasLimit(GAS.send.erc20).toString(),
          }
        : { ...base, message, to: recipient, data: '0x', value: amount, gasLimit: gasLimit(GAS.send.native).toString() },
    );
  }
  return steps;
}
