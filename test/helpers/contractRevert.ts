import { BaseError, ContractFunctionExecutionError, ContractFunctionRevertedError } from 'viem';

// Test support (not a test): telling a contract's refusal from every other failure of a read against the devnet.

/** JSON-RPC error code of a reverted call (EIP-1474 / geth / anvil: "execution reverted"). */
const EXECUTION_REVERTED = 3;
/** anvil's answer for an exceptional halt (INVALID opcode, out of gas...): -32603 with "EVM error <reason>". */
const EVM_HALT = /^EVM error [A-Za-z]+/;

/**
 * True when `error` is viem's ContractFunctionExecutionError for a call the contract refused (its cause a
 * ContractFunctionRevertedError that the node reported as a revert, or as an exceptional halt such as Solidity 0.6's
 * division by zero, INVALID), false for anything else: a transport or RPC failure, an ABI encoding or decoding error,
 * a zero-data answer, a bug in the test.
 */
export function isContractRevert(error: unknown): boolean {
  if (!(error instanceof ContractFunctionExecutionError)) return false;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return false;
  // viem maps any InternalRpcError (-32603) with a message to ContractFunctionRevertedError: accept only what the
  // node itself called a revert or an EVM halt.
  const rpc = reverted.walk((e) => e instanceof BaseError && typeof (e as { code?: unknown }).code === 'number');
  if (!(rpc instanceof BaseError)) return false;
  const code = (rpc as BaseError & { code: number }).code;
  return code === EXECUTION_REVERTED || (code === -32603 && EVM_HALT.test(rpc.details));
}

/** Runs `read`; a contract revert becomes `refused`, any other failure is rethrown. */
export async function unlessReverted<T, R>(read: () => Promise<T>, refused: R): Promise<T | R> {
  try {
    return await read();
  } catch (e) {
    if (isContractRevert(e)) return refused;
    throw e;
  }
}
