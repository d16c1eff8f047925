// Ledger schema, valid for both PostgreSQL and PGlite. Applied idempotently at start.
export const ledgerSchema = `
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
-- For the dashboard's reports: revenue per day and the latest settlements; latest payments per state.
CREATE INDEX IF NOT EXISTS payments_settled_at ON payments (settled_at);
CREATE INDEX IF NOT EXISTS payments_state_updated ON payments (state, updated_at);
`;
