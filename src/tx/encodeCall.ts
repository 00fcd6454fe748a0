import {
  type Abi,
  type AbiFunction,
  type AbiStateMutability,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
  toFunctionSelector,
} from 'viem';
import { abiEncodeAfter } from './abiEncode.ts';

/**
 * The calldata encoder of one function of an ABI: the 4-byte selector resolved once (viem's encodeFunctionData looks
 * the item up by name and hashes its signature on every call), the arguments by abiEncode. The bytes are
 * encodeFunctionData's (test/tx/encodeCall.test.ts). Our ABIs (src/tx/abis.ts) have no overloaded names.
 */
export function encodeCall<const TAbi extends Abi, TName extends ContractFunctionName<TAbi>>(
  abi: TAbi,
  name: TName,
): (args: ContractFunctionArgs<TAbi, AbiStateMutability, TName>) => Hex {
  const items = abi.filter((item): item is AbiFunction => item.type === 'function' && item.name === name);
  if (items.length !== 1) throw new Error(`encodeCall: ${items.length} functions named ${name} in the ABI (one expected)`);
  const item = items[0];
  const selector = toFunctionSelector(item);
  if (item.inputs.length === 0) return () => selector;
  return (args) => abiEncodeAfter(selector, item.inputs, args as readonly unknown[]) as Hex;
}
