// Calldata of router steps decoded with the ABIs of the compiled contracts (not src/tx/abis.ts), and v3 packed
// paths parsed byte by byte, so that tests compare what a contract would read.
import { type Abi, type Address, decodeFunctionData, getAddress, type Hex } from 'viem';
import { artifactAbi } from './devnetWallet.ts';

export const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');
export const SWAP_ROUTER_ABI = artifactAbi('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json');
export const SWAP_ROUTER02_ABI = artifactAbi('@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json');
export const ERC20_ABI = artifactAbi('@uniswap/v2-core/build/IERC20.json');

export interface DecodedCall {
  readonly functionName: string;
  readonly args: readonly unknown[];
}

export function decode(abi: Abi, data: Hex): DecodedCall {
  const { functionName, args } = decodeFunctionData({ abi, data });
  return { functionName, args: args ?? [] };
}

/** A multicall's inner calls, each decoded (SwapRouter02 multicall(deadline, data) or SwapRouter multicall(data)). */
export function decodeMulticall(abi: Abi, data: Hex): { deadline?: bigint; calls: DecodedCall[] } {
  const outer = decode(abi, data);
  if (outer.functionName !== 'multicall') throw new Error(`not a multicall: ${outer.functionName}`);
  const inner = (outer.args.length === 2 ? outer.args[1] : outer.args[0]) as Hex[];
  return { ...(outer.args.length === 2 ? { deadline: outer.args[0] as bigint } : {}), calls: inner.map((c) => decode(abi, c)) };
}

/** A v3 packed path read as Path.sol does: 20-byte token, 3-byte fee, 20-byte token, … */
export function parsePackedPath(path: Hex): { tokens: Address[]; fees: number[] } {
  const bytes = path.slice(2);
  const tokens: Address[] = [];
  const fees: number[] = [];
  let at = 0;
  for (;;) {
    tokens.push(getAddress(`0x${bytes.slice(at, at + 40)}`));
    at += 40;
    if (at === bytes.length) break;
    fees.push(Number.parseInt(bytes.slice(at, at + 6), 16));
    at += 6;
  }
  return { tokens, fees };
}

/** SwapRouter02's Constants.ADDRESS_THIS, written out here (swap-router-contracts libraries/Constants.sol). */
export const ADDRESS_THIS = '0x0000000000000000000000000000000000000002';
