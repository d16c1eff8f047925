// The ledger's queries and transactions on PGlite, each statement run in one call into the WASM
// backend. PGlite's own `query` makes six calls per query (Parse, Describe, Bind, Describe, Execute,
// Sync) and its `transaction` two more for each of BEGIN and COMMIT. Here a statement's parameter
// types are described once per SQL text; each run then sends Parse, Bind, Describe, Execute and Sync
// together, as the unnamed statement PGlite uses, so it is planned for its values exactly as before.
// A statement the caller marks `prepared` (its plan does not depend on its values: a primary-key
// update, an insert) is parsed and planned once per session, as a named statement; each run sends
// Bind, Describe, Execute and Sync. Not every statement: a kept (generic) plan is made without
// statistics, which PGlite never gathers, and for `payments` filtered on other columns it scanned
// where the values' plan used an index.
// Values are serialized and rows parsed by PGlite's own serializers and parsers for the types the
// backend described, so results are exactly what PGlite's `query` returns.
import { parse, protocol, TransactionAbortedError, type PGlite } from '@electric-sql/pglite';
import type { QueryOptions, SqlQueries } from './sql-client.ts';

// The ledger's SQL is a fixed set of texts; past this many, parameter types are described each time
// (and statements marked prepared run as the unnamed statement).
const MAX_DESCRIBED = 256;
// Statement names are unique in the process, so that two of these on one PGlite never clash.
let statementCount = 0;

/** A statement of this session, parsed once: its name and the type of each parameter. */
interface Named {
  name: string;
  paramTypes: readonly number[];
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export class PgliteStatements {
  /** Each SQL text's parameter types, as the backend described them. */
  private readonly paramTypes = new Map<string, readonly number[]>();
  private readonly named = new Map<string, Named>();
  /** Queries inside a transaction: the transaction lock is already held, so only the query lock is taken. */
  private readonly inTransaction: SqlQueries = {
    query: (sql, params = [], options) => this.pg._runExclusiveQuery(() => this.run(sql, params, options)),
    exec: async (sql) => {
      await this.pg._runExclusiveQuery(() => this.simple(sql));
    },
  };

  constructor(private readonly pg: PGlite, private readonly maxDescribed = MAX_DESCRIBED) {}

  /** A query outside any transaction: both of PGlite's locks, as its `query` takes them. */
  async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<{ rows: Row[] }> {
    const result = await this.pg._runExclusiveTransaction(() => this.pg._runExclusiveQuery(() => this.run<Row>(sql, params, options)));
    await this.pg.syncToFs();
    return result;
  }

  /** `work` between BEGIN and COMMIT, rolled back if it throws; as PGlite's `transaction`, one call each. */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> {
    return this.pg._runExclusiveTransaction(async () => {
      const tx = this.inTransaction;
      await tx.exec('BEGIN');
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        await tx.exec('ROLLBACK');
        throw error;
      }
      // A statement that failed inside (its error caught by `work`) leaves the transaction aborted: COMMIT rolls it back.
      const [commit] = await this.pg._runExclusiveQuery(() => this.simple('COMMIT'));
      if (commit?.command === 'ROLLBACK') throw new TransactionAbortedError();
      await this.pg.syncToFs();
      return result;
    });
  }

  /** Runs `sql` (within the query lock) in one call: Parse (unless named and parsed), Bind, Describe, Execute and Sync. */
  private async run<Row>(sql: string, params: readonly unknown[], options?: QueryOptions): Promise<{ rows: Row[] }> {
    const named = options?.prepared ? this.named.get(sql) ?? await this.prepare(sql) : undefined;
    const paramTypes = named?.paramTypes ?? this.paramTypes.get(sql) ?? await this.describe(sql);
    const values = params.map((value, i) => this.serialize(value, paramTypes[i]));
    const messages = await this.pg.execProtocolStream(concat([
      ...(named ? [] : [protocol.serialize.parse({ text: sql })]),
      protocol.serialize.bind({ ...(named ? { statement: named.name } : {}), values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const [result] = parse.parseResults(messages, this.pg.parsers);
    return { rows: (result?.rows ?? []) as Row[] };
  }

  /** Parses and describes `sql` as a named statement of this session; none past the limit of kept texts. */
  private async prepare(sql: string): Promise<Named | undefined> {
    if (this.named.size + this.paramTypes.size >= this.maxDescribed) return undefined;
    const name = `toolgate_${++statementCount}`;
    const messages = await this.pg.execProtocolStream(concat([
      protocol.serialize.parse({ name, text: sql }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const named = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.named.set(sql, named);
    return named;
  }

  /** The types of `sql`'s parameters, kept for the next run unless too many texts are kept. */
  private async describe(sql: string): Promise<readonly number[]> {
    const messages = await this.pg.execProtocolStream(concat([
      protocol.serialize.parse({ text: sql }),
      protocol.serialize.describe({ type: 'S' }),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const types = parse.parseDescribeStatementResults(messages);
    if (this.named.size + this.paramTypes.size < this.maxDescribed) this.paramTypes.set(sql, types);
    return types;
  }

  /** One or more statements without parameters (the simple protocol), as PGlite's `exec` sends them. */
  private async simple(sql: string) {
    return parse.parseResults(await this.pg.execProtocolStream(protocol.serialize.query(sql), { syncToFs: false }), this.pg.parsers);
  }

  /** A value as PGlite's `query` sends it for a parameter of type `oid`. */
  private serialize(value: unknown, oid: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = oid === undefined ? undefined : this.pg.serializers[oid];
    return serializer ? serializer(value) : String(value);
  }
}
