// The batch-settlement contracts land at the addresses @x402/evm hard-codes, on a bare anvil.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from '@x402/evm';
import { createPublicClient, getAddress, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startAnvil } from './anvil.ts';
import type { RunningAnvil } from './anvil.ts';
import {
  BATCH_SETTLEMENT_ADDRESSES,
  CREATE2_DEPLOYER,
  batchSettlementContracts,
  create2Address,
  deployBatchSettlementContracts,
} from './batch-settlement-contracts.ts';
import { devPrivateKey } from './dev-accounts.ts';
import { localChain } from './fiat-token.ts';

let anvil: RunningAnvil;
before(async () => {
  anvil = await startAnvil({ chainId: 31337 });
});
after(async () => {
  await anvil?.stop();
});

test('the canonical addresses are the ones the official SDK uses', () => {
  assert.equal(BATCH_SETTLEMENT_ADDRESSES.settlement, getAddress(BATCH_SETTLEMENT_ADDRESS));
  assert.equal(BATCH_SETTLEMENT_ADDRESSES.depositCollector, getAddress(ERC3009_DEPOSIT_COLLECTOR_ADDRESS));
});

test('an init code that is not the published one is refused before anything is sent', () => {
  const { x402BatchSettlement } = batchSettlementContracts;
  assert.equal(create2Address(x402BatchSettlement), BATCH_SETTLEMENT_ADDRESSES.settlement);
  const lastByte = x402BatchSettlement.initCode.slice(-2) === '00' ? '01' : '00';
  const altered = { ...x402BatchSettlement, initCode: `${x402BatchSettlement.initCode.slice(0, -2)}${lastByte}` as Hex };
  assert.throws(() => create2Address(altered), /not the canonical/);
});

test('both contracts are deployed through the CREATE2 deployer, once', async () => {
  const client = createPublicClient({ chain: localChain(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
  assert.ok(await client.getCode({ address: CREATE2_DEPLOYER }), 'anvil has the CREATE2 deployer from genesis');
  assert.equal(await client.getCode({ address: BATCH_SETTLEMENT_ADDRESSES.settlement }), undefined);

  const deployerKey = devPrivateKey('tokenOwner');
  const options = { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, deployerKey };
  assert.deepEqual(await deployBatchSettlementContracts(options), BATCH_SETTLEMENT_ADDRESSES);
  for (const address of Object.values(BATCH_SETTLEMENT_ADDRESSES)) assert.ok(await client.getCode({ address }), `code at ${address}`);
  // The collector was built for this settlement contract (its constructor argument).
  const settlementOfCollector = await client.readContract({
    address: BATCH_SETTLEMENT_ADDRESSES.depositCollector,
    abi: parseAbi(['function x402BatchSettlement() view returns (address)']),
    functionName: 'x402BatchSettlement',
  });
  assert.equal(settlementOfCollector, BATCH_SETTLEMENT_ADDRESSES.settlement);

  const deployer = privateKeyToAccount(deployerKey).address;
  const nonce = await client.getTransactionCount({ address: deployer });
  await deployBatchSettlementContracts(options);
  assert.equal(await client.getTransactionCount({ address: deployer }), nonce, 'nothing sent the second time');
});
