import {
  messages,
  type PGlite,
  protocol,
  type QueryOptions,
  type Results,
  TransactionAbortedError,
  types,
} from '@electric-sql/pglite';
// node-postgres's own conversion of a JavaScript value to a parameter's text, so a value means on
// PGlite exactly what it means on PostgreSQL, where node-postgres sends it.
import pgUtils from 'pg/lib/utils.js';

/**
 * What drizzle's PGlite driver asks of its client: `query` and `transaction` (whose callback gets
 * an object with `query`). PreparedPglite answers both over one PGlite instance.
 */
interface QueryClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

/** Statements kept prepared at most; the least recently used is closed past that. */
const DEFAULT_MAX_STATEMENTS = 256;
/** Statement names are per backend session; two clients over one PGlite must not share one. */
let clients = 0;

/**
 * PGlite's client for the app's queries (decision 061). PGlite's own `query` parses and plans
 * every statement anew, and talks to the WebAssembly backend six times to do it (Parse, Describe
 * statement, Bind, Describe portal, Execute, Sync). Planning is most of a simple statement's cost:
 * about 340 µs per primary-key read on this machine, against 125 µs for the same read prepared.
 *
 * So each SQL text is prepared once under a name, and a query is then one exchange: Bind,
 * Describe, Execute and Sync in one buffer (with Parse first the first time), answered in one
 * call. Drizzle writes the same text for every query of one shape, with values as parameters, so
 * a few hundred names cover the app. Values are sent as text with no declared type, as
 * node-postgres sends them, and the server infers each type from the statement.
 *
 * PostgreSQL keeps a prepared statement's plan and re-plans when the tables it uses change
 * (`plan_cache_mode` auto: the first five runs are planned for their values, then a generic plan
 * is used if it is not costlier). Migrations run through PGlite's own client before the app starts.
 */
export class PreparedPglite implements QueryClient {
  /** SQL text → statement name, in order of last use (a Map keeps insertion order). */
  private readonly names = new Map<string, string>();
  /** Names to close with the next exchange (evicted past the bound). */
  private closing: string[] = [];
  private nextName = 1;
  private readonly prefix = `app${++clients}_`;
  private inTransaction = false;

  constructor(
    private readonly pg: PGlite,
    private readonly maxStatements = DEFAULT_MAX_STATEMENTS,
  ) {}

  /** A statement on its own: waits for any transaction under way, as PGlite's `query` does. */
  async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    await this.pg._checkReady();
    return this.pg._runExclusiveTransaction(() => this.run<T>(text, params, options));
  }

  /** BEGIN, the callback's statements, then COMMIT; ROLLBACK if the callback throws. */
  async transaction<T>(callback: (tx: QueryClient) => Promise<T>): Promise<T> {
    await this.pg._checkReady();
    return this.pg._runExclusiveTransaction(async () => {
      await this.simple('BEGIN');
      this.inTransaction = true;
      let open = true;
      const tx: QueryClient = {
        query: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
          if (!open) throw new Error('Transaction is closed');
          return this.run<R>(text, params ?? [], options);
        },
      };
      try {
        const result = await callback(tx);
        open = false;
        // A transaction that failed inside (an error the callback caught) ends in ROLLBACK.
        if ((await this.simple('COMMIT')) === 'ROLLBACK') {
          throw Object.assign(new TransactionAbortedError(), { query: 'COMMIT' });
        }
        return result;
      } catch (err) {
        if (open) {
          open = false;
          await this.simple('ROLLBACK');
        }
        throw err;
      } finally {
        this.inTransaction = false;
      }
    });
  }

  /** Prepared statements held now (tests). */
  statements(): number {
    return this.names.size;
  }

  private run<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.pg._runExclusiveQuery(async () => {
      const parts: Uint8Array[] = this.closing.map((name) => protocol.serialize.close({ type: 'S', name }));
      this.closing = [];
      let name = this.names.get(text);
      const fresh = name === undefined;
      if (name === undefined) {
        name = `${this.prefix}${this.nextName++}`;
        parts.push(protocol.serialize.parse({ text, name, types: [] }));
      } else {
        // Most recently used last.
        this.names.delete(text);
      }
      this.names.set(text, name);
      const values = params.map((v) => pgUtils.prepareValue(v));
      parts.push(
        protocol.serialize.bind({ statement: name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      );

      const answer = await this.exchange(parts);
      const error = answer.find((m) => m instanceof messages.DatabaseError);
      if (error) {
        // Parse refused (bad SQL, or a transaction already failed): nothing was prepared.
        if (fresh && !answer.some((m) => m.name === 'parseComplete')) this.names.delete(text);
        throw Object.assign(error, { query: text, params, queryOptions: options });
      }
      this.evict();
      if (!this.inTransaction) await this.pg.syncToFs();
      return toResults<T>(answer, this.pg.parsers, options);
    });
  }

  /** A transaction command as a simple query; answers its command tag (COMMIT may say ROLLBACK). */
  private async simple(text: string): Promise<string | undefined> {
    return this.pg._runExclusiveQuery(async () => {
      const answer = await this.exchange([protocol.serialize.query(text)]);
      const error = answer.find((m) => m instanceof messages.DatabaseError);
      if (error) throw Object.assign(error, { query: text });
      if (!this.inTransaction) await this.pg.syncToFs();
      const done = answer.find((m) => m instanceof messages.CommandCompleteMessage);
      return (done as messages.CommandCompleteMessage | undefined)?.text;
    });
  }

  /**
   * One call into the backend for every message, and its answers parsed, once. Not through
   * `execProtocolRawSync`: that copies the answer into PGlite's receive buffer and parses it into
   * PGlite's own result list, which only `execProtocol` empties, so every row, field and command tag
   * of every statement since start stayed on the heap (about 22 MB an hour for an idle demo server,
   * decision 072). `execProtocolRawStream` hands each chunk the backend writes to `onRawData` instead
   * (a view into the WebAssembly memory, which the parser copies before keeping any part of it) and
   * neither buffers nor parses it itself; after it nothing of the exchange is left but `answer`.
   */
  private async exchange(parts: Uint8Array[]): Promise<messages.BackendMessage[]> {
    let length = 0;
    for (const p of parts) length += p.length;
    const message = new Uint8Array(length);
    let offset = 0;
    for (const p of parts) {
      message.set(p, offset);
      offset += p.length;
    }
    const answer: messages.BackendMessage[] = [];
    const parser = new protocol.Parser();
    // Written to the data directory by the caller, once the statement is known to have succeeded.
    await this.pg.execProtocolRawStream(message, {
      syncToFs: false,
      onRawData: (chunk) => parser.parse(chunk, (m) => answer.push(m)),
    });
    return answer;
  }

  private evict(): void {
    while (this.names.size > this.maxStatements) {
      const [oldest, name] = this.names.entries().next().value as [string, string];
      this.names.delete(oldest);
      this.closing.push(name);
    }
  }
}

type Parsers = Record<number | string, types.Parser>;

/**
 * The statement's answer as PGlite's `query` gives it: rows (objects or arrays), fields, command,
 * affected rows and row count, each value through the query's parser for its type, else the
 * instance's (which knows the array types), else PGlite's defaults. PGlite merges the first two
 * into a new object on every query, a few hundred keys each time: here they are looked up in turn.
 */
/** The command tags whose count is rows written (PGlite's `affectedRows`). */
const ROW_WRITING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

function toResults<T>(answer: messages.BackendMessage[], own: Parsers, options?: QueryOptions): Results<T> {
  const asked = options?.parsers as Parsers | undefined;
  const fields: { name: string; dataTypeID: number }[] = [];
  const rows: unknown[] = [];
  let parsers: (types.Parser | undefined)[] = [];
  const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
  for (const m of answer) {
    if (m instanceof messages.RowDescriptionMessage) {
      for (const f of m.fields) fields.push({ name: f.name, dataTypeID: f.dataTypeID });
      parsers = fields.map((f) => asked?.[f.dataTypeID] ?? own[f.dataTypeID] ?? types.parsers[f.dataTypeID]);
    } else if (m instanceof messages.DataRowMessage) {
      const values = m.fields.map((v, i) => {
        const parser = parsers[i];
        return v === null || !parser ? v : parser(v, fields[i]?.dataTypeID as number);
      });
      if (options?.rowMode === 'array') rows.push(values);
      else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) row[fields[i]?.name as string] = values[i];
        rows.push(row);
      }
    } else if (m instanceof messages.CommandCompleteMessage) {
      // "SELECT 2", "UPDATE 3", "INSERT 0 5"; other tags end in a word ("CREATE TABLE").
      const parts = m.text.split(' ');
      const command = parts[0] as string;
      const count = Number.parseInt(parts[parts.length - 1] as string, 10);
      result.command = command;
      if (ROW_WRITING_COMMANDS.has(command)) result.affectedRows = count;
      if (!Number.isNaN(count)) result.rowCount = count;
    }
  }
  return result;
}
