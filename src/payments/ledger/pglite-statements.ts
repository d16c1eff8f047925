// The ledger's queries and transactions on PGlite, each statement a named prepared statement run in
// one call into the WASM backend. PGlite's own `query` makes six calls per query (Parse, Describe,
// Bind, Describe, Execute, Sync) and parses and plans the SQL every time, and its `transaction` two
// more for each of BEGIN and COMMIT: a channel charge took ~1.6 ms of the main thread that way, of
// which the backend's own work is ~0.4 ms. Here a statement is parsed and described once per
// session (its parameter types kept); each run sends Bind, Describe, Execute and Sync together.
// Values are serialized and rows parsed by PGlite's own serializers and parsers for the types the
// backend described, so results are exactly what PGlite's `query` returns.
import { parse, protocol, TransactionAbortedError, type PGlite } from '@electric-sql/pglite';
import type { SqlQueries } from './sql-client.ts';

/** A prepared statement of this session: its name and the type of each parameter. */
interface Prepared {
  name: string;
  paramTypes: readonly number[];
}

// The ledger's SQL is a fixed set of texts; past this many, statements are parsed each time, unnamed.
const MAX_PREPARED = 256;
// Statement names are unique in the process, so that two of these on one PGlite never clash.
let statementCount = 0;

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
  private readonly prepared = new Map<string, Prepared>();
  /** Queries inside a transaction: the transaction lock is already held, so only the query lock is taken. */
  private readonly inTransaction: SqlQueries = {
    query: (sql, params = []) => this.pg._runExclusiveQuery(() => this.run(sql, params)),
    exec: async (sql) => {
      await this.pg._runExclusiveQuery(() => this.simple(sql));
    },
  };

  constructor(private readonly pg: PGlite, private readonly maxPrepared = MAX_PREPARED) {}

  /** A query outside any transaction: both of PGlite's locks, as its `query` takes them. */
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<{ rows: Row[] }> {
    const result = await this.pg._runExclusiveTransaction(() => this.pg._runExclusiveQuery(() => this.run<Row>(sql, params)));
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

  /** Runs `sql` as a prepared statement (within the query lock). */
  private async run<Row>(sql: string, params: readonly unknown[]): Promise<{ rows: Row[] }> {
    let statement = this.prepared.get(sql);
    if (!statement) {
      if (this.prepared.size >= this.maxPrepared) return this.unprepared<Row>(sql, params);
      statement = await this.prepare(sql);
    }
    const { paramTypes } = statement;
    const values = params.map((value, i) => this.serialize(value, paramTypes[i]));
    const messages = await this.pg.execProtocolStream(concat([
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const [result] = parse.parseResults(messages, this.pg.parsers);
    return { rows: (result?.rows ?? []) as Row[] };
  }

  /** Parses and describes `sql` as a named statement of this session. */
  private async prepare(sql: string): Promise<Prepared> {
    const name = `toolgate_${++statementCount}`;
    const messages = await this.pg.execProtocolStream(concat([
      protocol.serialize.parse({ name, text: sql }),
      protocol.serialize.describe({ type: 'S', name }),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(sql, prepared);
    return prepared;
  }

  /** Past `maxPrepared` statements: the unnamed statement, parsed each time. */
  private async unprepared<Row>(sql: string, params: readonly unknown[]): Promise<{ rows: Row[] }> {
    const described = await this.pg.execProtocolStream(concat([
      protocol.serialize.parse({ text: sql }),
      protocol.serialize.describe({ type: 'S' }),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const paramTypes = parse.parseDescribeStatementResults(described);
    const messages = await this.pg.execProtocolStream(concat([
      protocol.serialize.bind({ values: params.map((value, i) => this.serialize(value, paramTypes[i])) }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]), { syncToFs: false });
    const [result] = parse.parseResults(messages, this.pg.parsers);
    return { rows: (result?.rows ?? []) as Row[] };
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
