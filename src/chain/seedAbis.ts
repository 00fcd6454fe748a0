import { parseAbi } from 'viem';

/** Multicall3.aggregate3: every call may fail on its own. */
export const multicall3Abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
]);

export const erc20BalanceAbi = parseAbi(['function balanceOf(address account) view returns (uint256)']);
