import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The three places that name the environment variables must agree: a variable the server reads but
 * the README or .env.example does not list is one an operator cannot find.
 */
const root = join(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The keys of the zod schema in config.ts (two-space indented `NAME:` lines inside envSchema). */
function configVariables(): string[] {
  const source = read('apps/api/src/config.ts');
  const body = source.slice(source.indexOf('const envSchema = z.object({'), source.indexOf('\n});'));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1] as string);
}

/** Lines `NAME=...`, set or commented out. */
function envExampleVariables(): string[] {
  return [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string);
}

/** The first column of the README's configuration table (a row may name several variables). */
function readmeVariables(): string[] {
  const readme = read('README.md');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] as string));
}

const sorted = (names: string[]) => [...new Set(names)].sort();

describe('configuration documentation', () => {
  it('finds the variables in each place', () => {
    expect(configVariables()).toContain('PORT');
    expect(envExampleVariables()).toContain('SMTP_URL');
    expect(readmeVariables()).toContain('PAYPAL_CLIENT_SECRET');
  });

  it('lists every variable of config.ts in .env.example and the README, and nothing else', () => {
    const config = sorted(configVariables());
    expect(sorted(envExampleVariables()), '.env.example').toEqual(config);
    expect(sorted(readmeVariables()), "README's configuration table").toEqual(config);
  });
});
