import { type Address, decodeFunctionResult, type Hex, hexToString, parseAbi, size } from 'viem';
import type { CatalogToken } from '../catalog/Catalog.ts';
import { type ReadCall, viewCall } from '../protocols/PoolSource.ts';

const erc20MetadataAbi = parseAbi(['function decimals() view returns (uint8)', 'function symbol() view returns (string)']);

/** symbol() as a string, or as bytes32 for the early tokens that return it so (MKR, SAI). */
export function decodeSymbol(data: Hex): string {
  if (size(data) === 32) return hexToString(data).replace(/\0+$/, '');
  return decodeFunctionResult({ abi: erc20MetadataAbi, functionName: 'symbol', data });
}

/** Two reads per token, in order: decimals(), symbol(). */
export function tokenMetadataCalls(tokens: readonly Address[]): ReadCall<number | string>[] {
  return tokens.flatMap((target): ReadCall<number | string>[] => [
    viewCall<number>(target, erc20MetadataAbi, 'decimals'),
    { ...viewCall<string>(target, erc20MetadataAbi, 'symbol'), decode: decodeSymbol },
  ]);
}

/**
 * Why a token's on-chain decimals() and symbol() disagree with the catalogue (undefined when they agree): a
 * different decimals value would misprice every amount, a different symbol means the address is not the token
 * the catalogue describes. A read that failed (no contract, no such function) disagrees too.
 */
export function checkTokenMetadata(
  listed: Pick<CatalogToken, 'decimals' | 'symbol'>,
  decimals: number | undefined,
  symbol: string | undefined,
): string | undefined {
  const problems: string[] = [];
  if (decimals === undefined) problems.push('decimals() cannot be read');
  else if (decimals !== listed.decimals) problems.push(`decimals() is ${decimals} on chain, ${listed.decimals} in the catalogue`);
  if (symbol === undefined) problems.push('symbol() cannot be read');
  else if (symbol !== listed.symbol)
    problems.push(`symbol() is ${JSON.stringify(symbol)} on chain, ${JSON.stringify(listed.symbol)} in the catalogue`);
  return problems.length > 0 ? problems.join('; ') : undefined;
}
