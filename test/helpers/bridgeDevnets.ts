// Two devnets (31337 and 31338) with the real Uniswap contracts and a real Across SpokePool each, seeded into a
// temporary snapshot folder that a quote app (real pricing workers) serves, and a relayer on chain B that fills
// deposits with the relay data of the origin's FundsDeposited event (what an Across relayer does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, getAddress, type Hex, maxUint256, pad, parseEventLogs, type TransactionReceipt } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { type Devnet, startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { Catalog } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { artifactAbi, type DevnetWallet, devnetWallet } from './devnetWallet.ts';
import { buildQuoteTestApp, type QuoteTestApp } from './quoteTestApp.ts';

export const SPOKE_POOL_ABI = artifactAbi('@across-protocol/contracts/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json');
const CATALOG_DIR = fileURLToPath(new URL('../../catalog', import.meta.url));

/** A devnet with its wallet helpers and its SpokePool. */
export type BridgeChain = DevnetWallet & { readonly devnet: Devnet; readonly spokePool: Address };

/** The FundsDeposited event of a deposit, as the artifact's ABI decodes it. */
export interface DepositEvent {
  readonly address: Address;
  readonly args: Record<string, unknown>;
}

export interface BridgeDevnets {
  readonly A: BridgeChain;
  readonly B: BridgeChain;
  readonly catalog: Catalog;
  readonly snapshotDir: string;
  readonly app: QuoteTestApp;
  /** An organization API key of the app. */
  readonly key: string;
  /** Anvil account 9 on chain B: holds every bridgeable output token and has approved the SpokePool. */
  readonly relayer: PrivateKeyAccount;
  /** Seeds both chains again into the snapshot folder (the app serves it after app.reload()). */
  seed(): Promise<number>;
  /** The FundsDeposited event in a deposit receipt (undefined when there is none). */
  depositEvent(receipt: TransactionReceipt): DepositEvent | undefined;
  /** Fills the deposit on chain B as the relayer with the event's relay data; the fill must succeed. */
  fill(event: DepositEvent): Promise<TransactionReceipt>;
}

/** An address as the left-padded, lower-case bytes32 the SpokePool events carry. */
export const b32 = (address: string): Hex => pad(getAddress(address), { size: 32 }).toLowerCase() as Hex;

/**
 * Starts both devnets, seeds them, builds the app over the seeded snapshots (`env` added to its environment, e.g.
 * RPC_URL_<chainId>) and funds the relayer. Everything is stopped and removed through `teardown`.
 */
export async function startBridgeDevnets(
  teardown: (fn: () => unknown) => void,
  options: { env?: (a: Devnet, b: Devnet) => NodeJS.ProcessEnv; keyOrg?: string } = {},
): Promise<BridgeDevnets> {
  const [devA, devB] = await Promise.all([startDevnet({ chainId: 31337, across: true }), startDevnet({ chainId: 31338, across: true })]);
  teardown(async () => {
    await Promise.all([devA.stop(), devB.stop()]);
  });
  const snapshotDir = mkdtempSync(join(tmpdir(), 'bridge-e2e-snapshots-'));
  teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));
  const catalog = loadCatalog(CATALOG_DIR);
  const seed = async () =>
    (
      await seedChains({
        chains: [catalog.chain(31337)!, catalog.chain(31338)!],
        rpcUrls: new Map([
          [devA.chainId, devA.rpcUrl],
          [devB.chainId, devB.rpcUrl],
        ]),
        snapshotDir,
        progress: 'none',
        log: () => {},
      })
    ).seeded;
  if ((await seed()) !== 2) throw new Error('both devnets must be seeded');
  const app = buildQuoteTestApp({ catalogDir: CATALOG_DIR, snapshotDir, env: options.env?.(devA, devB) });
  teardown(() => app.close());
  const { key } = await app.keys.create(options.keyOrg ?? 'org-bridge-e2e');
  const A = { ...devnetWallet(devA), devnet: devA, spokePool: devA.across!.spokePool };
  const B = { ...devnetWallet(devB), devnet: devB, spokePool: devB.across!.spokePool };

  const relayer = privateKeyToAccount(devB.accounts[9].privateKey);
  async function relay(to: Address, data: Hex): Promise<TransactionReceipt> {
    const receipt = await B.send(relayer, { to, data });
    if (receipt.status !== 'success') throw new Error(`transaction to ${to} reverted`);
    return receipt;
  }
  for (const asset of catalog.chain(31338)!.bridges[0].assets) {
    await fundAccount(devB.rpcUrl, relayer.address, asset.token as Address, asset.asset === 'ETH' ? 1_000n * 10n ** 18n : 10n ** 13n);
    await relay(asset.token as Address, `0x095ea7b3${pad(B.spokePool, { size: 32 }).slice(2)}${maxUint256.toString(16)}` as Hex);
  }

  return {
    A,
    B,
    catalog,
    snapshotDir,
    app,
    key,
    relayer,
    seed,
    depositEvent: (receipt) =>
      (parseEventLogs({ abi: SPOKE_POOL_ABI, logs: receipt.logs, eventName: 'FundsDeposited' }) as unknown as DepositEvent[])[0],
    async fill({ args: ev }) {
      const relayData = {
        depositor: ev.depositor as Hex,
        recipient: ev.recipient as Hex,
        exclusiveRelayer: ev.exclusiveRelayer as Hex,
        inputToken: ev.inputToken as Hex,
        outputToken: ev.outputToken as Hex,
        inputAmount: ev.inputAmount as bigint,
        outputAmount: ev.outputAmount as bigint,
        originChainId: BigInt(devA.chainId),
        depositId: ev.depositId as bigint,
        fillDeadline: ev.fillDeadline as number,
        exclusivityDeadline: ev.exclusivityDeadline as number,
        message: ev.message as Hex,
      };
      const { request } = await B.client.simulateContract({
        account: relayer,
        address: B.spokePool,
        abi: SPOKE_POOL_ABI,
        functionName: 'fillRelay',
        args: [relayData, BigInt(devA.chainId), b32(relayer.address)],
      });
      return relay(B.spokePool, encodeFunctionData({ abi: SPOKE_POOL_ABI, functionName: 'fillRelay', args: request.args }));
    },
  };
}
