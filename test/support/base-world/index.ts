// anvil as Base mainnet (chain id 8453) with the contracts the crypto tools read at their canonical
// addresses, wallets with known holdings, blocks with a spread of priority fees and, on request,
// large and small USDC/WETH transfers. See README.md for what is planted and why.
import { erc20Abi, maxUint256, parseAbi, parseEther, parseGwei } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';
import { startAnvil } from '../../../src/chain/anvil.ts';
import { ANVIL_MNEMONIC, devPrivateKey } from '../../../src/chain/dev-accounts.ts';
import { deployFiatToken, fiatTokenAbi, mintUsdc as mintFiatToken } from '../../../src/chain/fiat-token.ts';
import { baseContracts, canonical } from './canonical.ts';
import { multicall3CreationCode, slot, uniswapArtifact, worldClients } from './chain-tools.ts';
import type { WorldClients } from './chain-tools.ts';
import { compileTestContracts } from './compile.ts';
import type { PlantedTokens } from './tokens.ts';
import { plantTokens } from './tokens.ts';

export interface Transfer {
  token: 'USDC' | 'WETH';
  txHash: Hex;
  blockNumber: bigint;
  from: Address;
  to: Address;
  amountAtomic: bigint;
}

export interface BaseWorld {
  rpcUrl: string;
  chainId: 8453;
  addresses: typeof canonical;
  /** The test tokens (clean, honeypot, fee-on-transfer, owner powers, EIP-1967-proxied, a clone, a dangerous contract) and their WETH pairs. */
  tokens: PlantedTokens['tokens'];
  pairs: PlantedTokens['pairs'];
  wallets: {
    eoa: { address: Address; ethWei: bigint; usdcAtomic: bigint; nonce: number };
    smartWallet: { address: Address; ethWei: bigint; usdcAtomic: bigint };
  };
  /** Present when started with `history: true`. */
  history?: { usdcLarge: Transfer[]; usdcSmall: Transfer[]; wethLarge: Transfer[]; wethSmall: Transfer[] };
  /** The priority fees of the transactions in each of the last 20 blocks (5 per block). */
  priorityFeesSentWei: bigint[];
  ethUsd: { answer: bigint; decimals: 8; updatedAt: bigint };
  setEthUsd(answer: bigint, updatedAt?: bigint): Promise<void>;
  mintUsdc(to: Address, atomic: bigint): Promise<void>;
  mine(blocks?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface BaseWorldOptions {
  /** false: nothing at the GasPriceOracle predeploy address. */
  gasPriceOracle?: boolean;
  history?: boolean;
}

const CHAIN_ID = 8453;
const ETH_USD = 300_000_000_000n; // 3,000.00000000
const feedAbi = parseAbi(['function set(int256 newAnswer, uint256 newUpdatedAt)']);
const wethAbi = parseAbi(['function deposit() payable', 'function transfer(address to, uint256 amount) returns (bool)']);
const PRIORITY_FEES = ['0.001', '0.01', '0.1', '1', '2'].map((g) => parseGwei(g));
const SPREAD_BLOCKS = 20;

const accountAt = (index: number) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });

async function placeUniswap(world: WorldClients, deployer: Address): Promise<void> {
  const factory = uniswapArtifact('@uniswap/v2-core', 'UniswapV2Factory');
  const router = uniswapArtifact('@uniswap/v2-periphery', 'UniswapV2Router02');
  // UniswapV2Factory: feeTo at slot 0, feeToSetter at slot 1; the router's factory and WETH are immutables in its code.
  await world.moveTo(await world.deploy(factory.abi, factory.bytecode, [deployer]), canonical.uniswapV2Factory, [slot(1)]);
  await world.moveTo(await world.deploy(router.abi, router.bytecode, [canonical.uniswapV2Factory, canonical.weth]), canonical.uniswapV2Router02);
}

/** A USDC/WETH pool at 3,000 USDC per ETH, made through the canonical router so it finds it. */
async function addUsdcWethLiquidity(world: WorldClients, deployer: Address, ownerKey: Hex, rpcUrl: string): Promise<void> {
  const router = uniswapArtifact('@uniswap/v2-periphery', 'UniswapV2Router02');
  await mintFiatToken({ rpcUrl, chainId: CHAIN_ID, ownerKey, token: canonical.usdc, to: deployer, amount: 3_000_000_000_000n });
  await world.mined(await world.wallet.writeContract({ address: canonical.usdc, abi: erc20Abi, functionName: 'approve', args: [canonical.uniswapV2Router02, maxUint256] }));
  await world.mined(
    await world.wallet.writeContract({
      address: canonical.uniswapV2Router02,
      abi: router.abi,
      functionName: 'addLiquidityETH',
      args: [canonical.usdc, 3_000_000_000_000n, 0n, 0n, deployer, maxUint256],
      value: parseEther('1000'),
    }),
  );
}

export async function startBaseWorld(options: BaseWorldOptions = {}): Promise<BaseWorld> {
  const anvil = await startAnvil({ chainId: CHAIN_ID });
  try {
    const ownerKey = devPrivateKey('tokenOwner');
    const world = worldClients(anvil.rpcUrl, CHAIN_ID, ownerKey);
    const deployer = world.wallet.account.address;
    const contracts = compileTestContracts();

    await world.anvil('anvil_setCode', [canonical.multicall3, await world.publicClient.call({ data: multicall3CreationCode() }).then((r) => r.data)]);
    await deployFiatToken({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, proxyAdminKey: devPrivateKey('proxyAdmin'), ownerKey, name: 'USD Coin', at: canonical.usdc });
    const weth9 = uniswapArtifact('@uniswap/v2-periphery', 'WETH9');
    // WETH9 keeps name, symbol and decimals in storage slots 0-2.
    await world.moveTo(await world.deploy(weth9.abi, weth9.bytecode), canonical.weth, [slot(0), slot(1), slot(2)]);
    await world.moveTo(await world.deploy(contracts.TestEthUsdFeed!.abi, contracts.TestEthUsdFeed!.bytecode), canonical.chainlinkEthUsd);
    if (options.gasPriceOracle !== false) {
      await world.moveTo(await world.deploy(contracts.TestGasPriceOracle!.abi, contracts.TestGasPriceOracle!.bytecode), canonical.gasPriceOracle);
    }
    await placeUniswap(world, deployer);
    await addUsdcWethLiquidity(world, deployer, ownerKey, anvil.rpcUrl);

    const mintUsdc = (to: Address, atomic: bigint) => mintFiatToken({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, ownerKey, token: canonical.usdc, to, amount: atomic });
    const setEthUsd = async (answer: bigint, updatedAt?: bigint) => {
      const at = updatedAt ?? (await world.publicClient.getBlock()).timestamp;
      await world.mined(await world.wallet.writeContract({ address: canonical.chainlinkEthUsd, abi: feedAbi, functionName: 'set', args: [answer, at] }));
      ethUsd.answer = answer;
      ethUsd.updatedAt = at;
    };
    const ethUsd = { answer: ETH_USD, decimals: 8 as const, updatedAt: 0n };
    await setEthUsd(ETH_USD);

    const planted = await plantTokens(world, contracts);
    const wallets = await plantWallets(world, mintUsdc);
    const history = options.history ? await plantHistory(world, deployer, mintUsdc) : undefined;
    // Last, so that eth_feeHistory over the last 20 blocks sees only the spread.
    const priorityFeesSentWei = await plantPriorityFeeSpread(world);

    return {
      rpcUrl: anvil.rpcUrl,
      chainId: CHAIN_ID,
      addresses: canonical,
      tokens: planted.tokens,
      pairs: planted.pairs,
      wallets,
      ...(history ? { history } : {}),
      priorityFeesSentWei,
      ethUsd,
      setEthUsd,
      mintUsdc,
      mine: async (blocks = 1) => {
        await world.anvil('anvil_mine', [`0x${blocks.toString(16)}`]);
      },
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** An account that sent three transactions and holds 1.5 ETH and 1,234.56 USDC; a contract holding 2 ETH and 10 USDC. */
async function plantWallets(world: WorldClients, mintUsdc: (to: Address, atomic: bigint) => Promise<void>): Promise<BaseWorld['wallets']> {
  const eoa = worldClients(world.publicClient.transport.url as string, CHAIN_ID, accountKey(8));
  await world.anvil('anvil_setBalance', [eoa.wallet.account.address, `0x${parseEther('1').toString(16)}`]);
  for (let i = 0; i < 3; i += 1) await eoa.mined(await eoa.wallet.sendTransaction({ to: eoa.wallet.account.address, value: 0n }));
  const eoaEth = parseEther('1.5');
  await world.anvil('anvil_setBalance', [eoa.wallet.account.address, `0x${eoaEth.toString(16)}`]);
  await mintUsdc(eoa.wallet.account.address, 1_234_560_000n);

  const smartWallet: Address = '0x5000000000000000000000000000000000000005';
  // A contract that accepts anything and does nothing: code STOP.
  await world.anvil('anvil_setCode', [smartWallet, '0x00']);
  const smartEth = parseEther('2');
  await world.anvil('anvil_setBalance', [smartWallet, `0x${smartEth.toString(16)}`]);
  await mintUsdc(smartWallet, 10_000_000n);
  return {
    eoa: { address: eoa.wallet.account.address, ethWei: eoaEth, usdcAtomic: 1_234_560_000n, nonce: 3 },
    smartWallet: { address: smartWallet, ethWei: smartEth, usdcAtomic: 10_000_000n },
  };
}

function accountKey(index: number): Hex {
  const key = accountAt(index).getHdKey().privateKey;
  if (!key) throw new Error(`no key for account ${index}`);
  return `0x${Buffer.from(key).toString('hex')}`;
}

/** Large and small USDC and WETH transfers, each in its own block. */
async function plantHistory(world: WorldClients, deployer: Address, mintUsdc: (to: Address, atomic: bigint) => Promise<void>): Promise<NonNullable<BaseWorld['history']>> {
  const recipient: Address = '0x00000000000000000000000000000000000000d1';
  await mintUsdc(deployer, 1_251_000_000_000n);
  await world.anvil('anvil_setBalance', [deployer, `0x${parseEther('10000').toString(16)}`]);
  await world.mined(await world.wallet.writeContract({ address: canonical.weth, abi: wethAbi, functionName: 'deposit', value: parseEther('200.5') }));
  const send = async (token: 'USDC' | 'WETH', amountAtomic: bigint): Promise<Transfer> => {
    const address = token === 'USDC' ? canonical.usdc : canonical.weth;
    const receipt = await world.mined(await world.wallet.writeContract({ address, abi: token === 'USDC' ? fiatTokenAbi() : wethAbi, functionName: 'transfer', args: [recipient, amountAtomic] }));
    return { token, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, from: deployer, to: recipient, amountAtomic };
  };
  const usdcLarge = [await send('USDC', 250_000_000_000n), await send('USDC', 1_000_000_000_000n)];
  const usdcSmall = [await send('USDC', 50_000_000n), await send('USDC', 900_000_000n)];
  const wethLarge = [await send('WETH', parseEther('200'))];
  const wethSmall = [await send('WETH', parseEther('0.5'))];
  return { usdcLarge, usdcSmall, wethLarge, wethSmall };
}

/** The last 20 blocks each carry five ETH transfers paying 0.001, 0.01, 0.1, 1 and 2 gwei of priority fee. */
async function plantPriorityFeeSpread(world: WorldClients): Promise<bigint[]> {
  const sender = worldClients(world.publicClient.transport.url as string, CHAIN_ID, accountKey(9));
  const from = sender.wallet.account.address;
  let nonce = await world.publicClient.getTransactionCount({ address: from });
  await world.anvil('evm_setAutomine', [false]);
  try {
    for (let block = 0; block < SPREAD_BLOCKS; block += 1) {
      for (const fee of PRIORITY_FEES) {
        await sender.wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000fe', value: 1n, gas: 21_000n, maxPriorityFeePerGas: fee, maxFeePerGas: parseGwei('100'), nonce });
        nonce += 1;
      }
      await world.anvil('evm_mine', []);
    }
  } finally {
    await world.anvil('evm_setAutomine', [true]);
  }
  return PRIORITY_FEES;
}

export { baseContracts };
export { startBaseSepoliaWorld } from './sepolia.ts';
export type { BaseSepoliaWorld } from './sepolia.ts';
