// The test tokens of TestTokens.sol, each paired with WETH on the canonical Uniswap V2 factory with
// liquidity added through the canonical router (100,000 tokens against 100 ETH), plus an EIP-1167
// clone of the clean token and a contract with DELEGATECALL and SELFDESTRUCT.
import { encodeFunctionData, erc20Abi, getAddress, maxUint256, parseAbi, parseEther } from 'viem';
import type { Address, Hex } from 'viem';
import { canonical } from './canonical.ts';
import type { WorldClients } from './chain-tools.ts';
import { uniswapArtifact } from './chain-tools.ts';
import type { Compiled } from './compile.ts';

export type PairedToken = 'clean' | 'honeypot' | 'fee' | 'ownerPowers' | 'proxied';

export interface PlantedTokens {
  tokens: Record<PairedToken, Address> & { proxiedImplementation: Address; minimalProxy: Address; dangerous: Address };
  pairs: Record<PairedToken, Address>;
}

const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const setPairAbi = parseAbi(['function setPair(address pair_)']);
const TOKENS_IN_POOL = 100_000n * 10n ** 18n;
const ETH_IN_POOL = parseEther('100');

/** EIP-1167: the 45-byte minimal proxy delegating every call to `implementation`. */
export const minimalProxyCode = (implementation: Address): Hex => `0x363d3d373d3d3d363d73${implementation.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`;

export async function plantTokens(world: WorldClients, contracts: Record<string, Compiled>): Promise<PlantedTokens> {
  const deploy = (name: string, args: readonly unknown[] = []) => world.deploy(contracts[name]!.abi, contracts[name]!.bytecode, args);
  const clean = await deploy('CleanToken');
  const honeypot = await deploy('HoneypotToken');
  const fee = await deploy('FeeToken');
  const ownerPowers = await deploy('OwnerPowersToken');
  const implementation = await deploy('UpgradeableToken');
  const init = encodeFunctionData({
    abi: contracts.UpgradeableToken!.abi,
    functionName: 'initialize',
    args: ['Proxied', 'PRX', 1_000_000n * 10n ** 18n, world.wallet.account.address],
  });
  const proxied = await deploy('TestERC1967Proxy', [implementation, init]);
  const dangerous = await deploy('Dangerous');
  const minimalProxy: Address = '0x1167000000000000000000000000000000001167';
  await world.anvil('anvil_setCode', [minimalProxy, minimalProxyCode(clean)]);

  const router = uniswapArtifact('@uniswap/v2-periphery', 'UniswapV2Router02');
  const tokens = { clean, honeypot, fee, ownerPowers, proxied };
  const pairs = {} as Record<PairedToken, Address>;
  for (const [name, token] of Object.entries(tokens) as [PairedToken, Address][]) {
    await world.mined(await world.wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [canonical.uniswapV2Router02, maxUint256] }));
    await world.mined(
      await world.wallet.writeContract({
        address: canonical.uniswapV2Router02,
        abi: router.abi,
        functionName: 'addLiquidityETH',
        args: [token, TOKENS_IN_POOL, 0n, 0n, world.wallet.account.address, maxUint256],
        value: ETH_IN_POOL,
      }),
    );
    pairs[name] = getAddress(await world.publicClient.readContract({ address: canonical.uniswapV2Factory, abi: factoryAbi, functionName: 'getPair', args: [token, canonical.weth] }));
  }
  // The traits that act on trades with the pair start once the pool exists.
  for (const token of [honeypot, fee]) {
    await world.mined(await world.wallet.writeContract({ address: token, abi: setPairAbi, functionName: 'setPair', args: [pairs[token === honeypot ? 'honeypot' : 'fee']] }));
  }
  return { tokens: { ...tokens, proxiedImplementation: implementation, minimalProxy, dangerous }, pairs };
}
