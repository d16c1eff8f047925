// get_ip_intelligence paid for over real HTTP through the gate (anvil + USDC + gateway on loopback),
// and which address the gateway hands it: the socket's, unless the socket is a trusted proxy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestGateway } from '../../../test/support/gateway-harness.ts';
import { startTestGateway } from '../../../test/support/gateway-harness.ts';
import { fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../../../test/support/payments.ts';
import type { IpIntelligence } from './ip-intelligence/describe-caller.ts';

const PATH = '/api/security/ip-geo';
const USER_AGENT = 'ip-intelligence-e2e/1.0';

let direct: TestGateway;
let behindProxy: TestGateway;

before(async () => {
  direct = await startTestGateway();
  behindProxy = await startTestGateway({ devChain: direct.devChain, env: { TOOLGATE_TRUSTED_PROXIES: '127.0.0.1' } });
});
after(async () => {
  await behindProxy?.close();
  await direct?.close();
});

/** Asks, gets the 402, pays exactly what was asked, and returns the paid answer. */
async function paidCall(gateway: TestGateway, headers: Record<string, string> = {}) {
  const url = `${gateway.baseUrl}${PATH}`;
  const unpaid = await fetch(url, { headers: { 'user-agent': USER_AGENT, ...headers } });
  assert.equal(unpaid.status, 402, await unpaid.clone().text());
  const requirements = readPaymentRequired(unpaid).accepts[0];
  assert.ok(requirements);
  assert.equal(requirements.amount, '3000', '0.003 USDC in atomic units');
  const payer = await fundedPayer(gateway.devChain, '1');
  const paid = await fetch(url, {
    headers: { 'user-agent': USER_AGENT, ...headers, 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) },
  });
  assert.equal(paid.status, 200, await paid.clone().text());
  const settlement = readPaymentResponse(paid);
  assert.equal(settlement?.success, true);
  assert.equal(settlement?.payer, payer.address);
  return (await paid.json()) as IpIntelligence;
}

describe('GET /api/security/ip-geo through the payment gate', () => {
  test('a paid call from loopback answers 200 with the loopback scope, the user agent and the attribution', async () => {
    const answer = await paidCall(direct);
    assert.equal(answer.ip, '127.0.0.1');
    assert.equal(answer.scope, 'loopback');
    assert.match(answer.note ?? '', /loopback/);
    assert.equal(answer.userAgent, USER_AGENT);
    assert.equal(answer.botRisk.reasons[0]?.code, 'non-browser-client');
    assert.ok(answer.attribution.some((a) => a.notice === 'IP Geolocation by DB-IP'));
  });

  test('a forged X-Forwarded-For from an untrusted socket is ignored', async () => {
    const answer = await paidCall(direct, { 'x-forwarded-for': '8.8.8.8' });
    assert.equal(answer.ip, '127.0.0.1');
    assert.equal(answer.asn, null);
  });

  test('a parameter is refused with 400 before any payment, naming it', async () => {
    const response = await fetch(`${direct.baseUrl}${PATH}?ip=8.8.8.8`);
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: string; message: string; charged: boolean };
    assert.equal(body.error, 'invalid_input');
    assert.equal(body.charged, false);
    assert.match(body.message, /takes no parameters.*"ip"/);
  });
});

describe('GET /api/security/ip-geo behind a trusted proxy (TOOLGATE_TRUSTED_PROXIES=127.0.0.1)', () => {
  test('the forwarded address is the one described', async () => {
    const answer = await paidCall(behindProxy, { 'x-forwarded-for': '8.8.8.8' });
    assert.deepEqual([answer.ip, answer.scope, answer.asn?.number, answer.hosting?.provider], ['8.8.8.8', 'public', 15169, 'Google']);
    assert.equal(answer.country?.code, 'US');
  });

  test('only the proxy is trusted: the hop it received the call from is the caller, not an address further left', async () => {
    const answer = await paidCall(behindProxy, { 'x-forwarded-for': '8.8.8.8, 10.1.2.3' });
    assert.deepEqual([answer.ip, answer.scope], ['10.1.2.3', 'private']);
  });

  test('without X-Forwarded-For the proxy\'s own socket address is used', async () => {
    const answer = await paidCall(behindProxy);
    assert.deepEqual([answer.ip, answer.scope], ['127.0.0.1', 'loopback']);
  });
});
