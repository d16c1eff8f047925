// The one thing the SQL ledger needs from a database: parameterised queries returning rows.
// PGlite (embedded) and node-postgres (server) both fit it with the same SQL.
export interface SqlClient {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
