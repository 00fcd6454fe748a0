import type { Address, PublicClient } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { type MulticallOptions, multicallBatched } from '../chain/multicallBatched.ts';
import { pairTokens } from '../chain/seedChains.ts';
import { totalSuppliesOf, totalSupplyCall } from '../chain/tokenMetadata.ts';
import type { Snapshot } from '../graph/snapshot.ts';

/**
 * A followed chain's token supplies (snapshot `totalSupplies`, what market caps multiply by): the start snapshot's,
 * re-read at the head once per `everySeconds` of block time (one Multicall3 request per 500 tokens); a read that
 * fails keeps the previous values until the next one is due. Supplies not yet delivered go with the next block.
 */
export class FollowedSupplies {
  private supplies: Readonly<Record<string, string>> | undefined;
  /** Block timestamp the supplies were read at (or last tried). */
  private readAt = 0;
  private unsent = false;
  private readonly tokens: readonly Address[];

  constructor(
    chain: CatalogChain,
    private readonly everySeconds: number,
  ) {
    this.tokens = pairTokens(chain);
  }

  /** Starts over from a snapshot's supplies (read at its block). */
  reset(snapshot: Snapshot): void {
    this.supplies = snapshot.totalSupplies;
    this.readAt = snapshot.totalSupplies ? snapshot.blockTimestamp : 0;
    this.unsent = true;
  }

  /** The snapshot field: `{ totalSupplies }` when known. */
  snapshotField(): Pick<Snapshot, 'totalSupplies'> {
    return this.supplies ? { totalSupplies: this.supplies } : {};
  }

  /**
   * At the head (`atHead`), re-reads the supplies when due at block `timestamp`; returns the supplies a block update
   * should carry (newly read or not delivered yet), or undefined.
   */
  async forBlock(
    atHead: boolean,
    timestamp: number,
    client: PublicClient,
    mc: MulticallOptions,
    onError: (err: unknown) => void,
  ): Promise<Readonly<Record<string, string>> | undefined> {
    if (atHead && this.everySeconds > 0 && timestamp - this.readAt >= this.everySeconds && this.tokens.length > 0) {
      this.readAt = timestamp;
      try {
        const read = await multicallBatched(client, mc, this.tokens.map(totalSupplyCall));
        this.supplies = totalSuppliesOf(this.tokens, read, this.supplies);
        this.unsent = true;
      } catch (err) {
        onError(err);
      }
    }
    if (!this.unsent || !this.supplies) return undefined;
    this.unsent = false;
    return this.supplies;
  }
}
