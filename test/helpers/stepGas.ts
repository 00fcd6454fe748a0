import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import { gasLimit, transactionGas } from '../../src/routing/gasModel.ts';
import type { ExecutorKind, Route } from '../../src/routing/Trade.ts';
import { approveSteps } from '../../src/tx/approveStep.ts';

// Test support (not a test): the gasLimit a step-building test expects, from the gas model's public functions for
// the step's own routes, never from its figures. Whether those figures are right is tested against the chain:
// test/routing/gasModel.test.ts (the devnet's recorded gasUsed) and test/tx/buildTradeSteps.devnet.test.ts.

/** The gasLimit of a swap transaction to a `kind` executor carrying `routes`, as the gas model sizes it. */
export function swapLimit(
  kind: ExecutorKind,
  routes: readonly Route[],
  options: { nativeIn?: boolean; nativeOut?: boolean; tradeType?: TradeType } = {},
): string {
  const legs = routes.map((r) => r.legs);
  return gasLimit(
    transactionGas(kind, legs, options.nativeIn ?? false, options.nativeOut ?? false, options.tradeType ?? 'exactIn'),
  ).toString();
}

/** The gasLimit of one ERC-20 approve step, as approveSteps sizes it (checked against the chain in approveStep.test.ts). */
export const APPROVE_LIMIT: string = approveSteps({
  chainId: 1,
  token: { address: '0x0000000000000000000000000000000000000001', symbol: 'X', decimals: 18 },
  spender: '0x0000000000000000000000000000000000000002',
  spenderName: 'a router',
  amount: 1n,
  wallet: '0x0000000000000000000000000000000000000003',
})[0].gasLimit!;
