/**
 * BENCH_STATEMENTS=1: counts the SQL statements PGlite runs while `tallying` is on, and the time spent
 * in each kind (its first words), so a benchmark can say which statements a slow path repeats. It
 * wraps PreparedPglite's one exchange per statement; the app's code is unchanged. Off, it does nothing.
 */
import { PreparedPglite } from '../packages/db/src/pglite-prepared';

export const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
const tally = new Map<string, { n: number; ms: number }>();
let on = false;

if (STATEMENTS) {
  const proto = PreparedPglite.prototype as unknown as { run: (text: string, ...rest: unknown[]) => Promise<unknown> };
  const run = proto.run;
  proto.run = async function (this: unknown, text: string, ...rest: unknown[]) {
    if (!on) return run.call(this, text, ...rest);
    const t0 = performance.now();
    try {
      return await run.call(this, text, ...rest);
    } finally {
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
      const e = tally.get(key) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += performance.now() - t0;
      tally.set(key, e);
    }
  };
}

/** Counts the statements `work` runs (when BENCH_STATEMENTS=1), then prints them under `title`. */
export async function tallied<T>(title: string, work: () => Promise<T>): Promise<T> {
  if (!STATEMENTS) return work();
  tally.clear();
  on = true;
  try {
    return await work();
  } finally {
    on = false;
    const rows = [...tally].sort((a, b) => b[1].ms - a[1].ms);
    const all = rows.reduce((a, [, e]) => ({ n: a.n + e.n, ms: a.ms + e.ms }), { n: 0, ms: 0 });
    console.log(`${title}: ${all.n} statements, ${Math.round(all.ms)} ms in them`);
    console.table(rows.slice(0, 12).map(([sql, e]) => ({ sql, count: e.n, ms: Math.round(e.ms) })));
  }
}
