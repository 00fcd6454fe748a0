/** Marks a key deleted in a layer over a tier that has it. */
const GONE: unique symbol = Symbol('gone');

/**
 * A map derived from another without copying it, in three tiers: a base and a middle tier shared with the maps it
 * came from (never changed), and a layer of this map's own changes (the changes since the middle tier was made).
 * Deriving copies only the layer; when the layer has grown past what folding it is worth (about √(base × changes
 * per derivation / 4) keys), the derived map folds it into a new middle tier (a copy of the middle tier and the
 * layer), and when the middle tier outgrows a quarter of the base, into a new base (all merged, once). A chain of
 * derivations of c changes each over n keys so copies O(√(n·c) + c) keys per derivation on average, not n (a followed
 * block pays for the pools it changes, not for the graph). A map is not changed once another is derived from it
 * (the graphs and indexes using it are immutable). Keys keep their place when their value changes (as in a Map);
 * new keys come after the base's.
 */
export class LayeredMap<K, V> {
  private readonly base: ReadonlyMap<K, V>;
  private readonly middle: ReadonlyMap<K, V | typeof GONE>;
  private readonly layer: Map<K, V | typeof GONE>;
  /** Sets and deletes made on this map (not inherited): a derivation's size, which sizes the next fold. */
  private changes = 0;

  /**
   * Empty; or with `from`'s keys and values (later changes to either are not seen by the other); or over a Map built
   * at once (taken over, not copied: not changed by its builder afterwards).
   */
  constructor(from?: LayeredMap<K, V> | Map<K, V>) {
    if (!from || from instanceof Map) {
      this.base = new Map();
      this.middle = new Map();
      this.layer = from ?? new Map();
    } else if (from.base.size === 0 && from.middle.size === 0) {
      // A map built from nothing (a load): its layer holds no deletion, and it is not changed once derived from.
      this.base = from.layer as Map<K, V>;
      this.middle = new Map();
      this.layer = new Map();
    } else if (from.layer.size ** 2 * 4 <= from.base.size * Math.max(from.changes, 1)) {
      this.base = from.base;
      this.middle = from.middle;
      this.layer = new Map(from.layer);
    } else if ((from.middle.size + from.layer.size) * 4 <= from.base.size) {
      const middle = new Map(from.middle);
      for (const [key, value] of from.layer) {
        if (value === GONE && !from.base.has(key)) middle.delete(key);
        else middle.set(key, value);
      }
      this.base = from.base;
      this.middle = middle;
      this.layer = new Map();
    } else {
      this.base = new Map(from.entries());
      this.middle = new Map();
      this.layer = new Map();
    }
  }

  get(key: K): V | undefined {
    let value = this.layer.get(key);
    if (value === undefined) value = this.middle.get(key);
    if (value === GONE) return undefined;
    return value !== undefined ? value : this.base.get(key);
  }

  set(key: K, value: V): void {
    this.layer.set(key, value);
    this.changes++;
  }

  delete(key: K): void {
    const middle = this.middle.get(key);
    if (this.base.has(key) || (middle !== undefined && middle !== GONE)) this.layer.set(key, GONE);
    else this.layer.delete(key);
    this.changes++;
  }

  /** Every key and value: the base's keys in their order (with the newer tiers' values), then the keys added since. */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, value] of this.base) {
      const newer = this.newer(key);
      if (newer === undefined) yield [key, value];
      else if (newer !== GONE) yield [key, newer];
    }
    for (const [key, value] of this.middle) {
      if (this.base.has(key)) continue;
      const own = this.layer.get(key);
      const current = own !== undefined ? own : value;
      if (current !== GONE) yield [key, current];
    }
    for (const [key, value] of this.layer) if (value !== GONE && !this.base.has(key) && !this.middle.has(key)) yield [key, value];
  }

  /** A key's value in the layer or the middle tier (GONE: deleted there), or undefined when neither has it. */
  private newer(key: K): V | typeof GONE | undefined {
    const own = this.layer.get(key);
    return own !== undefined ? own : this.middle.get(key);
  }
}
