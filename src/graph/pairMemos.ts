import type { ListKey } from './poolLists.ts';

/** Most values a PairMemos keeps; the oldest go first. */
const LIMIT = 4096;

/** A kept value and how far into each pool list (by key) making it read: Infinity for the whole list. */
interface Kept {
  readonly value: unknown;
  readonly reads: ReadonlyMap<ListKey, number>;
}

/** The reads of the value being made: lists by identity (their key), accessor calls and narrowed depths per key. */
interface Recording {
  readonly keyOf: Map<object, ListKey>;
  readonly calls: Map<ListKey, number>;
  readonly narrowed: Map<ListKey, { count: number; depth: number }>;
}

/**
 * Values derived from the heads of a few pool lists (a pair's candidate paths: findRoutes reads the first entries of
 * each list it selects from), kept across followed blocks. While a value is made, every list handed out (read) is
 * noted with its key, and findRoutes says how far into it it looked (readTo); a list read otherwise counts whole.
 * An index derived by a block keeps the values whose read heads the block left as they were (carry): a block that
 * changes pools only past the entries a pair's selection looked at, or in lists it never read, keeps that pair's value.
 */
export class PairMemos {
  private readonly values = new Map<string, Kept>();
  private recording: Recording | undefined;

  /** The value of a key, made (and its reads noted) on first use. */
  get<T>(key: string, make: () => T): T {
    const found = this.values.get(key);
    if (found) return found.value as T;
    const outer = this.recording;
    const recording: Recording = { keyOf: new Map(), calls: new Map(), narrowed: new Map() };
    this.recording = recording;
    let value: T;
    try {
      value = make();
    } finally {
      this.recording = outer;
    }
    const reads = new Map<ListKey, number>();
    for (const [k, calls] of recording.calls) {
      const narrowed = recording.narrowed.get(k);
      // Every read of the list narrowed: as far as the deepest; otherwise (e.g. merged with another) the whole list.
      reads.set(k, narrowed && narrowed.count === calls ? narrowed.depth : Number.POSITIVE_INFINITY);
    }
    if (this.values.size >= LIMIT) this.values.delete(this.values.keys().next().value!);
    this.values.set(key, { value, reads });
    return value;
  }

  /** Notes that the list of `key` was handed out while a value is made (nothing otherwise). */
  read(key: ListKey, list: object): void {
    const r = this.recording;
    if (!r) return;
    r.keyOf.set(list, key);
    r.calls.set(key, (r.calls.get(key) ?? 0) + 1);
  }

  /** Notes that only the first `depth` entries of a list handed out were looked at (Infinity: all, and its end). */
  readTo(list: object, depth: number): void {
    const r = this.recording;
    const key = r?.keyOf.get(list);
    if (!r || key === undefined) return;
    const n = r.narrowed.get(key);
    r.narrowed.set(key, { count: (n?.count ?? 0) + 1, depth: Math.max(n?.depth ?? 0, depth) });
  }

  /**
   * Keeps the values of `from` (the index a block derived this one from) whose reads the block left unchanged:
   * `changedAt` gives per list key the first position where the old and the new list may differ (a removed entry's
   * place in the old list, an inserted entry's in the new one); a value that read that list that far or further is
   * dropped.
   */
  carry(from: PairMemos, changedAt: ReadonlyMap<ListKey, number>): void {
    for (const [key, kept] of from.values) {
      let valid = true;
      for (const [list, depth] of kept.reads) {
        const at = changedAt.get(list);
        if (at !== undefined && at < depth) {
          valid = false;
          break;
        }
      }
      if (valid) this.values.set(key, kept);
    }
  }

  /** Whether a value of the key is kept (tests). */
  has(key: string): boolean {
    return this.values.has(key);
  }
}
