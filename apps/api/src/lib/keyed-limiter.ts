/**
 * At most `limit` tasks at once per key (a store), with at most `queue` more waiting their turn in
 * arrival order; past that `run` refuses at once instead of letting one key's backlog grow. Keys
 * with nothing running or waiting are forgotten, so the number of stores ever seen does not matter.
 */
export class KeyedLimiter {
  private readonly keys = new Map<string, { running: number; waiting: Array<() => void> }>();

  constructor(
    readonly limit: number,
    readonly queue: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number of at least 1');
    if (!Number.isInteger(queue) || queue < 0) throw new RangeError('queue must be a whole number of at least 0');
  }

  /** Runs `task` when `key` has a free slot; `null` (nothing run) when its slots and queue are full. */
  async run<T>(key: string, task: () => Promise<T> | T): Promise<{ value: T } | null> {
    const release = await this.acquire(key);
    if (!release) return null;
    try {
      return { value: await task() };
    } finally {
      release();
    }
  }

  /**
   * Takes a slot of `key`, waiting in the queue if need be: a `release` function, or `null` at once
   * when its slots and queue are full. Calling `release` more than once gives the slot back once.
   */
  async acquire(key: string): Promise<(() => void) | null> {
    let state = this.keys.get(key);
    if (!state) {
      state = { running: 0, waiting: [] };
      this.keys.set(key, state);
    }
    if (state.running >= this.limit) {
      if (state.waiting.length >= this.queue) return null;
      // The slot is handed over by the holder that ends (running stays counted), so no newcomer
      // can overtake the ones already waiting.
      await new Promise<void>((resolve) => state.waiting.push(resolve));
    } else {
      state.running++;
    }
    const held = state;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = held.waiting.shift();
      // Handed over on the next turn of the event loop, not at once: requests of other stores that
      // have arrived meanwhile are read first, so one store's queue cannot run back to back.
      if (next) setImmediate(next);
      else if (--held.running === 0) this.keys.delete(key);
    };
  }

  /** Tasks running and waiting for `key` (tests, metrics). */
  load(key: string): { running: number; waiting: number } {
    const state = this.keys.get(key);
    return { running: state?.running ?? 0, waiting: state?.waiting.length ?? 0 };
  }

  /** How many keys have something running or waiting. */
  get activeKeys(): number {
    return this.keys.size;
  }
}
