/**
 * Permit2 on the devnet: the runtime code deployUniswapV4.ts places at its canonical address, as v4-periphery's
 * DeployPermit2 helper does under Foundry.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Address, Hex } from 'viem';

const require = createRequire(import.meta.url);

/** The Solidity helper whose hex literal is Permit2's runtime code (Permit2's creation code ships in no npm package). */
const DEPLOY_PERMIT2_SOURCE = '@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol';

/** Permit2's canonical address (the same on every chain). */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/** Permit2's runtime code: the hex literal of v4-periphery's DeployPermit2 helper. */
export function permit2RuntimeCode(): Hex {
  const source = readFileSync(require.resolve(DEPLOY_PERMIT2_SOURCE), 'utf8');
  const literal = /hex"([0-9a-fA-F]+)"/.exec(source);
  if (!literal) throw new Error(`no bytecode literal in ${DEPLOY_PERMIT2_SOURCE}`);
  return `0x${literal[1]}`;
}

/**
 * The code the devnet places at PERMIT2_ADDRESS: permit2RuntimeCode with its cached chain id (an immutable, PUSH32
 * 31337, beside a domain separator cached for the address it was first deployed at) set to 0, which no chain has. So
 * Permit2 builds its separator from block.chainid and its own address, as it does on every real chain where it lives
 * at that address, and the typed data a wallet signs (POST /quotes permitData) is the contract's own.
 */
export function devnetPermit2Code(): Hex {
  const code = permit2RuntimeCode();
  const cached = `7f${(31337).toString(16).padStart(64, '0')}`;
  const at = code.toLowerCase().indexOf(cached);
  if (at < 0 || code.toLowerCase().indexOf(cached, at + 1) >= 0) throw new Error('Permit2 code: not exactly one cached chain id');
  return `${code.slice(0, at)}7f${'0'.repeat(64)}${code.slice(at + cached.length)}` as Hex;
}
