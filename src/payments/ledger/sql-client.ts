// The one thing the SQL ledger needs from a database: parameterised queries returning rows.
// PGlite (embedded) and node-postgres (server) both fit it with the same SQL.
export interface SqlQueries {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlQueries {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
