/**
 * KNOWN_FAILURES: what the sweep found that is not fixed yet, so the sweep can run in CI meanwhile.
 * THE GOAL IS THAT THIS LIST IS EMPTY. Each entry matches failure keys of the form
 * `<kind> · <METHOD> <path> · <caller> · <variant>` (`*` matches anything) and names its cause.
 * An entry that matches nothing any more fails the sweep too: the fix landed, so delete the entry.
 * Never add an entry without a cause; never add one to hide a 5xx that has no issue.
 */
export interface KnownFailure {
  match: string;
  cause: string;
}

export const KNOWN_FAILURES: KnownFailure[] = [];

export function matches(pattern: string, key: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  return re.test(key);
}
