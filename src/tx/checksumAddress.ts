import { type Address, getAddress } from 'viem';

const checksummed = new Map<string, Address>();
const CACHE_SIZE = 10_000;

/**
 * The EIP-55 form of an EVM address in any letter case (viem getAddress, which throws for anything that is not a
 * 20-byte hex address). Checksumming costs a keccak256, and requests and steps name the same few addresses again and
 * again (routers, tokens, wallets), so results are kept in a plain bounded map (viem's own cache is an LRU that
 * re-inserts on every hit).
 */
export function checksumAddress(address: string): Address {
  const lower = address.toLowerCase();
  let result = checksummed.get(lower);
  if (result === undefined) {
    result = getAddress(lower);
    if (checksummed.size >= CACHE_SIZE) checksummed.clear();
    checksummed.set(lower, result);
  }
  return result;
}
