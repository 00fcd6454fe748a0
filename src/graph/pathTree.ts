/** Most nodes a PathTree keeps: past it, it starts empty (paths are then found afresh). */
const LIMIT = 50_000;

/** A path's node: the paths one pool longer, by that pool's direction (0: it pays out its token0), and its value. */
export interface PathNode<E> {
  readonly next: [Map<E, PathNode<E>> | undefined, Map<E, PathNode<E>> | undefined];
  /** What its user keeps of the path (routing/candidates.ts: its candidate and facts before pricing). */
  value?: unknown;
}

/**
 * Values kept per path of pool entries (E: the index's PoolEntry; each with its direction), under a root per kind of value: a tree, so that the
 * paths of one search that share their first pools share their nodes. What is kept of a path must depend only on its
 * entries (an entry never changes state: a changed pool is a new entry), its directions and its root: then the tree
 * outlives a followed block, which drops the paths through the pools it changed or removed (drop: work proportional
 * to those paths, not to the tree), and is shared by the index a block derives (ChainPoolIndex.withChanges) and the
 * index it came from (a search still on the old state finds the paths through its unchanged pools, and makes the
 * others again). At most LIMIT nodes.
 */
export class PathTree<E> {
  private readonly roots = new Map<string, PathNode<E>>();
  /** The child maps each entry is a key of: where dropping it cuts. */
  private readonly holders = new Map<E, Set<Map<E, PathNode<E>>>>();
  private size = 0;

  /** The root node of a kind of value (e.g. a side and its terms); the tree starts empty when full. */
  root(key: string): PathNode<E> {
    if (this.size >= LIMIT) {
      this.roots.clear();
      this.holders.clear();
      this.size = 0;
    }
    let node = this.roots.get(key);
    if (!node) {
      node = { next: [undefined, undefined] };
      this.roots.set(key, node);
    }
    return node;
  }

  /** The node of the path one pool longer: `entry`, paying out its token1 (side 1) or token0 (side 0). */
  child(node: PathNode<E>, entry: E, side: 0 | 1): PathNode<E> {
    let children = node.next[side];
    if (!children) {
      children = new Map();
      node.next[side] = children;
    }
    let child = children.get(entry);
    if (!child) {
      child = { next: [undefined, undefined] };
      children.set(entry, child);
      let holding = this.holders.get(entry);
      if (!holding) {
        holding = new Set();
        this.holders.set(entry, holding);
      }
      holding.add(children);
      this.size++;
    }
    return child;
  }

  /** Drops every path through one of the entries (the pools a block changed or removed). */
  drop(entries: Iterable<E>): void {
    for (const entry of entries) {
      const holding = this.holders.get(entry);
      if (!holding) continue;
      this.holders.delete(entry);
      for (const children of holding) {
        const node = children.get(entry);
        children.delete(entry);
        if (node) this.cut(node);
      }
    }
  }

  /** Whether a path through the entry is kept (tests). */
  holds(entry: E): boolean {
    return this.holders.has(entry);
  }

  /** Forgets a node cut from the tree and every node below it. */
  private cut(node: PathNode<E>): void {
    this.size--;
    for (const children of node.next) {
      if (!children) continue;
      for (const [entry, child] of children) {
        const holding = this.holders.get(entry);
        holding?.delete(children);
        if (holding?.size === 0) this.holders.delete(entry);
        this.cut(child);
      }
    }
  }
}
