// The one thing the SQL ledger needs from a database: parameterised queries returning rows.
// PGlite (embedded) and node-postgres (server) both fit it with the same SQL.
export interface QueryOptions {
  /**
   * Prepared once per connection and its plan kept: only for a statement whose best plan does not
   * depend on its values (a primary-key update, an insert). PGlite gathers no statistics, so a kept
   * (generic) plan of a statement that filters on other columns may scan where its values' plan would
   * use an index.
   */
  prepared?: boolean;
}

export interface SqlQueries {
  query<Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlQueries {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
