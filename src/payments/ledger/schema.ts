// The ledger's schema as numbered migrations, valid for PostgreSQL and PGlite alike. Each runs once,
// in order, inside a transaction that holds an advisory lock, so instances starting together on one
// database apply it once. Never edit a published migration: add the next one.
import type { SqlClient } from './sql-client.ts';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'payments: one row per authorization, unique (payer, nonce), a timestamp per state',
    // IF NOT EXISTS: ledgers created before migrations were numbered already hold this table.
    sql: `
CREATE TABLE IF NOT EXISTS payments (
  id          BIGSERIAL PRIMARY KEY,
  payer       TEXT NOT NULL,
  nonce       TEXT NOT NULL,
  tool        TEXT NOT NULL,
  amount      NUMERIC(78, 0) NOT NULL,
  network     TEXT NOT NULL,
  resource    TEXT NOT NULL,
  state       TEXT NOT NULL,
  tx_hash     TEXT,
  error       TEXT,
  attempts    INTEGER NOT NULL DEFAULT 1,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  verified_at TIMESTAMPTZ,
  running_at  TIMESTAMPTZ,
  settling_at TIMESTAMPTZ,
  settled_at  TIMESTAMPTZ,
  released_at TIMESTAMPTZ,
  failed_at   TIMESTAMPTZ,
  pending_at  TIMESTAMPTZ,
  CONSTRAINT payments_payer_nonce UNIQUE (payer, nonce)
);
CREATE INDEX IF NOT EXISTS payments_state ON payments (state);
CREATE INDEX IF NOT EXISTS payments_tool_settled ON payments (tool, settled_at);
CREATE INDEX IF NOT EXISTS payments_settled_at ON payments (settled_at);
CREATE INDEX IF NOT EXISTS payments_state_updated ON payments (state, updated_at);
`,
  },
  {
    version: 2,
    description: 'settlement: the signed authorization kept for the settler, who sent it when, what it cost',
    sql: `
ALTER TABLE payments ADD COLUMN signed_authorization TEXT;
ALTER TABLE payments ADD COLUMN submitted_at  TIMESTAMPTZ;
ALTER TABLE payments ADD COLUMN settler       TEXT;
ALTER TABLE payments ADD COLUMN batch_size    INTEGER;
ALTER TABLE payments ADD COLUMN gas_used      NUMERIC(78, 0);
ALTER TABLE payments ADD COLUMN gas_price_wei NUMERIC(78, 0);
ALTER TABLE payments ADD COLUMN l1_fee_wei    NUMERIC(78, 0);
`,
  },
  {
    version: 3,
    description: 'idempotent retries: the payment-identifier, the fingerprint of the request it paid for, the result to replay',
    sql: `
ALTER TABLE payments ADD COLUMN payment_identifier  TEXT;
ALTER TABLE payments ADD COLUMN request_fingerprint TEXT;
ALTER TABLE payments ADD COLUMN result              TEXT;
CREATE UNIQUE INDEX payments_identifier_active ON payments (payment_identifier)
  WHERE payment_identifier IS NOT NULL AND state NOT IN ('released', 'failed');
CREATE INDEX payments_results_kept ON payments (settled_at) WHERE result IS NOT NULL;
`,
  },
  {
    version: 4,
    description: 'instances: which instance holds each payment in flight, and when each instance was last seen alive',
    sql: `
ALTER TABLE payments ADD COLUMN instance TEXT;
CREATE TABLE instances (
  id         TEXT PRIMARY KEY,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  seen_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 5,
    description: 'payment channels (batch-settlement): one row per channel, the latest voucher, what is charged and claimed',
    // The channel config as columns, not JSON: the claimer and operators select by payer, receiver
    // and token, and the column types check the shape. Times the SDK keeps in epoch milliseconds stay
    // BIGINT milliseconds (exact round trip); the withdrawal times are chain seconds, like the contract.
    // The withdrawal deadline is the contract's `finalizeAfter` (requested + withdrawDelay).
    sql: `
CREATE TABLE channels (
  channel_id                TEXT PRIMARY KEY CHECK (channel_id ~ '^0x[0-9a-f]{64}$'),
  network                   TEXT NOT NULL,
  payer                     TEXT NOT NULL,
  payer_authorizer          TEXT NOT NULL,
  receiver                  TEXT NOT NULL,
  receiver_authorizer       TEXT NOT NULL,
  token                     TEXT NOT NULL,
  withdraw_delay_s          BIGINT NOT NULL,
  salt                      TEXT NOT NULL,
  balance                   NUMERIC(78, 0) NOT NULL,
  charged_cumulative_amount NUMERIC(78, 0) NOT NULL,
  signed_max_claimable      NUMERIC(78, 0) NOT NULL,
  signature                 TEXT NOT NULL,
  total_claimed             NUMERIC(78, 0) NOT NULL,
  withdraw_requested_s      BIGINT NOT NULL DEFAULT 0,
  withdraw_deadline_s       BIGINT GENERATED ALWAYS AS
    (CASE WHEN withdraw_requested_s > 0 THEN withdraw_requested_s + withdraw_delay_s END) STORED,
  refund_nonce              BIGINT NOT NULL DEFAULT 0,
  onchain_synced_ms         BIGINT,
  last_request_ms           BIGINT NOT NULL,
  pending_id                TEXT,
  pending_max_claimable     NUMERIC(78, 0),
  pending_expires_ms        BIGINT,
  created_at                TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at                TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT channels_pending_whole CHECK (
    (pending_id IS NULL) = (pending_max_claimable IS NULL) AND (pending_id IS NULL) = (pending_expires_ms IS NULL))
);
CREATE INDEX channels_unclaimed ON channels (network, withdraw_deadline_s, last_request_ms)
  WHERE charged_cumulative_amount > total_claimed;
CREATE INDEX channels_payer ON channels (lower(payer));
`,
  },
  {
    version: 6,
    description: "channels: the instance holding a channel's pending request, so a restart releases what a crash left",
    // The SDK reserves a channel for one request at a time and keeps the reservation for
    // maxTimeoutSeconds; a process killed mid-call would leave its payer's channel busy that long.
    sql: `ALTER TABLE channels ADD COLUMN pending_instance TEXT;`,
  },
  {
    version: 7,
    description: 'channel payments as ledger rows: scheme, channel and cumulative amount, received/claimed/deposited times, the PAYMENT-RESPONSE; collection transactions',
    // A channel call's row goes received (voucher charged, owed, unclaimed) -> claimed (on chain, held
    // for payTo by the contract) -> settled (moved to payTo); a deposit's row is `deposited` (the
    // payer's money in the channel, not revenue). The exact reconciler reads `scheme = 'exact'` only.
    sql: `
ALTER TABLE payments ADD COLUMN scheme             TEXT NOT NULL DEFAULT 'exact';
ALTER TABLE payments ADD COLUMN channel_id         TEXT;
ALTER TABLE payments ADD COLUMN channel_cumulative NUMERIC(78, 0);
ALTER TABLE payments ADD COLUMN payment_response   TEXT;
ALTER TABLE payments ADD COLUMN received_at        TIMESTAMPTZ;
ALTER TABLE payments ADD COLUMN claimed_at         TIMESTAMPTZ;
ALTER TABLE payments ADD COLUMN deposited_at       TIMESTAMPTZ;
CREATE INDEX payments_channel_received ON payments (channel_id, channel_cumulative) WHERE state = 'received';
CREATE INDEX payments_channel_claimed ON payments (network, claimed_at) WHERE state = 'claimed';
CREATE INDEX payments_results_received ON payments (received_at) WHERE result IS NOT NULL AND state IN ('received', 'claimed');
CREATE INDEX payments_received_at ON payments (received_at);
CREATE TABLE channel_collections (
  tx_hash    TEXT PRIMARY KEY,
  network    TEXT NOT NULL,
  step       TEXT NOT NULL CHECK (step IN ('deposit', 'claim', 'settle')),
  amount     NUMERIC(78, 0) NOT NULL,
  gas_used   NUMERIC(78, 0) NOT NULL,
  fee_wei    NUMERIC(78, 0) NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 8,
    description: 'channel collections: refund transactions (their gas is a cost of running channels, the amount what went back to the payer)',
    sql: `
ALTER TABLE channel_collections DROP CONSTRAINT channel_collections_step_check;
ALTER TABLE channel_collections ADD CONSTRAINT channel_collections_step_check CHECK (step IN ('deposit', 'claim', 'settle', 'refund'));
`,
  },
  {
    version: 9,
    // A voucher changed columns of channels_unclaimed (its key's last_request_ms, its predicate's
    // charged total), so every charge wrote a new row version and three index entries, and the
    // dead versions waited for a VACUUM (PGlite runs none by itself). Without it, and with room
    // left in each page, a charge rewrites its row in place (a HOT update: no index entry, the old
    // version pruned within the page). The claims listing scans the channels instead, as the
    // dashboard's summary already does.
    description: 'channels: a voucher\'s charge is an in-place (HOT) update: channels_unclaimed dropped, pages half filled',
    sql: `
DROP INDEX channels_unclaimed;
ALTER TABLE channels SET (fillfactor = 50);
`,
  },
  {
    version: 10,
    // Every change of a row's state writes an entry into each of its indexes (state is indexed, so
    // no update is in place), and a voucher's row is written three times (received, claimed,
    // settled), an exact payment's four or five. payments_state is a prefix of
    // payments_state_updated; no statement reads payments_tool_settled; the two time indexes are
    // read only for rows that have the time (`settled_at >= $1`, `settled_at IS NOT NULL`,
    // `received_at >= $1`). Measured on the embedded ledger: a voucher row's claim 38 → 29 µs, its
    // settle 38 → 33 µs (docs/benchmarks.md).
    description: 'payments: fewer index entries per state change (payments_state and payments_tool_settled dropped, the time indexes partial)',
    sql: `
DROP INDEX payments_state;
DROP INDEX payments_tool_settled;
DROP INDEX payments_settled_at;
DROP INDEX payments_received_at;
CREATE INDEX payments_settled_at ON payments (settled_at) WHERE settled_at IS NOT NULL;
CREATE INDEX payments_received_at ON payments (received_at) WHERE received_at IS NOT NULL;
`,
  },
];

/** Any constant that is ours: the advisory lock key that serialises migrations across instances. */
const MIGRATION_LOCK = 7_402_001;

/** Applies the migrations this database lacks; returns the versions applied. */
export async function migrate(db: SqlClient, all: readonly Migration[] = migrations): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const migration of [...all].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [migration.version, migration.description]);
      applied.push(migration.version);
    }
    return applied;
  });
}
