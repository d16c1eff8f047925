// The settlement engine on a real anvil with Circle's USDC and Multicall3 at its canonical address.
// Mining is paused where a test needs to act between a send and its block.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { decodeFunctionData, multicall3Abi, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex, PrivateKeyAccount } from 'viem';
import type { PaymentPayload } from '@x402/core/types';
import type { DevChain } from '../../chain/devchain.ts';
import { startDevChain } from '../../chain/devchain.ts';
import { fiatTokenAbi } from '../../chain/fiat-token.ts';
import { MULTICALL3_ADDRESS } from '../../chain/multicall3.ts';
import { silentLogger } from '../../log.ts';
import { parseEip3009Payload } from '../exact-evm-payload.ts';
import { openPgliteClient } from '../ledger/pglite-client.ts';
import { SqlPaymentLedger } from '../ledger/sql-payment-ledger.ts';
import { localNetwork } from '../networks.ts';
import { requirementsFor } from '../requirements.ts';
import type { PaymentTerms } from '../requirements.ts';
import { chainClients, fundedPayer, signPayment } from '../../../test/support/payments.ts';
import { BatchedTransferSettlement } from './batched-transfers.ts';
import type { BatchReport, BatchedTransferOptions } from './batched-transfers.ts';

let chain: DevChain;
let ledger: SqlPaymentLedger;
let terms: PaymentTerms;
let clients: ReturnType<typeof chainClients>;
const engines: BatchedTransferSettlement[] = [];
const PRICE = '0.001';

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  ledger = await SqlPaymentLedger.open(await openPgliteClient());
  terms = { network: localNetwork(chain.chainId, chain.usdc, chain.tokenName), payTo: chain.payTo, maxTimeoutSeconds: 300 };
  clients = chainClients(chain);
});
after(async () => {
  await ledger?.close();
  await chain?.stop();
});
afterEach(async () => {
  // Back to mining each transaction as it comes (evm_setIntervalMining would replace that with 1 s blocks).
  await rpc('evm_setAutomine', [true]);
  for (const engine of engines.splice(0)) await engine.drain(5_000);
});

const rpc = (method: string, params: unknown[]) => clients.publicClient.request({ method: method as 'eth_chainId', params: params as never });
const pauseMining = async () => {
  await rpc('evm_setIntervalMining', [0]);
  await rpc('evm_setAutomine', [false]);
};

function engine(options: Partial<BatchedTransferOptions> = {}): { engine: BatchedTransferSettlement; batches: BatchReport[] } {
  const created = new BatchedTransferSettlement({
    network: terms.network, rpcUrl: chain.rpcUrl, settlerKeys: [chain.settlerKey], multicall3: MULTICALL3_ADDRESS,
    ledger, log: silentLogger, mode: 'confirmed', batchWindowMs: 50, maxBatchSize: 100, confirmations: 1,
    receiptTimeoutMs: 15_000, replaceAfterMs: 60_000, pollingIntervalMs: 20, ...options,
  });
  const batches: BatchReport[] = [];
  created.onBatch = (report) => batches.push(report);
  engines.push(created);
  return { engine: created, batches };
}

/** A signed payment with its ledger row in `settling`, as the gate leaves it. */
async function payment(payer: PrivateKeyAccount) {
  const requirements = requirementsFor(PRICE, terms);
  const payload: PaymentPayload = await signPayment(payer, requirements);
  const parsed = parseEip3009Payload(payload.payload);
  assert.ok(parsed.ok);
  const lock = await ledger.lock({
    payer: payer.address, nonce: parsed.value.authorization.nonce, tool: 'test', amount: 1000n, network: terms.network.caip2, resource: 'r',
    signedAuthorization: JSON.stringify(payload.payload),
  });
  assert.ok(lock.locked);
  await ledger.transition(lock.id, 'settling');
  return { paymentId: lock.id, payload, requirements, authorization: parsed.value };
}

const row = async (p: Awaited<ReturnType<typeof payment>>) => ledger.find(p.authorization.authorization.from, p.authorization.authorization.nonce);

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('batched settlement', () => {
  test('a burst of 24 payments settles in fewer transactions than payments, each proven by its own event', async () => {
    const { engine: e, batches } = engine();
    const payers = await Promise.all(Array.from({ length: 24 }, () => fundedPayer(chain, '1')));
    const payments = await Promise.all(payers.map(payment));
    const payToBefore = await clients.balanceOf(chain.payTo);
    const answers = await Promise.all(payments.map((p) => e.settle(p)));

    assert.ok(answers.every((a) => a.success), JSON.stringify(answers.filter((a) => !a.success)));
    assert.equal((await clients.balanceOf(chain.payTo)) - payToBefore, 24n * 1000n);
    const transactions = new Set(answers.map((a) => a.transaction));
    assert.ok(transactions.size < 24, `${transactions.size} transactions for 24 payments`);
    assert.ok(batches.some((b) => b.size > 1));
    for (const p of payments) {
      const record = await row(p);
      assert.equal(record?.state, 'settled');
      assert.ok(record?.gasUsed && record.gasUsed > 0n, 'each payment carries its share of the gas');
      assert.ok(record?.batchSize && record.batchSize >= 1);
    }
    // A batch of several goes through Multicall3's aggregate3, each call allowed to fail alone.
    const batched = batches.find((b) => b.size > 1 && b.transaction)!;
    const tx = await clients.publicClient.getTransaction({ hash: batched.transaction! });
    assert.equal(tx.to?.toLowerCase(), MULTICALL3_ADDRESS.toLowerCase());
    const { args } = decodeFunctionData({ abi: multicall3Abi, data: tx.input });
    const calls = args[0] as readonly { allowFailure: boolean }[];
    assert.ok(calls.every((c) => c.allowFailure));
  });

  test('a payment alone on a quiet engine goes at once, straight to USDC, without waiting for the window', async () => {
    const { engine: e, batches } = engine({ batchWindowMs: 60_000 });
    const p = await payment(await fundedPayer(chain, '1'));
    const answer = await e.settle(p);
    assert.equal(answer.success, true);
    assert.equal(batches.length, 1);
    assert.equal(batches[0]?.size, 1);
    const tx = await clients.publicClient.getTransaction({ hash: answer.transaction as Hex });
    assert.equal(tx.to?.toLowerCase(), chain.usdc.toLowerCase());
  });

  test('a payment USDC would refuse is refused alone before anything is sent; the rest settle', async () => {
    const { engine: e } = engine();
    const good = await Promise.all([fundedPayer(chain, '1'), fundedPayer(chain, '1')].map(async (payer) => payment(await payer)));
    const broke = await payment(await fundedPayer(chain, '0'));
    const answers = await Promise.all([...good, broke].map((p) => e.settle(p)));
    assert.deepEqual(answers.map((a) => a.success), [true, true, false]);
    assert.equal(answers[2]?.errorReason, 'insufficient_funds');
    assert.equal(answers[2]?.transaction, '', 'no transaction carried it');
    assert.equal((await row(broke))?.state, 'failed');
  });

  test('a payment that fails inside a mined batch fails alone, read from the receipt', async () => {
    const { engine: e } = engine();
    const payers = await Promise.all([fundedPayer(chain, '1'), fundedPayer(chain, '1'), fundedPayer(chain, '1')]);
    const payments = await Promise.all(payers.map(payment));
    await pauseMining();
    const settling = Promise.all(payments.map((p) => e.settle(p)));
    // Once the batch is in the pool, the third payer moves its USDC away in a transaction that pays
    // a higher tip: the block runs it first, and that payment's transfer fails inside the batch.
    await until(async () => ((await row(payments[0]!))?.txHash ? true : undefined), 'the batch to be sent');
    await rpc('anvil_setBalance', [payers[2]!.address, '0x56bc75e2d63100000']);
    const drain = await clients.walletFor(payers[2]!).writeContract({
      address: chain.usdc, abi: fiatTokenAbi(), functionName: 'transfer', args: [chain.payTo, parseUnits('1', 6)],
      gas: 100_000n, maxPriorityFeePerGas: parseUnits('50', 9), maxFeePerGas: parseUnits('100', 9),
    });
    await rpc('evm_mine', []);
    await rpc('evm_setAutomine', [true]);
    const answers = await settling;
    assert.equal((await clients.publicClient.getTransactionReceipt({ hash: drain })).status, 'success');
    assert.deepEqual(answers.map((a) => a.success), [true, true, false]);
    assert.equal(answers[0]?.transaction, answers[2]?.transaction, 'the same transaction carried all three');
    assert.equal((await row(payments[2]!))?.state, 'failed');
    assert.match((await row(payments[2]!))?.error ?? '', /did not execute this authorization/);
  });

  test('submitted mode answers once the node has the transaction; the receipt is reconciled after', async () => {
    const { engine: e } = engine({ mode: 'submitted' });
    const p = await payment(await fundedPayer(chain, '1'));
    await pauseMining();
    const answer = await e.settle(p);
    assert.equal(answer.success, true);
    assert.match(answer.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(await clients.publicClient.getTransactionReceipt({ hash: answer.transaction as Hex }).catch(() => undefined), undefined, 'not mined when answered');
    assert.equal((await row(p))?.state, 'settling');
    await rpc('evm_mine', []);
    await until(async () => ((await row(p))?.state === 'settled' ? true : undefined), 'the receipt to be reconciled');
  });

  test('a transaction dropped from the pool is replaced at the same nonce with a higher fee', async () => {
    const { engine: e } = engine({ replaceAfterMs: 300 });
    const p = await payment(await fundedPayer(chain, '1'));
    await pauseMining();
    const settling = e.settle(p);
    const first = await until(async () => (await row(p))?.txHash ?? undefined, 'the first send');
    // The hash is written before the send: read it once the node holds it (seen to fail on a loaded machine).
    const original = await until(() => clients.publicClient.getTransaction({ hash: first as Hex }).catch(() => undefined), 'the node to hold the first send');
    await rpc('anvil_dropTransaction', [first]);
    const second = await until(async () => {
      const hash = (await row(p))?.txHash;
      return hash && hash !== first ? hash : undefined;
    }, 'the replacement');
    // The hash is written before the send: mine only once the node holds the replacement.
    await until(() => clients.publicClient.getTransaction({ hash: second as Hex }).catch(() => undefined), 'the node to hold the replacement');
    await rpc('evm_mine', []);
    const answer = await settling;
    assert.equal(answer.success, true);
    assert.equal(answer.transaction, second);
    const replacement = await clients.publicClient.getTransaction({ hash: second as Hex });
    assert.equal(replacement.nonce, original.nonce);
    assert.ok(replacement.maxFeePerGas! > original.maxFeePerGas!);
    assert.ok(replacement.maxPriorityFeePerGas! > original.maxPriorityFeePerGas!);
  });

  test('with a confirmation depth of 3 the answer waits for two blocks on top of the receipt', async () => {
    const { engine: e } = engine({ confirmations: 3 });
    const p = await payment(await fundedPayer(chain, '1'));
    // Each send is mined at once, and no block comes by itself: the test mines the confirmations.
    await rpc('evm_setIntervalMining', [0]);
    await rpc('evm_setAutomine', [true]);
    let answered = false;
    const settling = e.settle(p).then((a) => {
      answered = true;
      return a;
    });
    const hash = await until(async () => (await row(p))?.txHash ?? undefined, 'the send');
    await until(() => clients.publicClient.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined), 'the receipt');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(answered, false, 'one block is not enough');
    await rpc('evm_mine', []);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(answered, false, 'two blocks are not enough');
    await rpc('evm_mine', []);
    assert.equal((await settling).success, true);
  });

  test('several settler keys share a burst, each with its own nonces', async () => {
    const second = generatePrivateKey();
    await rpc('anvil_setBalance', [privateKeyToAccount(second).address, '0x56bc75e2d63100000']);
    const { engine: e, batches } = engine({ settlerKeys: [chain.settlerKey, second], maxBatchSize: 8 });
    const payers = await Promise.all(Array.from({ length: 16 }, () => fundedPayer(chain, '1')));
    const payments = await Promise.all(payers.map(payment));
    await pauseMining();
    const settling = Promise.all(payments.map((p) => e.settle(p)));
    await until(async () => (batches.length === 0 && new Set((await Promise.all(payments.map(row))).map((r) => r?.settler).filter(Boolean)).size === 2 ? true : undefined), 'both keys to send');
    // A row's hash is written before its send: mine once the node holds every one of them, or a send
    // that lands after the mine waits in the pool (timed out once on a loaded machine).
    await until(async () => {
      const hashes = new Set((await Promise.all(payments.map(row))).map((r) => r?.txHash).filter((h): h is string => Boolean(h)));
      const held = await Promise.all([...hashes].map((hash) => clients.publicClient.getTransaction({ hash: hash as Hex }).then(() => true, () => false)));
      return held.every(Boolean) ? true : undefined;
    }, 'the node to hold every send');
    await rpc('evm_mine', []);
    await rpc('evm_setAutomine', [true]);
    const answers = await settling;
    assert.ok(answers.every((a) => a.success));
    const settlers = new Set((await Promise.all(payments.map(row))).map((r) => r?.settler?.toLowerCase()));
    assert.deepEqual(settlers, new Set([chain.settlerKey, second].map((k) => privateKeyToAccount(k).address.toLowerCase())));
  });
});
