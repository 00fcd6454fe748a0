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
  // Kept under the address as given and in lower case: a repeated spelling is found without lower-casing it.
  let result = checksummed.get(address);
  if (result === undefined) {
    const lower = address.toLowerCase();
    result = checksummed.get(lower) ?? getAddress(lower);
    if (checksummed.size >= CACHE_SIZE) checksummed.clear();
    checksummed.set(lower, result);
    checksummed.set(address, result);
  }
  return result;
}
