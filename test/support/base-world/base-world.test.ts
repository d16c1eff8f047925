// The world is what it claims: each canonical address holds a working contract, the router finds
// the USDC/WETH pool, the wallets hold what they should, and the last blocks carry the fee spread.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPublicClient, erc20Abi, http, parseAbi, parseEther } from 'viem';
import type { PublicClient } from 'viem';
import type { BaseSepoliaWorld, BaseWorld } from './index.ts';
import { startBaseSepoliaWorld, startBaseWorld } from './index.ts';

let world: BaseWorld;
let sepolia: BaseSepoliaWorld;
let client: PublicClient;
before(async () => {
  [world, sepolia] = await Promise.all([startBaseWorld({ history: true }), startBaseSepoliaWorld()]);
  client = createPublicClient({ transport: http(world.rpcUrl) });
});
after(async () => {
  await Promise.all([world?.stop(), sepolia?.stop()]);
});

test('every canonical address holds code', async () => {
  for (const [name, address] of Object.entries(world.addresses)) {
    const code = await client.getCode({ address });
    assert.ok(code && code.length > 2, `${name} at ${address}`);
  }
});

test('USDC at its canonical address is Circle\'s token, and the wallets hold what was planted', async () => {
  const read = (functionName: 'name' | 'symbol' | 'decimals') => client.readContract({ address: world.addresses.usdc, abi: erc20Abi, functionName });
  assert.deepEqual([await read('name'), await read('symbol'), await read('decimals')], ['USD Coin', 'USDC', 6]);
  const { eoa, smartWallet } = world.wallets;
  assert.equal(await client.readContract({ address: world.addresses.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [eoa.address] }), eoa.usdcAtomic);
  assert.equal(await client.getBalance({ address: eoa.address }), eoa.ethWei);
  assert.equal(await client.getTransactionCount({ address: eoa.address }), eoa.nonce);
  assert.equal(await client.getBalance({ address: smartWallet.address }), smartWallet.ethWei);
});

test('WETH, the feed and the gas price oracle answer at their addresses', async () => {
  assert.equal(await client.readContract({ address: world.addresses.weth, abi: erc20Abi, functionName: 'symbol' }), 'WETH');
  const [, answer] = await client.readContract({ address: world.addresses.chainlinkEthUsd, abi: parseAbi(['function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)']), functionName: 'latestRoundData' });
  assert.equal(answer, 300_000_000_000n);
  const fee = await client.readContract({ address: world.addresses.gasPriceOracle, abi: parseAbi(['function getL1Fee(bytes) view returns (uint256)']), functionName: 'getL1Fee', args: ['0x0102'] });
  assert.equal(fee, 50_000_000n + 2n * 1_000_000n);
});

test('the canonical router finds the USDC/WETH pool at 3,000 USDC per ETH', async () => {
  const amounts = await client.readContract({
    address: world.addresses.uniswapV2Router02,
    abi: parseAbi(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']),
    functionName: 'getAmountsOut',
    args: [parseEther('1'), [world.addresses.weth, world.addresses.usdc]],
  });
  // 1 ETH into 1,000 ETH / 3,000,000 USDC with the 0.3% fee: a little under 2,991 USDC.
  assert.ok(amounts[1]! > 2_980_000_000n && amounts[1]! < 3_000_000_000n, String(amounts[1]));
});

test('the last 20 blocks carry five priority fees each, so the percentiles differ', async () => {
  const history = await client.getFeeHistory({ blockCount: 20, rewardPercentiles: [25, 50, 90] });
  for (const [p25, p50, p90] of history.reward!) {
    assert.ok(p25! < p50! && p50! < p90!, `${p25} < ${p50} < ${p90}`);
  }
});

test('the planted transfers are in recent blocks', async () => {
  const head = await client.getBlockNumber();
  for (const transfer of [...world.history!.usdcLarge, ...world.history!.wethSmall]) assert.ok(head - transfer.blockNumber < 50n);
});

test('the Sepolia world has USDC at its canonical address and the account\'s holdings', async () => {
  const sepoliaClient = createPublicClient({ transport: http(sepolia.rpcUrl) });
  assert.equal(await sepoliaClient.getChainId(), 84532);
  assert.equal(await sepoliaClient.readContract({ address: sepolia.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [sepolia.account.address] }), sepolia.account.usdcAtomic);
  assert.equal(await sepoliaClient.getBalance({ address: sepolia.account.address }), sepolia.account.ethWei);
});

test('every test token has a WETH pool the canonical router quotes', async () => {
  for (const [name, token] of Object.entries(world.tokens).filter(([name]) => name in world.pairs)) {
    const amounts = await client.readContract({
      address: world.addresses.uniswapV2Router02,
      abi: parseAbi(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']),
      functionName: 'getAmountsOut',
      args: [parseEther('0.1'), [world.addresses.weth, token]],
    });
    assert.ok(amounts[1]! > 0n, name);
  }
  // The clone delegates to the clean token's code: it answers with its own (empty) storage.
  assert.equal(await client.readContract({ address: world.tokens.minimalProxy, abi: erc20Abi, functionName: 'totalSupply' }), 0n);
  assert.equal(await client.readContract({ address: world.tokens.proxied, abi: erc20Abi, functionName: 'symbol' }), 'PRX');
});
