import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PayerBalances, RECHECK_SHORT_BALANCE_MS } from './payer-balances.ts';

function counting(balance: () => bigint) {
  const reads = { count: 0 };
  return { reads, read: async () => ((reads.count += 1), balance()) };
}

test('one chain read serves calls while the balance covers them and what is in flight', async () => {
  let clock = 0;
  const view = new PayerBalances(5_000, () => clock);
  const { reads, read } = counting(() => 3_000n);
  for (let i = 0; i < 3; i++) assert.equal((await view.admit('0xA', 1_000n, read)).admitted, true);
  assert.equal(reads.count, 1);
  // A fourth would go past the balance: refused on the read just made (an empty address costs the
  // node one read a second, not one per request); a second later the chain is asked again.
  assert.deepEqual(await view.admit('0xa', 1_000n, read), { admitted: false, balance: 0n });
  assert.equal(reads.count, 1);
  clock = RECHECK_SHORT_BALANCE_MS;
  assert.deepEqual(await view.admit('0xa', 1_000n, read), { admitted: false, balance: 0n });
  assert.equal(reads.count, 2);
  // One settles (its USDC left), one is released (nothing moved): room for one more, without a read.
  view.finish('0xA', 1_000n, true);
  view.finish('0xA', 1_000n, false);
  clock = 1_500;
  assert.equal((await view.admit('0xA', 1_000n, read)).admitted, true);
  assert.equal(reads.count, 2);
});

test('past its freshness the balance is read again: money spent elsewhere is seen', async () => {
  let clock = 0;
  let onChain = 5_000n;
  const view = new PayerBalances(5_000, () => clock);
  const { reads, read } = counting(() => onChain);
  assert.equal((await view.admit('0xB', 1_000n, read)).admitted, true);
  view.finish('0xB', 1_000n, true);
  onChain = 0n; // the payer moved everything away
  clock = 6_000;
  assert.equal((await view.admit('0xB', 1_000n, read)).admitted, false);
  assert.equal(reads.count, 2);
});

test('an empty address sending request after request costs one read a second, not one per request', async () => {
  let clock = 0;
  const view = new PayerBalances(5_000, () => clock);
  const { reads, read } = counting(() => 0n);
  for (let i = 0; i < 50; i++) {
    assert.equal((await view.admit('0xEmpty', 1_000n, read)).admitted, false);
    clock += 100;
  }
  assert.equal(reads.count, 5);
});
