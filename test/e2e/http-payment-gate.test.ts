// The payment gate over real loopback HTTP, a real anvil and Circle's real USDC contract.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PaymentRequirements } from '@x402/core/types';
import { parseSignature, parseUnits } from 'viem';
import type { Hex, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import { malleateSignature } from '../../src/payments/facilitator/signature.ts';
import { catalog } from '../../src/catalog/index.ts';
import { exampleRequest } from '../../src/faces/http/http-example.ts';
import type { Tool } from '../../src/catalog/tool.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import {
  chainClients, fundedPayer, nowSeconds, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment,
} from '../support/payments.ts';
import { countingEchoTool, failingTool, sideEffectTool, unbuiltTool } from '../support/test-tools.ts';

let t: TestGateway;
let clients: ReturnType<typeof chainClients>;
const echo = countingEchoTool('0.001');
const unbuilt = unbuiltTool('0.001');
let duringSideEffect: () => Promise<void> = async () => {};

before(async () => {
  const testTools: Tool[] = [echo.tool, failingTool('0.001'), sideEffectTool(() => duringSideEffect(), '0.001'), unbuilt];
  t = await startTestGateway({ catalog: [...catalog, ...testTools], env: { TOOLGATE_MAX_BODY_BYTES: '4096' } });
  clients = chainClients(t.devChain);
});
after(() => t?.close());

const url = (path: string) => `${t.baseUrl}${path}`;

async function requirementsOf(path: string, init?: RequestInit): Promise<PaymentRequirements> {
  const response = await fetch(url(path), init);
  assert.equal(response.status, 402);
  const accepted = readPaymentRequired(response).accepts[0];
  assert.ok(accepted);
  return accepted;
}

async function balances(payer: PrivateKeyAccount) {
  const [p, m] = await Promise.all([clients.balanceOf(payer.address), clients.balanceOf(t.gateway.terms.payTo)]);
  return { payer: p, merchant: m };
}

describe('asking for payment', () => {
  test('an unpaid call answers 402 with the x402 v2 PAYMENT-REQUIRED header and the same object as body', async () => {
    const response = await fetch(url('/test/echo?word=hi'));
    assert.equal(response.status, 402);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /PAYMENT-REQUIRED/);
    const required = readPaymentRequired(response);
    assert.deepEqual(await response.json(), required);
    assert.equal(required.x402Version, 2);
    assert.equal(required.error, 'Payment required');
    // The URL as asked, query included, as x402's reference servers name it.
    assert.equal(required.resource.url, 'http://gateway.test/test/echo?word=hi');
    assert.deepEqual(required.accepts, [
      {
        scheme: 'exact',
        network: 'eip155:31337',
        amount: '1000',
        asset: t.devChain.usdc,
        payTo: t.devChain.payTo,
        maxTimeoutSeconds: 300,
        extra: { name: 'USD Coin', version: '2' },
      },
      // Payment channels, second: clients that know only `exact` take the first offer they know.
      {
        scheme: 'batch-settlement',
        network: 'eip155:31337',
        amount: '1000',
        asset: t.devChain.usdc,
        payTo: t.devChain.payTo,
        maxTimeoutSeconds: 300,
        extra: {
          name: 'USD Coin', version: '2', minDeposit: '100000',
          receiverAuthorizer: privateKeyToAccount(devPrivateKey('receiverAuthorizer')).address, withdrawDelay: 86_400,
        },
      },
    ]);
  });

  test('each catalogue price becomes its amount in atomic USDC', async () => {
    const response = await fetch(url('/api/tools/qr?text=hello'));
    if (response.status === 501) return; // the handler lands separately; the walk test covers prices
    assert.equal(readPaymentRequired(response).accepts[0]?.amount, '2000');
  });

  test('CORS preflight allows the payment headers', async () => {
    const response = await fetch(url('/test/echo'), { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-headers': 'payment-signature' } });
    assert.equal(response.status, 204);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /PAYMENT-SIGNATURE/);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /X-PAYMENT/);
  });
});

describe('a valid payment', () => {
  test('is settled on chain: 200, PAYMENT-RESPONSE, the transaction is mined, balances move by exactly the price', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/echo?word=hi');
    const before = await balances(payer);
    const response = await fetch(url('/test/echo?word=hi'), { headers: { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) } });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { echo: 'hi' });
    const settlement = readPaymentResponse(response);
    assert.ok(settlement);
    assert.equal(settlement.success, true);
    assert.equal(settlement.network, 'eip155:31337');
    assert.equal(settlement.payer, payer.address);
    const receipt = await clients.publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex });
    assert.equal(receipt.status, 'success');
    const after = await balances(payer);
    assert.equal(before.payer - after.payer, 1000n);
    assert.equal(after.merchant - before.merchant, 1000n);
  });

  test('is accepted from the v1 X-PAYMENT header too', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/echo?word=v1');
    const response = await fetch(url('/test/echo?word=v1'), { headers: { 'X-PAYMENT': paymentHeader(await signPayment(payer, requirements)) } });
    assert.equal(response.status, 200);
  });

  test('replayed after settlement is refused and moves nothing', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/echo?word=once');
    const header = paymentHeader(await signPayment(payer, requirements));
    assert.equal((await fetch(url('/test/echo?word=once'), { headers: { 'PAYMENT-SIGNATURE': header } })).status, 200);
    const before = await balances(payer);
    const replay = await fetch(url('/test/echo?word=once'), { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(replay.status, 402);
    assert.match(readPaymentRequired(replay).error ?? '', /already used/);
    assert.deepEqual(await balances(payer), before);
  });

  test('sent by 20 concurrent requests runs the tool once and settles once', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/echo?word=race');
    const header = paymentHeader(await signPayment(payer, requirements));
    const runsBefore = echo.runs.count;
    const before = await balances(payer);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(url('/test/echo?word=race'), { headers: { 'PAYMENT-SIGNATURE': header } })),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 402).length, 19);
    assert.equal(echo.runs.count - runsBefore, 1);
    const after = await balances(payer);
    assert.equal(before.payer - after.payer, 1000n);
    assert.equal(after.merchant - before.merchant, 1000n);
  });
});

describe('an unusable payment answers 402 with a reason (400 when it is not an x402 v2 payment at all) and charges nothing', () => {
  // x402's HTTP transport: an invalid payment (malformed payload) is 400, a payment that fails verification 402.
  const cases: { name: string; reason: RegExp; status?: 400; sign: (payer: PrivateKeyAccount, r: PaymentRequirements) => Promise<string> }[] = [
    { name: 'wrong amount (accepted changed)', reason: /No matching payment requirements: accepted.amount/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { value: 1n, accepted: { amount: '1' } })) },
    { name: 'wrong amount (signed value only)', reason: /value_mismatch/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { value: 999n })) },
    { name: 'wrong payTo (accepted changed)', reason: /accepted.payTo/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { to: p.address, accepted: { payTo: p.address } })) },
    { name: 'wrong payTo (signed recipient only)', reason: /recipient_mismatch/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { to: p.address })) },
    { name: 'expired', reason: /valid_before/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { validAfter: nowSeconds() - 3600n, validBefore: nowSeconds() - 10n })) },
    { name: 'expiring within the 6 s settlement buffer', reason: /valid_before/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { validBefore: nowSeconds() + 3n })) },
    { name: 'not yet valid', reason: /valid_after/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { validAfter: nowSeconds() + 3600n })) },
    { name: 'wrong network', reason: /accepted.network/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { chainId: 8453, accepted: { network: 'eip155:8453' } })) },
    { name: 'signed for another chain id', reason: /invalid_exact_evm_signature/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { chainId: 8453 })) },
    { name: 'wrong EIP-712 domain name', reason: /invalid_exact_evm_signature/, sign: async (p, r) => paymentHeader(await signPayment(p, r, { domainName: 'USDC' })) },
    {
      name: 'high-s signature',
      reason: /invalid_exact_evm_signature: .*upper half/,
      sign: async (p, r) => {
        const payload = await signPayment(p, r);
        const inner = payload.payload as { signature: Hex };
        return paymentHeader({ ...payload, payload: { ...payload.payload, signature: malleateSignature(inner.signature) } });
      },
    },
    { name: 'garbage header', reason: /invalid_payload: the payment is not base64-encoded JSON/, status: 400, sign: async () => 'not base64 at all!' },
    { name: 'base64 of something else', reason: /invalid_payload/, status: 400, sign: async () => Buffer.from('{"hello":1}').toString('base64') },
    { name: 'x402 version 1', reason: /invalid_payload: x402Version 1/, status: 400, sign: async (p, r) => paymentHeader({ ...(await signPayment(p, r)), x402Version: 1 }) },
    { name: 'a v2 payload without `accepted`', reason: /invalid_payload: accepted/, status: 400, sign: async (p, r) => paymentHeader({ ...(await signPayment(p, r)), accepted: undefined as unknown as PaymentRequirements }) },
    {
      name: 'an exact payload without its authorization',
      reason: /invalid_payload/,
      status: 400,
      sign: async (p, r) => {
        const payload = await signPayment(p, r);
        return paymentHeader({ ...payload, payload: { signature: (payload.payload as { signature: Hex }).signature } });
      },
    },
    { name: 'payer without funds', reason: /insufficient_balance/, sign: async (_p, r) => paymentHeader(await signPayment(await fundedPayer(t.devChain, '0'), r)) },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const payer = await fundedPayer(t.devChain);
      const requirements = await requirementsOf('/test/echo?word=x');
      const before = await balances(payer);
      const runsBefore = echo.runs.count;
      const response = await fetch(url('/test/echo?word=x'), { headers: { 'PAYMENT-SIGNATURE': await c.sign(payer, requirements) } });
      assert.equal(response.status, c.status ?? 402);
      // Either way PAYMENT-REQUIRED comes back, naming the URL asked, so the client can start over.
      const required = readPaymentRequired(response);
      assert.match(required.error ?? '', c.reason);
      assert.deepEqual(required.accepts.map((a) => a.scheme), ['exact', 'batch-settlement'], 'the answer still offers the requirements');
      assert.equal(required.resource.url.replace(/^https?:\/\/[^/]+/, ''), '/test/echo?word=x');
      assert.equal(echo.runs.count, runsBefore, 'the tool did not run');
      assert.deepEqual(await balances(payer), before);
    });
  }
});

describe('failures are never charged', () => {
  test('a tool that throws answers 500, settles nothing and releases the authorization for reuse', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/failing');
    const header = paymentHeader(await signPayment(payer, requirements));
    const before = await balances(payer);
    const failed = await fetch(url('/test/failing'), { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(failed.status, 500);
    const body = (await failed.json()) as { error: string; charged: boolean };
    assert.equal(body.error, 'tool_error');
    assert.equal(body.charged, false);
    assert.equal(failed.headers.get('payment-response'), null);
    assert.deepEqual(await balances(payer), before);
    // Same price, same payee: the released authorization buys a call that works.
    const reused = await fetch(url('/test/echo?word=again'), { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(reused.status, 200);
    assert.equal((await balances(payer)).payer, before.payer - 1000n);
  });

  test('a settlement that reverts (payer drained mid-call) answers 402 with success:false and withholds the result', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    await clients.publicClient.request({ method: 'anvil_setBalance' as 'eth_chainId', params: [payer.address, '0xDE0B6B3A7640000'] as never });
    const requirements = await requirementsOf('/test/side-effect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    duringSideEffect = async () => {
      const wallet = clients.walletFor(payer);
      const { fiatTokenAbi } = await import('../../src/chain/fiat-token.ts');
      const hash = await wallet.writeContract({ address: t.devChain.usdc, abi: fiatTokenAbi(), functionName: 'transfer', args: [t.devChain.payTo, parseUnits('1', 6)] });
      await clients.publicClient.waitForTransactionReceipt({ hash });
    };
    try {
      const response = await fetch(url('/test/side-effect'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) },
        body: '{}',
      });
      assert.equal(response.status, 402);
      const settlement = readPaymentResponse(response);
      assert.ok(settlement);
      assert.equal(settlement.success, false);
      assert.equal(settlement.errorReason, 'insufficient_funds');
      assert.equal(settlement.payer, payer.address);
      const text = await response.text();
      assert.doesNotMatch(text, /must not be delivered/);
      assert.match(readPaymentRequired(response).error ?? '', /Settlement failed: insufficient_funds/);
    } finally {
      duringSideEffect = async () => {};
    }
  });
});

describe('an authorization the payer already used on chain itself', () => {
  test('is refused by the settlement\'s simulation: 402 nonce already used, result withheld, nothing more moves', async () => {
    // Verification reads no nonce state (docs/payments.md): the simulation before settling is the check.
    const payer = await fundedPayer(t.devChain, '1');
    const requirements = await requirementsOf('/test/echo?word=used');
    const payload = await signPayment(payer, requirements);
    const { authorization, signature } = payload.payload as { authorization: Record<string, string>; signature: Hex };
    await clients.publicClient.request({ method: 'anvil_setBalance' as 'eth_chainId', params: [payer.address, '0xDE0B6B3A7640000'] as never });
    const { fiatTokenAbi } = await import('../../src/chain/fiat-token.ts');
    const { r, s: sv, v } = parseSignature(signature);
    const hash = await clients.walletFor(payer).writeContract({
      address: t.devChain.usdc, abi: fiatTokenAbi(), functionName: 'transferWithAuthorization',
      args: [authorization.from, authorization.to, BigInt(authorization.value!), BigInt(authorization.validAfter!), BigInt(authorization.validBefore!), authorization.nonce, Number(v), r, sv] as never,
    });
    await clients.publicClient.waitForTransactionReceipt({ hash });
    const before = await balances(payer);

    const response = await fetch(url('/test/echo?word=used'), { headers: { 'PAYMENT-SIGNATURE': paymentHeader(payload) } });
    assert.equal(response.status, 402);
    const settlement = readPaymentResponse(response);
    assert.equal(settlement?.success, false);
    assert.equal(settlement?.errorReason, 'invalid_exact_evm_nonce_already_used');
    assert.doesNotMatch(await response.text(), /"echo"/);
    assert.deepEqual(await balances(payer), before);
  });
});

describe('bad input answers 400 naming the field, before any payment', () => {
  const cases: { name: string; path: string; init?: RequestInit; field: string; message: RegExp }[] = [
    { name: 'missing parameter', path: '/api/search', field: 'q', message: /q is required/ },
    { name: 'out-of-range parameter', path: '/api/search?q=x&limit=11', field: 'limit', message: /limit: .*<=10/ },
    { name: 'malformed number', path: '/api/geo/reverse?lat=north&lon=2', field: 'lat', message: /lat: .*expected number/ },
    { name: 'malformed URL', path: '/api/browse?url=ftp://example.com', field: 'url', message: /http:\/\/ or https:\/\// },
    { name: 'enum', path: '/api/crypto/unit-convert?value=1&from=btc', field: 'from', message: /from: .*wei/ },
    {
      name: 'oversized body', path: '/api/distill', field: 'body', message: /larger than the 4096 bytes/,
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'x'.repeat(5000) }) },
    },
    {
      name: 'wrong content type', path: '/api/distill', field: 'content-type', message: /expected application\/json/,
      init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' },
    },
    {
      name: 'broken JSON', path: '/api/distill', field: 'body', message: /not valid JSON/,
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"content": ' },
    },
    {
      name: 'body of the wrong type', path: '/api/tools/regex', field: 'pattern', message: /pattern is required/,
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text": 1}' },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const response = await fetch(url(c.path), c.init);
      assert.equal(response.status, 400, await response.clone().text());
      assert.equal(response.headers.get('payment-required'), null);
      const body = (await response.json()) as { error: string; issues: { field: string; message: string }[]; charged: boolean };
      assert.equal(body.error, 'invalid_input');
      assert.equal(body.charged, false);
      assert.ok(body.issues.some((i) => i.field === c.field && c.message.test(i.message)), JSON.stringify(body.issues));
    });
  }

  test('bad input with a valid payment attached is refused without touching the payment', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/echo?word=ok');
    const header = paymentHeader(await signPayment(payer, requirements));
    const bad = await fetch(url('/test/echo?word='), { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(bad.status, 400);
    const good = await fetch(url('/test/echo?word=ok'), { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(good.status, 200, 'the authorization was not consumed by the bad call');
  });

  test('a tool that is not built yet answers 501 before any payment, even when one is attached', async () => {
    const payer = await fundedPayer(t.devChain);
    const requirements = await requirementsOf('/test/echo?word=x');
    const before = await balances(payer);
    const response = await fetch(url(exampleRequest(unbuilt, unbuilt.http[0]!).pathWithQuery), { headers: { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) } });
    assert.equal(response.status, 501);
    assert.match(((await response.json()) as { message: string }).message, /not built yet.*nothing was charged/);
    assert.deepEqual(await balances(payer), before);
  });
});

test('GET /health reports network, chain, ledger and version', async () => {
  const response = await fetch(url('/health'));
  assert.equal(response.status, 200);
  const health = (await response.json()) as { status: string; version: string; network: { id: string }; chain: { reachable: boolean }; ledger: { reachable: boolean } };
  assert.equal(health.status, 'ok');
  assert.equal(health.network.id, 'eip155:31337');
  assert.equal(health.chain.reachable, true);
  assert.equal(health.ledger.reachable, true);
  assert.match(health.version, /^\d+\.\d+\.\d+/);
});

test('unknown paths answer a JSON 404 that points at the documents', async () => {
  const response = await fetch(url('/api/nothing-here'));
  assert.equal(response.status, 404);
  assert.match(((await response.json()) as { message: string }).message, /openapi\.json/);
});
