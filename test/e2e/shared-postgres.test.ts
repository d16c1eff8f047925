// Two gateway instances on one PostgreSQL ledger and one chain, sharing one settler key: an
// authorization runs once whichever instance it reaches, and their settlements never collide on
// the key's nonces. A real server (a throwaway cluster), a real anvil with Circle's USDC.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import { loadConfig } from '../../src/config.ts';
import { createGateway } from '../../src/gateway.ts';
import { DatabaseUnreachableError } from '../../src/payments/ledger/postgres-client.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { assertNotCharged, payFor } from '../support/paid-call.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import { startPostgres } from '../support/postgres-server.ts';
import type { PostgresServer } from '../support/postgres-server.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let server: PostgresServer;
let chain: DevChain;
let one: TestGateway;
let two: TestGateway;
const echo = countingEchoTool();

before(async () => {
  [server, chain] = await Promise.all([startPostgres(), startDevChain({ tokenName: 'USD Coin' })]);
  const env = { TOOLGATE_DATABASE_URL: await server.createDatabase('shared') };
  // Started together: both apply the migrations, under the advisory lock, once.
  [one, two] = await Promise.all([
    startTestGateway({ devChain: chain, catalog: [echo.tool], env }),
    startTestGateway({ devChain: chain, catalog: [echo.tool], env }),
  ]);
});
after(async () => {
  await one?.close();
  await two?.close();
  await chain?.stop();
  await server?.stop();
});

describe('two instances on one PostgreSQL', () => {
  test('one authorization sent to both at once runs one handler and settles once', async () => {
    const { balanceOf } = chainClients(chain);
    const payer = await fundedPayer(chain, '1');
    const unpaid = await fetch(`${one.baseUrl}/test/echo?word=once`);
    const header = paymentHeader(await signPayment(payer, readPaymentRequired(unpaid).accepts[0]!));
    const runsBefore = echo.runs.count;
    const payToBefore = await balanceOf(chain.payTo);

    const answers = await Promise.all([one, two].map((g) => fetch(`${g.baseUrl}/test/echo?word=once`, { headers: { 'PAYMENT-SIGNATURE': header } })));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 402]);
    const refused = answers.find((a) => a.status === 402)!;
    assert.match(String(((await refused.json()) as { error: string }).error), /authorization_in_use/);
    assert.equal(echo.runs.count - runsBefore, 1, 'one handler ran');
    assert.equal((await balanceOf(chain.payTo)) - payToBefore, 1000n, 'settled once');
  });

  test('bursts on both instances from one settler key all settle: no nonce collides', async () => {
    const { balanceOf } = chainClients(chain);
    const payToBefore = await balanceOf(chain.payTo);
    const calls = await Promise.all(Array.from({ length: 16 }, (_, i) => payFor(i % 2 ? one : two, `/test/echo?word=w${i}`)));
    assert.deepEqual(calls.map((c) => c.status), calls.map(() => 200), JSON.stringify(calls.filter((c) => c.status !== 200).map((c) => c.body)));
    assert.ok(calls.every((c) => c.settled && c.spent === 1000n));
    assert.equal((await balanceOf(chain.payTo)) - payToBefore, 16n * 1000n);
  });

  test('a paid call while the database is down is refused with 503 and charges nothing', async () => {
    const down = await startPostgres();
    const gateway = await startTestGateway({ devChain: chain, catalog: [echo.tool], env: { TOOLGATE_DATABASE_URL: await down.createDatabase('gone') } });
    try {
      await down.stop();
      const call = await payFor(gateway, '/test/echo?word=down');
      assert.equal(call.status, 503);
      assert.equal(call.body.error, 'ledger_unavailable');
      assertNotCharged(call);
    } finally {
      await gateway.close();
    }
  });

  test('an instance whose database cannot be reached refuses to start, naming the server without its password', async () => {
    const config = loadConfig({ TOOLGATE_DATABASE_URL: 'postgres://toolgate:s3cret@127.0.0.1:1/ledger', TOOLGATE_LOG_LEVEL: 'silent' });
    await assert.rejects(createGateway(config, { devChain: chain }), (error: Error) => {
      assert.ok(error instanceof DatabaseUnreachableError);
      assert.match(error.message, /cannot reach PostgreSQL at postgres:\/\/toolgate:\*\*\*@127\.0\.0\.1:1\/ledger/);
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    });
  });
});
