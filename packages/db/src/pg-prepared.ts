import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Statements kept prepared per connection at most; past that, new texts run unnamed. */
const DEFAULT_MAX_STATEMENTS = 256;

interface NamedQuery {
  text?: string;
  name?: string;
  values?: unknown[];
}

/**
 * Every statement of the app prepared once per PostgreSQL connection (decision 063), as PGlite's
 * client does (decision 061). node-postgres sends an unnamed statement by default, which the server
 * parses, analyses and plans on every run: a third of PostgreSQL's CPU under the order bench was
 * that. A named statement is parsed once per connection, and after five runs PostgreSQL keeps a
 * generic plan when it is not costlier than the custom ones (`plan_cache_mode` auto).
 *
 * The name is a digest of the text, so the same text gets the same name on every connection and a
 * name can never stand for two texts. Drizzle writes one text per query shape with the values as
 * parameters, so a few hundred names cover the app; a connection prepares at most `max` of them and
 * runs further texts unnamed, so a text built with a varying shape cannot grow the server's memory
 * without bound.
 */
export function prepareEveryStatement(client: pg.PoolClient, max = DEFAULT_MAX_STATEMENTS): void {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === 'object' && !(config as NamedQuery).name) {
      const q = config as NamedQuery;
      const values = (rest[0] as unknown[] | undefined) ?? q.values;
      // Only parameterised statements: a text without values (BEGIN, COMMIT, a migration's DDL)
      // goes by the simple protocol, which cannot be named and plans nothing worth keeping.
      if (q.text && values && values.length > 0) {
        const name = nameOf(q.text);
        if (prepared.has(name) || prepared.size < max) {
          prepared.add(name);
          return query({ ...q, name }, ...rest);
        }
      }
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

const names = new Map<string, string>();
/** The statement's name: a digest of its text (cached, since drizzle sends the same texts again). */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size > 4096) names.clear();
    names.set(text, name);
  }
  return name;
}
