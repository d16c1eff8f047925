// Idempotent retries with x402's payment-identifier extension, over HTTP and MCP, with the official
// x402 client: a retry gets the stored result and the same PAYMENT-RESPONSE, runs nothing and
// charges nothing; the identifier reused for something else is refused. Real anvil, real USDC.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { x402Client } from '@x402/core/client';
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import {
  appendPaymentIdentifierToExtensions, generatePaymentId, isPaymentIdentifierExtension, PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment } from '@x402/fetch';
import { parseSignature } from 'viem';
import type { Hex, PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fiatTokenAbi } from '../../src/chain/fiat-token.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayer, fundedPayerKey, nowSeconds, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import type { SignOptions } from '../support/payments.ts';
import { countingEchoTool, heldTool } from '../support/test-tools.ts';
import { RETRY_WAITERS_PER_IDENTIFIER } from '../../src/payments/idempotency/retry-waiters.ts';

let t: TestGateway;
const echo = countingEchoTool();
const held = heldTool();
before(async () => {
  t = await startTestGateway({ catalog: [echo.tool, held.tool] });
});
after(() => t?.close());

const url = (word: string, path = '/test/echo') => `${t.baseUrl}${path}?word=${word}`;

async function requirementsOf(word: string, path?: string): Promise<{ required: PaymentRequired; requirements: PaymentRequirements }> {
  const required = readPaymentRequired(await fetch(url(word, path)));
  return { required, requirements: required.accepts[0]! };
}

/** The payment-identifier extension carrying `id`, as a client echoes our declaration. */
async function identifierExtensions(word: string, id: string, path?: string): Promise<Record<string, unknown>> {
  const { required } = await requirementsOf(word, path);
  const extensions = structuredClone(required.extensions ?? {});
  appendPaymentIdentifierToExtensions(extensions, id);
  return extensions;
}

/** A payment carrying `id` in the payment-identifier extension. */
async function identifiedPayment(payer: PrivateKeyAccount, word: string, id: string, path?: string, options?: SignOptions): Promise<PaymentPayload> {
  const { requirements } = await requirementsOf(word, path);
  return { ...(await signPayment(payer, requirements, options)), extensions: await identifierExtensions(word, id, path) };
}

const pay = (word: string, payload: PaymentPayload, path?: string) => fetch(url(word, path), { headers: { 'PAYMENT-SIGNATURE': paymentHeader(payload) } });

/** Counts the gate's reads of the ledger by payment-identifier, through the real ledger. */
function countIdentifierReads() {
  const ledger = t.gateway.ledger;
  const real = ledger.findByIdentifier.bind(ledger);
  const reads = { count: 0, onRead: () => {} };
  ledger.findByIdentifier = (identifier) => {
    reads.count += 1;
    reads.onRead();
    return real(identifier);
  };
  return { reads, restore: () => { ledger.findByIdentifier = real; } };
}

async function authorizationUsed(payload: PaymentPayload): Promise<boolean> {
  const { from, nonce } = (payload.payload as { authorization: { from: Hex; nonce: Hex } }).authorization;
  return chainClients(t.devChain).publicClient.readContract({
    address: t.devChain.usdc, abi: fiatTokenAbi(), functionName: 'authorizationState', args: [from, nonce],
  }) as Promise<boolean>;
}

describe('payment-identifier', () => {
  test('every 402 declares the extension, optional, with its schema', async () => {
    const { required } = await requirementsOf('declared');
    const declared = required.extensions?.[PAYMENT_IDENTIFIER];
    assert.ok(isPaymentIdentifierExtension(declared), JSON.stringify(declared));
    assert.equal(declared.info.required, false);
  });

  test('a retry with the same signed payment gets the stored result and the same PAYMENT-RESPONSE, with no second run or charge', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const { balanceOf } = chainClients(t.devChain);
    const payload = await identifiedPayment(payer, 'again', generatePaymentId());
    const runs = echo.runs.count;

    const first = await pay('again', payload);
    assert.equal(first.status, 200);
    const retry = await pay('again', payload);
    assert.equal(retry.status, 200);
    assert.deepEqual(await retry.json(), await first.json());
    assert.equal(retry.headers.get('payment-response'), first.headers.get('payment-response'));
    assert.equal(echo.runs.count - runs, 1, 'the tool ran once');
    assert.equal(await balanceOf(payer.address), 1_000_000n - 1000n, 'charged once');
  });

  test('a retry signed afresh (as x402 clients do after each 402) is answered from the first; its authorization is never used', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const id = generatePaymentId();
    const first = await pay('fresh', await identifiedPayment(payer, 'fresh', id));
    assert.equal(first.status, 200);
    const second = await identifiedPayment(payer, 'fresh', id);
    const retry = await pay('fresh', second);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('payment-response'), first.headers.get('payment-response'));
    assert.equal(await authorizationUsed(second), false, 'the second authorization never reached the chain');
    assert.equal(await chainClients(t.devChain).balanceOf(payer.address), 1_000_000n - 1000n);
  });

  test('retries racing the first attempt wait for it and share its one settlement', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const id = generatePaymentId();
    const payloads = await Promise.all([0, 1, 2].map(() => identifiedPayment(payer, 'race', id)));
    const runs = echo.runs.count;
    const answers = await Promise.all(payloads.map((p) => pay('race', p)));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
    assert.equal(new Set(answers.map((a) => a.headers.get('payment-response'))).size, 1);
    assert.equal(echo.runs.count - runs, 1);
    assert.equal(await chainClients(t.devChain).balanceOf(payer.address), 1_000_000n - 1000n);
  });

  test('the same identifier for another input, or from another payer, is refused with 409 and charges nothing', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const id = generatePaymentId();
    assert.equal((await pay('mine', await identifiedPayment(payer, 'mine', id))).status, 200);

    const otherInput = await identifiedPayment(payer, 'other', id);
    const refused = await pay('other', otherInput);
    assert.equal(refused.status, 409);
    const body = (await refused.json()) as { error: string; message: string; charged: boolean };
    assert.equal(body.error, 'payment_identifier_conflict');
    assert.match(body.message, /different payment or input/);
    assert.equal(body.charged, false);
    assert.equal(await authorizationUsed(otherInput), false);

    const stranger = await fundedPayer(t.devChain, '1');
    const theirs = await pay('mine', await identifiedPayment(stranger, 'mine', id));
    assert.equal(theirs.status, 409, 'another payer cannot read my result with my identifier');
    assert.equal(await chainClients(t.devChain).balanceOf(stranger.address), 1_000_000n);
  });

  test('a payment claiming to be the payer without its signature cannot read the stored result', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const id = generatePaymentId();
    const genuine = await identifiedPayment(payer, 'forged', id);
    assert.equal((await pay('forged', genuine)).status, 200);
    const impostor = await fundedPayer(t.devChain, '0');
    const forged = await identifiedPayment(impostor, 'forged', id);
    const authorization = (forged.payload as { authorization: Record<string, string> }).authorization;
    authorization.from = payer.address; // the victim's address, the impostor's signature
    const answer = await pay('forged', forged);
    assert.equal(answer.status, 402, 'refused as an invalid signature, before the ledger is asked');
    assert.match(readPaymentRequired(answer).error ?? '', /invalid_exact_evm_signature/);
    assert.doesNotMatch(await answer.text(), /"echo"/);
  });

  test('a malformed identifier is bad input: 400 naming the field, free', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const { required, requirements } = await requirementsOf('bad');
    const payload = { ...(await signPayment(payer, requirements)), extensions: { [PAYMENT_IDENTIFIER]: { ...structuredClone(required.extensions?.[PAYMENT_IDENTIFIER] as object), info: { required: false, id: 'short' } } } };
    const answer = await pay('bad', payload);
    assert.equal(answer.status, 400);
    const body = (await answer.json()) as { issues: { field: string; message: string }[]; charged: boolean };
    assert.equal(body.issues[0]?.field, `payment.extensions.${PAYMENT_IDENTIFIER}`);
    assert.match(body.issues[0]?.message ?? '', /16-128/);
    assert.equal(body.charged, false);
  });

  test('once the kept result is dropped, a late retry is told so and not charged again', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const id = generatePaymentId();
    assert.equal((await pay('late', await identifiedPayment(payer, 'late', id))).status, 200);
    assert.ok((await t.gateway.ledger.forgetResults(new Date(Date.now() + 60_000))) >= 1);
    const late = await pay('late', await identifiedPayment(payer, 'late', id));
    assert.equal(late.status, 409);
    assert.equal(((await late.json()) as { error: string }).error, 'payment_identifier_expired');
    assert.equal(await chainClients(t.devChain).balanceOf(payer.address), 1_000_000n - 1000n);
  });

  test('the official client, retrying with one identifier as its own example does, pays once', async () => {
    const privateKey = await fundedPayerKey(t.devChain, '1');
    const payer = privateKeyToAccount(privateKey);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: payer });
    client.setSpendControls({ allowedAssets: [{ network: t.devChain.network as Network, asset: t.devChain.usdc }] });
    const id = generatePaymentId();
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      paymentRequired.extensions ??= {};
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
    });
    const payingFetch = wrapFetchWithPayment(fetch, client);
    const runs = echo.runs.count;

    const first = await payingFetch(url('official'));
    const second = await payingFetch(url('official'));
    assert.deepEqual([first.status, second.status], [200, 200]);
    assert.deepEqual(await second.json(), await first.json());
    assert.equal(second.headers.get('payment-response'), first.headers.get('payment-response'));
    assert.equal(echo.runs.count - runs, 1);
    assert.equal(await chainClients(t.devChain).balanceOf(payer.address), 1_000_000n - 1000n);
  });

  test('over MCP: the retry gets the same result and the same payment response in _meta', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
    try {
      const unpaid = (await client.callTool({ name: 'test_echo', arguments: { word: 'mcp' } })) as CallToolResult;
      const required = unpaid.structuredContent as unknown as PaymentRequired;
      assert.ok(isPaymentIdentifierExtension(required.extensions?.[PAYMENT_IDENTIFIER]));
      const extensions = structuredClone(required.extensions ?? {});
      appendPaymentIdentifierToExtensions(extensions, generatePaymentId());
      const payment = { ...(await signPayment(payer, required.accepts[0]!)), extensions };
      const runs = echo.runs.count;
      const call = () => client.callTool({ name: 'test_echo', arguments: { word: 'mcp' }, _meta: { 'x402/payment': payment } }) as Promise<CallToolResult>;
      const first = await call();
      const retry = await call();
      assert.notEqual(first.isError, true, JSON.stringify(first));
      assert.deepEqual(retry.structuredContent, first.structuredContent);
      assert.deepEqual(retry._meta?.['x402/payment-response'], first._meta?.['x402/payment-response']);
      assert.equal(echo.runs.count - runs, 1);
      assert.equal(await chainClients(t.devChain).balanceOf(payer.address), 1_000_000n - 1000n);
    } finally {
      await client.close();
    }
  });
});

describe('retries cost the gateway little while the first attempt runs (issue 21, finding 4)', () => {
  test('hundreds of retries: bounded ledger reads, 409 in progress at once past the cap, the result for every waiter once the attempt ends', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const payload = await identifiedPayment(payer, 'held', generatePaymentId(), '/test/held');
    const first = pay('held', payload, '/test/held');
    await held.started;
    const { reads, restore } = countIdentifierReads();
    try {
      // Retries whose signature does not prove the payer are refused before the ledger is asked.
      const impostor = await fundedPayer(t.devChain, '0');
      const forged = await identifiedPayment(impostor, 'held', readIdentifier(payload), '/test/held');
      (forged.payload as { authorization: Record<string, string> }).authorization.from = payer.address;
      const forgedAnswers = await Promise.all(Array.from({ length: 50 }, () => pay('held', forged, '/test/held')));
      assert.deepEqual(new Set(forgedAnswers.map((a) => a.status)), new Set([402]));
      assert.equal(reads.count, 0, 'unproven retries read nothing');

      const retries = 300;
      const waiters = RETRY_WAITERS_PER_IDENTIFIER;
      const bound = 2 * waiters + 2; // each waiter: one read on arrival, one when woken
      let refused = 0;
      let answers: Promise<Response>[] = [];
      const verdict = new Promise<'refused past the cap' | 'too many reads'>((resolve) => {
        reads.onRead = () => { if (reads.count > bound) resolve('too many reads'); };
        answers = Array.from({ length: retries }, () =>
          pay('held', payload, '/test/held').then((answer) => {
            if (answer.status === 409 && ++refused === retries - waiters) resolve('refused past the cap');
            return answer;
          }));
      });
      const whileHeld = await verdict;
      const readsWhileHeld = reads.count;
      held.release();
      const settled = await first;
      const all = await Promise.all(answers);
      assert.equal(whileHeld, 'refused past the cap', `ledger reads while the first attempt was held: ${readsWhileHeld}`);
      assert.equal(settled.status, 200);

      const busy = all.filter((a) => a.status === 409);
      assert.equal(busy.length, retries - waiters);
      for (const answer of busy.slice(0, 5)) {
        const body = (await answer.json()) as { error: string; charged: boolean };
        assert.equal(body.error, 'payment_identifier_in_progress');
        assert.equal(body.charged, false);
        assert.ok(Number(answer.headers.get('retry-after')) > 0);
      }
      const served = all.filter((a) => a.status === 200);
      assert.equal(served.length, waiters, 'every waiter got the result');
      for (const answer of served) {
        assert.equal(answer.headers.get('payment-response'), settled.headers.get('payment-response'));
        assert.deepEqual(await answer.json(), { held: 'held' });
      }
      assert.ok(reads.count <= bound, `ledger reads by identifier for ${retries} retries: ${reads.count}`);
      assert.equal(held.runs.count, 1);
      assert.equal(await chainClients(t.devChain).balanceOf(payer.address), 1_000_000n - 1000n);
    } finally {
      held.release();
      restore();
    }
  });
});

describe('a stored result is given only to a proof made for this request (issue 21, finding 6)', () => {
  test('the payer\'s earlier, unrelated authorizations (settled here, or on chain) with its identifier and input get 409, never the result; its own fresh one gets it', async () => {
    const victim = await fundedPayer(t.devChain, '1');
    const { publicClient, balanceOf, walletFor } = chainClients(t.devChain);
    const { requirements } = await requirementsOf('secret');
    const settledHere = await signPayment(victim, requirements);
    assert.equal((await pay('secret', settledHere)).status, 200);
    const settledOnChain = await signPayment(victim, requirements);
    await publicClient.request({ method: 'anvil_setBalance' as 'eth_chainId', params: [victim.address, '0xDE0B6B3A7640000'] as never });
    const { authorization, signature } = settledOnChain.payload as { authorization: Record<string, string>; signature: Hex };
    const { r, s, v } = parseSignature(signature);
    await publicClient.waitForTransactionReceipt({
      hash: await walletFor(victim).writeContract({
        address: t.devChain.usdc, abi: fiatTokenAbi(), functionName: 'transferWithAuthorization',
        args: [authorization.from, authorization.to, BigInt(authorization.value!), BigInt(authorization.validAfter!), BigInt(authorization.validBefore!), authorization.nonce, Number(v), r, s] as never,
      }),
    });
    assert.equal(await authorizationUsed(settledOnChain), true);
    // Never used, but good for a day: not a proof made for this request either.
    const longLived = await signPayment(victim, requirements, { validBefore: nowSeconds() + 86_400n });

    const id = generatePaymentId();
    const first = await pay('secret', await identifiedPayment(victim, 'secret', id));
    assert.equal(first.status, 200);

    const extensions = await identifierExtensions('secret', id);
    for (const [name, stolen] of Object.entries({ settledHere, settledOnChain, longLived })) {
      const answer = await pay('secret', { ...stolen, extensions });
      const text = await answer.text();
      assert.equal(answer.status, 409, `${name}: ${text}`);
      assert.equal((JSON.parse(text) as { error: string }).error, 'payment_identifier_conflict');
      assert.doesNotMatch(text, /"echo"/);
    }

    const own = await pay('secret', await identifiedPayment(victim, 'secret', id));
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('payment-response'), first.headers.get('payment-response'));
    assert.equal(readPaymentResponse(own)?.success, true);
    assert.equal(await balanceOf(victim.address), 1_000_000n - 3n * 1000n, 'the earlier two and the first attempt, nothing more');
  });
});

function readIdentifier(payload: PaymentPayload): string {
  return (payload.extensions?.[PAYMENT_IDENTIFIER] as { info: { id: string } }).info.id;
}
