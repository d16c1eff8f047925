import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('with no configuration: local network on 127.0.0.1:4021, data in ./.toolgate', () => {
  const config = loadConfig({});
  assert.equal(config.network, 'local');
  assert.equal(config.port, 4021);
  assert.equal(config.host, '127.0.0.1');
  assert.match(config.dataDir, /\.toolgate$/);
  assert.equal(config.publicBaseUrl, 'http://localhost:4021');
  assert.deepEqual(config.ledger, { dir: `${config.dataDir}/ledger` });
});

test('empty variables count as unset', () => {
  assert.equal(loadConfig({ PORT: '', TOOLGATE_NETWORK: '' }).port, 4021);
});

test('a public network needs a pay-to address and a way to settle, said clearly', () => {
  assert.throws(
    () => loadConfig({ TOOLGATE_NETWORK: 'base' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.problems.some((p) => p.startsWith('TOOLGATE_PAY_TO is required on base')) &&
      error.problems.some((p) => /TOOLGATE_FACILITATOR_URL .* or TOOLGATE_SETTLER_PRIVATE_KEY/.test(p)),
  );
  const config = loadConfig({
    TOOLGATE_NETWORK: 'base',
    TOOLGATE_PAY_TO: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    TOOLGATE_FACILITATOR_URL: 'https://facilitator.example/x402',
    TOOLGATE_PUBLIC_BASE_URL: 'https://tools.example/',
  });
  assert.equal(config.host, '0.0.0.0');
  assert.equal(config.publicBaseUrl, 'https://tools.example');
});

test('malformed values name the variable, what was expected and what was given', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^PORT: expected a whole number \(got "eighty"\)/],
    [{ TOOLGATE_NETWORK: 'mainnet' }, /^TOOLGATE_NETWORK: expected one of local, base-sepolia, base/],
    [{ TOOLGATE_PAY_TO: '0x123' }, /^TOOLGATE_PAY_TO: expected a 0x-prefixed 20-byte hex address/],
    [{ TOOLGATE_SETTLER_PRIVATE_KEY: 'secret' }, /^TOOLGATE_SETTLER_PRIVATE_KEY: expected a 0x-prefixed 32-byte hex private key/],
    [{ TOOLGATE_RPC_URL: 'localhost:8545' }, /^TOOLGATE_RPC_URL: expected an http\(s\) URL/],
    [{ TOOLGATE_EMBEDDINGS_URL: 'ftp://models.example' }, /^TOOLGATE_EMBEDDINGS_URL must be an absolute http\(s\) URL/],
    [{ TOOLGATE_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1', TOOLGATE_EMBEDDINGS_TIMEOUT_MS: 'soon' }, /^TOOLGATE_EMBEDDINGS_TIMEOUT_MS must be an integer/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.problems.some((p) => message.test(p)), JSON.stringify(env));
  }
});

test('a malformed settler key is named, never echoed; several keys are a comma-separated list', () => {
  const key = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  assert.throws(() => loadConfig({ TOOLGATE_SETTLER_PRIVATE_KEY: `${key(1)},0xnot-a-key-but-secret` }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /TOOLGATE_SETTLER_PRIVATE_KEY: expected a 0x-prefixed 32-byte hex private key \(entry 2 of the list\)/);
    assert.doesNotMatch(error.message, /secret|0x0+1/);
    return true;
  });
  assert.throws(() => loadConfig({ TOOLGATE_SETTLER_PRIVATE_KEY: `${key(1)}, ${key(1)}` }), /the same key is listed twice/);
  assert.deepEqual(loadConfig({ TOOLGATE_SETTLER_PRIVATE_KEY: ` ${key(1)}, ${key(2)} ` }).settlerKeys, [key(1), key(2)]);
});

test('settlement settings: defaults, and bad values refused with the variable named', () => {
  assert.deepEqual(loadConfig({}).settlement, {
    mode: 'confirmed', batchWindowMs: 200, maxBatchSize: 100, confirmations: 1, replaceAfterMs: 3_000, drainTimeoutMs: 30_000,
  });
  assert.equal(loadConfig({ TOOLGATE_SETTLEMENT_MODE: 'submitted' }).settlement.mode, 'submitted');
  assert.throws(() => loadConfig({ TOOLGATE_SETTLEMENT_MODE: 'optimistic' }), /TOOLGATE_SETTLEMENT_MODE: expected one of confirmed, submitted/);
  assert.throws(() => loadConfig({ TOOLGATE_SETTLEMENT_MODE: 'submitted', TOOLGATE_FACILITATOR_URL: 'https://facilitator.example' }), /submitted needs the embedded settlement engine/);
  assert.throws(() => loadConfig({ TOOLGATE_SETTLEMENT_MAX_BATCH: '500' }), /TOOLGATE_SETTLEMENT_MAX_BATCH/);
  assert.throws(() => loadConfig({ TOOLGATE_SETTLEMENT_CONFIRMATIONS: '0' }), /TOOLGATE_SETTLEMENT_CONFIRMATIONS/);
});

test('the ledger: PostgreSQL by URL (never echoed), not together with TOOLGATE_LEDGER; results for retries kept 24 h by default', () => {
  assert.deepEqual(loadConfig({ TOOLGATE_DATABASE_URL: 'postgres://u:p@db:5432/toolgate' }).ledger, { url: 'postgres://u:p@db:5432/toolgate' });
  assert.throws(() => loadConfig({ TOOLGATE_DATABASE_URL: 'mysql://u:hunter2@db/x' }), (error: Error) => /TOOLGATE_DATABASE_URL: expected a postgres:\/\//.test(error.message) && !error.message.includes('hunter2'));
  assert.throws(() => loadConfig({ TOOLGATE_DATABASE_URL: 'postgres://db/x', TOOLGATE_LEDGER: 'memory' }), /not both/);
  assert.equal(loadConfig({}).retryResultsMs, 24 * 3_600_000);
  assert.equal(loadConfig({ TOOLGATE_RETRY_RESULTS_HOURS: '2' }).retryResultsMs, 2 * 3_600_000);
  assert.throws(() => loadConfig({ TOOLGATE_RETRY_RESULTS_HOURS: '0' }), /TOOLGATE_RETRY_RESULTS_HOURS/);
});

test('request timeouts: 10 s for headers and 30 s for the whole request by default; headers may not outlast the request', () => {
  assert.deepEqual(loadConfig({}).httpTimeouts, { headersMs: 10_000, requestMs: 30_000 });
  assert.deepEqual(loadConfig({ TOOLGATE_HEADERS_TIMEOUT_MS: '2000', TOOLGATE_REQUEST_TIMEOUT_MS: '5000' }).httpTimeouts, { headersMs: 2_000, requestMs: 5_000 });
  assert.throws(() => loadConfig({ TOOLGATE_HEADERS_TIMEOUT_MS: '40000' }), (error: Error) => /TOOLGATE_HEADERS_TIMEOUT_MS \(40000\) must not exceed TOOLGATE_REQUEST_TIMEOUT_MS \(30000\)/.test(error.message));
  assert.throws(() => loadConfig({ TOOLGATE_REQUEST_TIMEOUT_MS: '0' }), (error: Error) => /TOOLGATE_REQUEST_TIMEOUT_MS/.test(error.message));
});

test('schemes: exact then batch-settlement by default, the order given kept, unknown or repeated names refused at start', () => {
  assert.deepEqual(loadConfig({}).schemes, ['exact', 'batch-settlement']);
  assert.deepEqual(loadConfig({ TOOLGATE_SCHEMES: 'batch-settlement, exact' }).schemes, ['batch-settlement', 'exact']);
  assert.deepEqual(loadConfig({ TOOLGATE_SCHEMES: 'exact' }).schemes, ['exact']);
  const refused = (value: string, message: RegExp) =>
    assert.throws(() => loadConfig({ TOOLGATE_SCHEMES: value }), (error: unknown) => error instanceof ConfigError && error.problems.some((p) => message.test(p)), value);
  refused('exact,upto', /^TOOLGATE_SCHEMES: unknown scheme "upto"; known: exact, batch-settlement/);
  refused('exact,exact', /^TOOLGATE_SCHEMES: a scheme is listed twice/);
  refused(',', /^TOOLGATE_SCHEMES: expected at least one scheme/);
});

test('payment channels: defaults (100 calls deposited, 1 day to withdraw, claims every minute, idle channels refunded after a week, vouchers checked locally), the contract\'s bounds, keys never echoed', () => {
  assert.deepEqual(loadConfig({}).channels, {
    settlerKey: undefined, receiverAuthorizerKey: undefined, minDepositCalls: 100, withdrawDelaySeconds: 86_400, claimIntervalMs: 60_000, claimMinUnclaimed: 50_000n, claimIdleMs: 21_600_000, withdrawPollMs: 15_000,
    idleRefundSeconds: 7 * 86_400, voucherCheck: 'local',
  });
  assert.equal(loadConfig({ TOOLGATE_CHANNEL_VOUCHER_CHECK: 'sdk' }).channels.voucherCheck, 'sdk');
  assert.equal(loadConfig({ TOOLGATE_CHANNEL_IDLE_REFUND_S: '0' }).channels.idleRefundSeconds, 0, '0: never');
  assert.equal(loadConfig({ TOOLGATE_CHANNEL_CLAIM_MIN_USDC: '0.25' }).channels.claimMinUnclaimed, 250_000n, 'decimal USDC to atomic units');
  assert.equal(loadConfig({ TOOLGATE_CHANNEL_CLAIM_MIN_USDC: '0' }).channels.claimMinUnclaimed, 0n, '0: every channel owing anything, every pass');
  for (const [env, message] of [
    [{ TOOLGATE_CHANNEL_WITHDRAW_DELAY_S: '899' }, /^TOOLGATE_CHANNEL_WITHDRAW_DELAY_S: /],
    [{ TOOLGATE_CHANNEL_WITHDRAW_DELAY_S: String(30 * 86_400 + 1) }, /^TOOLGATE_CHANNEL_WITHDRAW_DELAY_S: /],
    [{ TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS: '0' }, /^TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS: /],
    [{ TOOLGATE_CHANNEL_IDLE_REFUND_S: String(365 * 86_400 + 1) }, /^TOOLGATE_CHANNEL_IDLE_REFUND_S: /],
    [{ TOOLGATE_CHANNEL_CLAIM_MIN_USDC: '0.0000001' }, /^TOOLGATE_CHANNEL_CLAIM_MIN_USDC: expected a USDC amount/],
    [{ TOOLGATE_CHANNEL_CLAIM_MIN_USDC: '-1' }, /^TOOLGATE_CHANNEL_CLAIM_MIN_USDC: /],
    [{ TOOLGATE_CHANNEL_IDLE_REFUND_S: '-1' }, /^TOOLGATE_CHANNEL_IDLE_REFUND_S: /],
    [{ TOOLGATE_CHANNEL_VOUCHER_CHECK: 'fast' }, /^TOOLGATE_CHANNEL_VOUCHER_CHECK: expected local or sdk/],
    [{ TOOLGATE_RECOVERY_THREAD: 'no' }, /^TOOLGATE_RECOVERY_THREAD: expected auto or off/],
    [{ TOOLGATE_RECEIVER_AUTHORIZER_PRIVATE_KEY: '0xsecret' }, /^TOOLGATE_RECEIVER_AUTHORIZER_PRIVATE_KEY: .*the value given is not shown/],
    [{ TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY: '0xsecret' }, /^TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY: .*the value given is not shown/],
  ] as const) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.problems.some((p) => message.test(p)) && !error.message.includes('0xsecret'), JSON.stringify(env));
  }
});
