import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import type { Abi, Hex } from 'viem';

const require = createRequire(import.meta.url);

/** A contract compiled from source: ABI, creation code and runtime code (0x-prefixed). */
export interface CompiledContract {
  readonly abi: Abi;
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
}

/**
 * The compiler settings of the project's own Solidity (src/chain/TransferFeeProbe.sol): optimizer on, the paris EVM
 * (no PUSH0, so the code runs on every catalogued chain), and no metadata hash, so the output depends on the source alone.
 */
export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  metadata: { bytecodeHash: 'none', appendCBOR: false },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

/**
 * Compiles one self-contained Solidity file with solc-js (the `solc` npm package, a development dependency: the
 * compiler runs in-process, nothing is downloaded) and returns its contract named `name`.
 */
export function compileSolidity(path: string, name: string): CompiledContract {
  const solc = require('solc') as { compile(input: string): string };
  const file = basename(path);
  const input = { language: 'Solidity', sources: { [file]: { content: readFileSync(path, 'utf8') } }, settings: SOLC_SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`${file}: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts[file]?.[name];
  if (!contract) throw new Error(`${file}: no contract ${name}`);
  return {
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
  };
}
