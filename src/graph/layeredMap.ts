/** Marks a key deleted in a layer over a base that has it. */
const GONE: unique symbol = Symbol('gone');

/**
 * A map derived from another without copying it: a base shared with the maps it came from (never changed) and a layer
 * of this map's own changes. Deriving copies only the layer, so a followed block pays for the keys changed since the
 * base was made, not for every key; when the layer outgrows a quarter of the base, the derived map starts from a new
 * base (both merged, once). A map is not changed once another is derived from it (the indexes using it are immutable).
 */
export class LayeredMap<K, V> {
  private readonly base: ReadonlyMap<K, V>;
  private readonly layer: Map<K, V | typeof GONE>;

  /** Empty, or with `from`'s keys and values (later changes to either are not seen by the other). */
  constructor(from?: LayeredMap<K, V>) {
    if (!from) {
      this.base = new Map();
      this.layer = new Map();
    } else if (from.base.size === 0) {
      // A map built from nothing (a load): its layer holds no deletion, and it is not changed once derived from.
      this.base = from.layer as Map<K, V>;
      this.layer = new Map();
    } else if (from.layer.size * 4 > from.base.size) {
      this.base = new Map(from.entries());
      this.layer = new Map();
    } else {
      this.base = from.base;
      this.layer = new Map(from.layer);
    }
  }

  get(key: K): V | undefined {
    const own = this.layer.get(key);
    if (own === GONE) return undefined;
    return own !== undefined ? own : this.base.get(key);
  }

  set(key: K, value: V): void {
    this.layer.set(key, value);
  }

  delete(key: K): void {
    if (this.base.has(key)) this.layer.set(key, GONE);
    else this.layer.delete(key);
  }

  /** Every key and value (the layer's over the base's). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, value] of this.base) if (!this.layer.has(key)) yield [key, value];
    for (const [key, value] of this.layer) if (value !== GONE) yield [key, value];
  }
}
