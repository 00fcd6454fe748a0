import { type Address, encodeAbiParameters, type Hex, keccak256, type PublicClient, toHex } from 'viem';

/** The value written to a candidate slot: the slot is the one read when the call then answers it. */
const MARKER = 0x5a17_0000_0000_0000_1337n;
/** Mapping slots tried when the node cannot list a call's storage reads (eth_createAccessList). */
const DECLARED_SLOTS = 10;

/**
 * The storage slot of `token` that a view call returning one uint256 reads its answer from (ERC-20 `balanceOf(owner)`
 * or `allowance(owner, spender)`), so that a state override of that slot sets what the call answers. Candidates: the
 * slots of `token` the call reads (eth_createAccessList at `blockNumber`; a proxy's storage is its own address), else
 * the mapping slots of the first DECLARED_SLOTS declared positions in Solidity's and Vyper's key orders (`keys`: the
 * mapping keys, outermost first). A candidate is the slot when the call, with the slot overridden to a marker value,
 * answers the marker. Undefined when no candidate is (a balance computed from shares, say).
 */
export async function findStorageSlot(
  client: PublicClient,
  token: Address,
  data: Hex,
  keys: readonly Address[],
  blockNumber: bigint,
): Promise<Hex | undefined> {
  for (const slot of await candidates(client, token, data, keys, blockNumber)) {
    try {
      const { data: answer } = await client.call({
        to: token,
        data,
        blockNumber,
        stateOverride: [{ address: token, stateDiff: [{ slot, value: toHex(MARKER, { size: 32 }) }] }],
      });
      if (answer !== undefined && answer.length === 66 && BigInt(answer) === MARKER) return slot;
    } catch {
      // A candidate that makes the call revert is not the slot.
    }
  }
  return undefined;
}

async function candidates(client: PublicClient, token: Address, data: Hex, keys: readonly Address[], blockNumber: bigint): Promise<Hex[]> {
  try {
    const { accessList } = await client.createAccessList({ to: token, data, blockNumber });
    const slots = accessList.filter((e) => e.address.toLowerCase() === token.toLowerCase()).flatMap((e) => e.storageKeys);
    if (slots.length > 0) return slots;
  } catch {
    // Fall through to the declared positions.
  }
  const out: Hex[] = [];
  for (let position = 0; position < DECLARED_SLOTS; position += 1) {
    for (const vyper of [false, true]) {
      let slot: Hex = toHex(position, { size: 32 });
      for (const key of keys) {
        const pair = vyper
          ? encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }], [slot, key])
          : encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [key, slot]);
        slot = keccak256(pair);
      }
      out.push(slot);
    }
  }
  return out;
}
