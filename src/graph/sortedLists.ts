import { LayeredMap } from './layeredMap.ts';

/**
 * Lists of values by key, each kept in one order: built at once (each list sorted by its builder), then changed one
 * value at a time by binary search (no re-sort). A list shared with the lists this one was derived from is copied before its
 * first change (copy-on-write), so the older lists never change.
 */
export class SortedLists<K, T> {
  /** Derived lists share the map of the lists they came from: a followed block copies only what changed (LayeredMap). */
  private readonly lists: LayeredMap<K, T[]>;
  /** Keys whose list this instance owns (copied or created since it was derived): changed in place. */
  private readonly owned = new Set<K>();

  /** `from`: the lists this one is derived from (shared, copy-on-write), or lists already each in order (taken over, not copied). */
  constructor(
    private readonly order: (a: T, b: T) => number,
    from?: SortedLists<K, T> | Map<K, T[]>,
  ) {
    this.lists = from instanceof Map ? new LayeredMap(from) : new LayeredMap(from?.lists);
  }

  /** The list of a key (empty when none), in order. */
  get(key: K): readonly T[] {
    return this.lists.get(key) ?? EMPTY;
  }

  /** Inserts a value at its place in its list. */
  insert(key: K, value: T): void {
    const list = this.own(key);
    list.splice(this.position(list, value), 0, value);
  }

  /** Removes a value from its list (found by its place in the order); nothing when it is not there. */
  remove(key: K, value: T): void {
    const current = this.lists.get(key);
    if (!current) return;
    const at = this.position(current, value);
    if (current[at] !== value) return;
    const list = this.own(key);
    list.splice(at, 1);
    if (list.length === 0) {
      this.lists.delete(key);
      this.owned.delete(key);
    }
  }

  /** Where a value is (or would be inserted) in the list of a key: the first place whose value does not come before it. */
  positionOf(key: K, value: T): number {
    return this.position(this.get(key), value);
  }

  /** The first index whose value does not come before `value`. */
  private position(list: readonly T[], value: T): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.order(list[mid], value) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The list of a key, this instance's own (copied from the shared one on first change). */
  private own(key: K): T[] {
    let list = this.lists.get(key);
    if (!this.owned.has(key)) {
      list = list ? [...list] : [];
      this.lists.set(key, list);
      this.owned.add(key);
    }
    return list!;
  }
}

const EMPTY: readonly never[] = [];
