import { type Address, getAddress, toEventSelector } from 'viem';

/** One event log of a pool, as eth_getLogs returns it (hex strings). */
export interface PoolLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
}

/** topic0 of an event signature such as 'Sync(uint112,uint112)', lower-case hex. */
export function eventTopic(signature: string): string {
  return toEventSelector(signature).toLowerCase();
}

/**
 * The 32-byte words of a log's data when it has exactly `words` of them and `topics` topics, else undefined
 * (a malformed or differently shaped event: the caller re-reads the pool).
 */
export function logWords(log: PoolLog, topics: number, words: number): bigint[] | undefined {
  if (log.topics.length !== topics || log.data.length !== 2 + 64 * words || !log.data.startsWith('0x')) return undefined;
  const out: bigint[] = [];
  for (let i = 0; i < words; i++) out.push(BigInt(`0x${log.data.slice(2 + 64 * i, 66 + 64 * i)}`));
  return out;
}

/** A signed 256-bit word (int24 / int256 in a topic or data word) as a bigint. */
export function signedWord(word: bigint | string): bigint {
  return BigInt.asIntN(256, typeof word === 'string' ? BigInt(word) : word);
}

/** The address in an indexed address topic (its low 20 bytes), checksummed. */
export function topicAddress(topic: string): Address {
  return getAddress(`0x${topic.slice(26)}`);
}

/** The address in a data word (its low 20 bytes), checksummed. */
export function wordAddress(word: bigint): Address {
  return getAddress(`0x${word.toString(16).padStart(40, '0')}`);
}
