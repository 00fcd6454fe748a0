import { encodeFunctionData } from 'viem';
import { NATIVE_TOKEN_ADDRESS } from '../catalog/loadCatalog.ts';
import { GAS, gasLimit } from '../routing/gasModel.ts';
import { erc20Abi } from './abis.ts';
import { StepBuildError } from './StepBuildError.ts';
import { checkUint256, displayAmount, stepAddress, type Step, type StepToken } from './Step.ts';

/** Parameters of {@link approveStep}. */
export interface ApproveStepParams {
  readonly chainId: number;
  /** The ERC-20 token to approve (never the native asset). */
  readonly token: StepToken;
  /** Contract allowed to spend: a DEX router, a bridge's SpokePool. */
  readonly spender: string;
  /** How the spender is named in the message, e.g. 'Uniswap V3 router' or 'Across SpokePool'. */
  readonly spenderName: string;
  /** Exactly the amount the next step spends, smallest units. */
  readonly amount: bigint;
  /** The wallet that sends the step. */
  readonly wallet: string;
}

/**
 * An ERC-20 `approve(spender, amount)` step for exactly `amount`; `to` is the token.
 * Message: `Approve <amount> <symbol> for <spenderName>`, e.g. `Approve 1500.25 USDC for Uniswap V3 router`
 * (the amount in display units, exact, without trailing zeros). `gasLimit`: the gas model's approval with its margin.
 */
export function approveStep(params: ApproveStepParams): Step {
  checkUint256(params.amount, 'amount');
  const token = stepAddress(params.token.address, 'token');
  if (token === NATIVE_TOKEN_ADDRESS) throw new StepBuildError('token: the native asset needs no approval');
  const spender = stepAddress(params.spender, 'spender');
  return {
    message: `Approve ${displayAmount(params.amount, params.token)} ${params.token.symbol} for ${params.spenderName}`,
    from: stepAddress(params.wallet, 'wallet'),
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, params.amount] }),
    amount: params.amount.toString(),
    chainId: params.chainId,
    spender,
    gasLimit: gasLimit(GAS.approve).toString(),
  };
}
