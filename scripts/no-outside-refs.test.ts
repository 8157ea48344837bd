import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: a reader of a comment, a test or a decision record has only what is in
 * it. A citation of a document kept elsewhere (a product or design document, an issue tracker's
 * number) points at nothing for them, so the sentence must say what it means in its own words, or
 * name a decision record of docs/decisions. This test is the rule's keeper: it fails on a tracked file
 * that cites one, naming the file, the line and the words.
 */
const root = join(import.meta.dirname, '..');
const SELF = 'scripts/no-outside-refs.test.ts';

/** `SPEC.md`, `DESIGN.md`, `SPEC's`, `(SPEC)`, `issue 30`, `Issues 15-18`: citations, not prose. */
const CITATION = /\b(?:SPEC|DESIGN)\.md\b|\bSPEC's\b|\(SPEC\)|\b[Ii]ssues? \d+/;

export function citations(path: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const m = CITATION.exec(line);
    return m ? [`${path}:${i + 1}: ${m[0]} in "${line.trim().slice(0, 120)}"`] : [];
  });
}

function trackedTextFiles(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter((p) => p && p !== SELF && !p.includes('node_modules/'));
  return paths.flatMap((path) => {
    let buf: Buffer;
    try {
      buf = readFileSync(join(root, path));
    } catch {
      return []; // deleted in the work tree, not yet in the index
    }
    return buf.includes(0) ? [] : [{ path, text: buf.toString('utf8') }];
  });
}

describe('the repository cites no document outside it', () => {
  it('recognises a citation and leaves prose alone', () => {
    expect(citations('a.ts', '// paths as SPEC.md section 7\n// see DESIGN.md\n// (issue 30 point 6)')).toHaveLength(3);
    expect(citations('a.ts', "// SPEC's layout\n// Issues 15-18 add rows")).toHaveLength(2);
    expect(citations('a.ts', '// payment issues are listed; the SPEC map of toasts; decision 030')).toEqual([]);
  });

  it('finds none in the tracked files', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(({ path, text }) => citations(path, text))).toEqual([]);
  });
});
