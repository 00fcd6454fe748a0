import { createRequire } from 'node:module';
import type { Abi, Address, Hex } from 'viem';
import { ACROSS_CONTRACTS_PREFIX, resolveAcrossContracts } from './acrossContracts.ts';

const require = createRequire(import.meta.url);

/** A compiled contract as published on npm: its ABI and creation bytecode (0x-prefixed, unlinked). */
export interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
  /** Library placeholders: source file -> library name -> byte offsets into the creation code. */
  readonly linkReferences: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<{ start: number; length: number }>>>>>;
}

interface RawArtifact {
  abi: Abi;
  bytecode: string | { object: string };
  linkReferences?: Artifact['linkReferences'];
}

/**
 * The absolute path of a file in a published package, given by its npm path: from the root install, or for
 * `@across-protocol/contracts/…` from its own package (seeds/devnet/acrossContracts.ts), installed on first use.
 */
export function resolveArtifact(npmPath: string): string {
  return npmPath.startsWith(ACROSS_CONTRACTS_PREFIX) ? resolveAcrossContracts(npmPath) : require.resolve(npmPath);
}

/** Loads a published artifact (waffle or hardhat format) by its npm path. */
export function loadArtifact(npmPath: string): Artifact {
  const raw = require(resolveArtifact(npmPath)) as RawArtifact;
  const code = typeof raw.bytecode === 'string' ? raw.bytecode : raw.bytecode.object;
  const bytecode = (code.startsWith('0x') ? code : `0x${code}`) as Hex;
  return { abi: raw.abi, bytecode, linkReferences: raw.linkReferences ?? {} };
}

/** Writes library addresses into the creation code at the offsets given by the artifact's linkReferences. */
export function linkBytecode(artifact: Artifact, libraries: Readonly<Record<string, Address>>): Hex {
  let hex = artifact.bytecode.slice(2);
  for (const file of Object.values(artifact.linkReferences)) {
    for (const [name, refs] of Object.entries(file)) {
      const address = libraries[name];
      if (address === undefined) throw new Error(`linkBytecode: no address for library ${name}`);
      for (const { start, length } of refs) {
        hex = hex.slice(0, start * 2) + address.slice(2).toLowerCase() + hex.slice((start + length) * 2);
      }
    }
  }
  return `0x${hex}`;
}

/** npm paths of every artifact the devnet deploys (the real published builds, never recompiled). */
export const ARTIFACT_PATHS = {
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  MintableERC20: '@across-protocol/contracts/dist/evm/artifacts/MockERC20.sol/MintableERC20.json',
  Multicall3: '@across-protocol/contracts/dist/evm/artifacts/Multicall3.sol/Multicall3.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  SwapRouter: '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  NonfungiblePositionManager: '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  NonfungibleTokenPositionDescriptor:
    '@uniswap/v3-periphery/artifacts/contracts/NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json',
  NFTDescriptor: '@uniswap/v3-periphery/artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  SwapRouter02: '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
  MixedRouteQuoterV1: '@uniswap/swap-router-contracts/artifacts/contracts/lens/MixedRouteQuoterV1.sol/MixedRouteQuoterV1.json',
} as const;

export type ArtifactName = keyof typeof ARTIFACT_PATHS;

/** Loads one of the devnet's artifacts by contract name. */
export function devnetArtifact(name: ArtifactName): Artifact {
  return loadArtifact(ARTIFACT_PATHS[name]);
}
