import { type Address, decodeFunctionResult, type Hex, hexToString, parseAbi, size } from 'viem';
import type { CatalogToken } from '../catalog/Catalog.ts';
import { type ReadCall, viewCall } from '../protocols/PoolSource.ts';

const erc20MetadataAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function totalSupply() view returns (uint256)',
]);

/** Reads per token in tokenMetadataCalls. */
export const TOKEN_METADATA_READS = 3;

/** symbol() as a string, or as bytes32 for the early tokens that return it so (MKR, SAI). */
export function decodeSymbol(data: Hex): string {
  if (size(data) === 32) return hexToString(data).replace(/\0+$/, '');
  return decodeFunctionResult({ abi: erc20MetadataAbi, functionName: 'symbol', data });
}

/** TOKEN_METADATA_READS reads per token, in order: decimals(), symbol(), totalSupply(). */
export function tokenMetadataCalls(tokens: readonly Address[]): ReadCall<number | string | bigint>[] {
  return tokens.flatMap((target): ReadCall<number | string | bigint>[] => [
    viewCall<number>(target, erc20MetadataAbi, 'decimals'),
    { ...viewCall<string>(target, erc20MetadataAbi, 'symbol'), decode: decodeSymbol },
    totalSupplyCall(target),
  ]);
}

/** totalSupply() of one token (what a pool's `marketCap` multiplies by the token's USD price). */
export function totalSupplyCall(token: Address): ReadCall<bigint> {
  return viewCall<bigint>(token, erc20MetadataAbi, 'totalSupply');
}

/**
 * A snapshot's `totalSupplies` from totalSupply() results in token order: integer strings by token address, in
 * address order; a token whose read failed is left out, or keeps its value in `previous` when given.
 */
export function totalSuppliesOf(
  tokens: readonly Address[],
  supplies: readonly (bigint | undefined)[],
  previous?: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const order = tokens
    .map((token, i) => ({ token, supply: supplies[i] }))
    .sort((a, b) => (a.token.toLowerCase() < b.token.toLowerCase() ? -1 : 1));
  for (const { token, supply } of order) {
    const value = typeof supply === 'bigint' ? supply.toString() : previous?.[token];
    if (value !== undefined) out[token] = value;
  }
  return out;
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
