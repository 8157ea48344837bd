import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SLOW_FILES } from './sequencer';

// The slowest files are scheduled first by name (sequencer.ts): a file moved or renamed would
// quietly lose its place, so every name must still be a test file.
it('names only test files that exist', () => {
  const missing = Object.entries(SLOW_FILES).flatMap(([project, files]) =>
    Object.keys(files)
      .filter((file) => !existsSync(file))
      .map((file) => `${project}: ${file}`),
  );
  expect(missing).toEqual([]);
});

it('names only the suite’s two projects', () => {
  expect(Object.keys(SLOW_FILES).sort()).toEqual(['pglite', 'postgres']);
});
