/**
 * PostgreSQL's order of lexemes and its qsort, reproduced exactly: the index numbers its lexemes in
 * this order (a prefix is then a range of ids) and ts_rank's result depends on which of two equal
 * operands the sort keeps first.
 */

/** Lexeme order of PostgreSQL (tsCompareString): UTF-8 bytes, then length. */
export function compareLexemes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts surrogates (code points above U+FFFF) below U+E000..U+FFFF; UTF-8 puts them above.
    if (x >= 0xd800 && x < 0xe000) x += 0x10000;
    if (y >= 0xd800 && y < 0xe000) y += 0x10000;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * PostgreSQL's qsort (src/include/lib/sort_template.h), element for element: ts_rank keeps the
 * first of equal operands ("lamp" and "lamp:*") after this sort, and which one that is depends on
 * the algorithm, not only on the comparator.
 */
export function pgQsort<T>(arr: T[], cmp: (a: T, b: T) => number, base = 0, count = arr.length): void {
  const swap = (i: number, j: number) => {
    const t = arr[i] as T;
    arr[i] = arr[j] as T;
    arr[j] = t;
  };
  const c = (i: number, j: number) => cmp(arr[i] as T, arr[j] as T);
  const med3 = (a: number, b: number, m: number) =>
    c(a, b) < 0 ? (c(b, m) < 0 ? b : c(a, m) < 0 ? m : a) : c(b, m) > 0 ? b : c(a, m) < 0 ? a : m;
  let a = base;
  let n = count;
  for (;;) {
    if (n < 7) {
      for (let pm = a + 1; pm < a + n; pm++) for (let pl = pm; pl > a && c(pl - 1, pl) > 0; pl--) swap(pl, pl - 1);
      return;
    }
    let presorted = true;
    for (let pm = a + 1; pm < a + n; pm++) {
      if (c(pm - 1, pm) > 0) {
        presorted = false;
        break;
      }
    }
    if (presorted) return;
    let pm = a + Math.floor(n / 2);
    if (n > 7) {
      let pl = a;
      let pn = a + n - 1;
      if (n > 40) {
        const d = Math.floor(n / 8);
        pl = med3(pl, pl + d, pl + 2 * d);
        pm = med3(pm - d, pm, pm + d);
        pn = med3(pn - 2 * d, pn - d, pn);
      }
      pm = med3(pl, pm, pn);
    }
    swap(a, pm);
    let pa = a + 1;
    let pb = pa;
    let pc = a + n - 1;
    let pd = pc;
    for (;;) {
      while (pb <= pc) {
        const r = c(pb, a);
        if (r > 0) break;
        if (r === 0) swap(pa++, pb);
        pb++;
      }
      while (pb <= pc) {
        const r = c(pc, a);
        if (r < 0) break;
        if (r === 0) swap(pc, pd--);
        pc--;
      }
      if (pb > pc) break;
      swap(pb++, pc--);
    }
    const pn = a + n;
    let d1 = Math.min(pa - a, pb - pa);
    for (let i = 0; i < d1; i++) swap(a + i, pb - d1 + i);
    d1 = Math.min(pd - pc, pn - pd - 1);
    for (let i = 0; i < d1; i++) swap(pb + i, pn - d1 + i);
    d1 = pb - pa;
    const d2 = pd - pc;
    if (d1 <= d2) {
      if (d1 > 1) pgQsort(arr, cmp, a, d1);
      if (d2 > 1) {
        a = pn - d2;
        n = d2;
        continue;
      }
    } else {
      if (d2 > 1) pgQsort(arr, cmp, pn - d2, d2);
      if (d1 > 1) {
        n = d1;
        continue;
      }
    }
    return;
  }
}
