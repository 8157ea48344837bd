/**
 * One memory budget for everything a process keeps per store (decision 124): the search
 * indexes, product pages, public answers, store values and host bindings. Each cache opens an
 * account and charges an estimate of each entry it keeps (usually one entry per store); every use
 * touches the entry. Past the budget, the entries used least recently go first, whichever cache
 * and store they belong to: a thousand stores visited in turn then keep what fits, instead of each
 * cache's own count of stores pushing out the store about to be visited again.
 *
 * The estimate is an estimate: V8's real cost of an object differs, but charged consistently it
 * ranks and bounds the caches against each other, and the bench (`bench:stores`) checks the RSS.
 */

/** One cache's figures, as the operator's report and the bench show them. */
export interface MemoryAccountStats {
  name: string;
  entries: number;
  bytes: number;
  /** Entries the budget took away from this cache since start (not the cache's own drops). */
  evictions: number;
}

export interface MemoryBudgetStats {
  limitBytes: number;
  usedBytes: number;
  entries: number;
  evictions: number;
  caches: MemoryAccountStats[];
}

interface Charge {
  account: MemoryAccount;
  key: string;
  bytes: number;
}

/**
 * A cache's account. `charge` records (or re-records) an entry's size and makes it the most
 * recently used; `touch` marks a use; `release` is the cache dropping the entry itself. When the
 * budget evicts, it calls the cache's `evict(key)`, which must drop the entry (and may call
 * `release`, which then does nothing).
 */
export class MemoryAccount {
  entries = 0;
  bytes = 0;
  evictions = 0;

  constructor(
    private readonly budget: MemoryBudget,
    readonly name: string,
    readonly evict: (key: string) => void,
  ) {}

  charge(key: string, bytes: number): void {
    this.budget.charge(this, key, bytes);
  }

  touch(key: string): void {
    this.budget.touch(this, key);
  }

  /** The entry's new size, its place in the order of use unchanged (a cache trimming itself). */
  resize(key: string, bytes: number): void {
    this.budget.resize(this, key, bytes);
  }

  release(key: string): void {
    this.budget.release(this, key);
  }

  /** Every entry of this account released (the cache was cleared). */
  releaseAll(): void {
    this.budget.releaseAccount(this);
  }
}

export class MemoryBudget {
  /** Every charged entry, least recently used first (a Map iterates in insertion order). */
  private lru = new Map<string, Charge>();
  private used = 0;
  private readonly accounts: MemoryAccount[] = [];
  private evicting = false;

  constructor(private limit: number) {}

  get limitBytes() {
    return this.limit;
  }

  /** A cache's account; its entries' keys need only be unique within the cache. */
  account(name: string, evict: (key: string) => void): MemoryAccount {
    const account = new MemoryAccount(this, name, evict);
    this.accounts.push(account);
    return account;
  }

  charge(account: MemoryAccount, key: string, bytes: number): void {
    const id = idOf(account, key);
    const old = this.lru.get(id);
    if (old) {
      this.lru.delete(id);
      this.used -= old.bytes;
      account.bytes -= old.bytes;
    } else {
      account.entries++;
    }
    const size = Math.max(0, Math.round(bytes));
    this.lru.set(id, { account, key, bytes: size });
    this.used += size;
    account.bytes += size;
    this.shrink(id);
  }

  touch(account: MemoryAccount, key: string): void {
    const id = idOf(account, key);
    const charge = this.lru.get(id);
    if (!charge) return;
    this.lru.delete(id);
    this.lru.set(id, charge);
  }

  resize(account: MemoryAccount, key: string, bytes: number): void {
    const charge = this.lru.get(idOf(account, key));
    if (!charge) return;
    const size = Math.max(0, Math.round(bytes));
    this.used += size - charge.bytes;
    account.bytes += size - charge.bytes;
    charge.bytes = size;
  }

  release(account: MemoryAccount, key: string): void {
    const id = idOf(account, key);
    const charge = this.lru.get(id);
    if (!charge) return;
    this.lru.delete(id);
    this.used -= charge.bytes;
    account.bytes -= charge.bytes;
    account.entries--;
  }

  releaseAccount(account: MemoryAccount): void {
    for (const [id, charge] of this.lru) {
      if (charge.account !== account) continue;
      this.lru.delete(id);
      this.used -= charge.bytes;
    }
    account.bytes = 0;
    account.entries = 0;
  }

  /** A new limit (the configuration's); shrinks at once when lower. */
  setLimit(bytes: number): void {
    this.limit = bytes;
    this.shrink();
  }

  /**
   * Evicts least recently used entries until the charges fit. The entry being charged (`keep`) is
   * never its own victim: an entry larger than the whole budget stays alone rather than being
   * built and thrown away on every request.
   */
  private shrink(keep?: string): void {
    if (this.evicting || this.used <= this.limit) return;
    this.evicting = true;
    try {
      for (const [id, charge] of this.lru) {
        if (this.used <= this.limit) break;
        if (id === keep) continue;
        this.lru.delete(id);
        this.used -= charge.bytes;
        charge.account.bytes -= charge.bytes;
        charge.account.entries--;
        charge.account.evictions++;
        charge.account.evict(charge.key);
      }
    } finally {
      this.evicting = false;
    }
  }

  stats(): MemoryBudgetStats {
    // Accounts of one name (a cache made twice, as tests do) are reported together.
    const byName = new Map<string, MemoryAccountStats>();
    let evictions = 0;
    for (const a of this.accounts) {
      const s = byName.get(a.name) ?? { name: a.name, entries: 0, bytes: 0, evictions: 0 };
      s.entries += a.entries;
      s.bytes += a.bytes;
      s.evictions += a.evictions;
      evictions += a.evictions;
      byName.set(a.name, s);
    }
    return {
      limitBytes: this.limit,
      usedBytes: this.used,
      entries: this.lru.size,
      evictions,
      caches: [...byName.values()].sort((a, b) => b.bytes - a.bytes),
    };
  }
}

const ids = new WeakMap<MemoryAccount, number>();
let nextId = 0;
function idOf(account: MemoryAccount, key: string): string {
  let n = ids.get(account);
  if (n === undefined) {
    n = nextId++;
    ids.set(account, n);
  }
  return `${n}\u0000${key}`;
}

/**
 * Roughly what a value costs in memory: strings two bytes a character, numbers and slots eight,
 * objects and collections a header each, typed arrays their buffer. Walks at most `limit` nodes
 * (a huge value is then charged by what was seen, scaled up), so estimating never costs much.
 */
export function estimateBytes(value: unknown, limit = 200_000): number {
  let nodes = 0;
  let bytes = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  let unseen = 0;
  while (stack.length) {
    const v = stack.pop();
    if (nodes >= limit) {
      unseen++;
      continue;
    }
    nodes++;
    switch (typeof v) {
      case 'string':
        bytes += 16 + 2 * v.length;
        continue;
      case 'number':
      case 'boolean':
      case 'bigint':
        bytes += 8;
        continue;
      case 'object':
        break;
      default:
        continue;
    }
    if (v === null || seen.has(v as object)) continue;
    seen.add(v as object);
    if (ArrayBuffer.isView(v)) {
      bytes += 64 + v.byteLength;
    } else if (v instanceof Map) {
      bytes += 64 + 40 * v.size;
      for (const [k, x] of v) stack.push(k, x);
    } else if (v instanceof Set) {
      bytes += 64 + 24 * v.size;
      for (const x of v) stack.push(x);
    } else if (Array.isArray(v)) {
      bytes += 32 + 8 * v.length;
      for (const x of v) stack.push(x);
    } else if (v instanceof Date) {
      bytes += 32;
    } else {
      const keys = Object.keys(v as object);
      bytes += 32 + 16 * keys.length;
      for (const k of keys) stack.push((v as Record<string, unknown>)[k]);
    }
  }
  // What was not walked is charged at the average of what was.
  return nodes ? Math.round(bytes + (unseen * bytes) / nodes) : bytes;
}

/**
 * A map of small values with a time to live, least recently used first out: past `maxEntries`,
 * or when the budget (if any) takes an entry back. For lookups kept per host or per store (host
 * bindings, access modes) that used to be cleared whole when they grew.
 */
export class LruValues<V> {
  private map = new Map<string, { value: V; expires: number }>();
  private readonly account?: MemoryAccount;

  constructor(
    name: string,
    private readonly opts: {
      ttlMs: number;
      maxEntries: number;
      memory?: MemoryBudget;
      /** An entry's estimated bytes (default: its key and value walked by estimateBytes, plus the map's). */
      sizeOf?: (key: string, value: V) => number;
      now?: () => number;
    },
  ) {
    this.account = opts.memory?.account(name, (key) => {
      this.map.delete(key);
    });
  }

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.expires <= (this.opts.now ?? Date.now)()) {
      this.delete(key);
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, hit);
    this.account?.touch(key);
    return hit.value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.opts.maxEntries) {
      const oldest = this.map.keys().next().value as string;
      this.delete(oldest);
    }
    this.map.set(key, { value, expires: (this.opts.now ?? Date.now)() + this.opts.ttlMs });
    this.account?.charge(key, this.opts.sizeOf ? this.opts.sizeOf(key, value) : 96 + estimateBytes([key, value]));
  }

  delete(key: string): void {
    if (this.map.delete(key)) this.account?.release(key);
  }

  clear(): void {
    this.map.clear();
    this.account?.releaseAll();
  }

  get size(): number {
    return this.map.size;
  }
}
