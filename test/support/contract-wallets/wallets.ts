// The contract wallets of issue 21 finding 1, deployed on a test's dev chain and funded with USDC:
// an honest ERC-1271 wallet (an owner's ECDSA signature), a lying one (yes in eth_call, no on
// chain), a gas burner (yes in eth_call, burns all its gas on chain), and an EOA delegated by
// EIP-7702 to the lying wallet (a 65-byte signature from an address that has code).
import { createPublicClient, createWalletClient, getAddress, http, parseEther, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex, PrivateKeyAccount, PublicClient } from 'viem';
import { devPrivateKey } from '../../../src/chain/dev-accounts.ts';
import type { DevChain } from '../../../src/chain/devchain.ts';
import { localChain, mintUsdc } from '../../../src/chain/fiat-token.ts';
import { compileContracts } from '../base-world/compile.ts';

const CONTRACTS = new URL('./contracts/', import.meta.url).pathname;

export type HostileKind = 'LyingWallet' | 'GasBurner';

export interface HonestWallet {
  address: Address;
  owner: PrivateKeyAccount;
}

export interface DelegatedEoa {
  account: PrivateKeyAccount;
  /** The contract whose code the EOA runs (EIP-7702). */
  delegate: Address;
}

/** Deploys and funds contract wallets on one chain; one instance per chain (its deployer's nonces are its own). */
export class ContractWallets {
  private readonly chain: ReturnType<typeof localChain>;
  private readonly publicClient: PublicClient;
  private readonly deployer = privateKeyToAccount(generatePrivateKey());
  private readonly hostile = new Map<HostileKind, Address>();
  private funded = false;

  constructor(private readonly devChain: DevChain) {
    this.chain = localChain(devChain.chainId, devChain.rpcUrl);
    this.publicClient = createPublicClient({ chain: this.chain, transport: http(devChain.rpcUrl), pollingInterval: 20 });
  }

  private walletClient(account: PrivateKeyAccount) {
    return createWalletClient({ chain: this.chain, transport: http(this.devChain.rpcUrl), account });
  }

  /** A deployed HonestWallet owned by a fresh key, holding `usdcAtomic`. */
  async honest(usdcAtomic: bigint): Promise<HonestWallet> {
    const owner = privateKeyToAccount(generatePrivateKey());
    const address = await this.deploy('HonestWallet', [owner.address]);
    await this.fund(address, usdcAtomic);
    return { address, owner };
  }

  /** A fresh deployment of a hostile wallet, holding `usdcAtomic`. */
  async hostileWallet(kind: HostileKind, usdcAtomic: bigint): Promise<Address> {
    const address = await this.deploy(kind, []);
    await this.fund(address, usdcAtomic);
    return address;
  }

  /**
   * A fresh EOA holding `usdcAtomic`, delegated by an EIP-7702 authorization (sent in a type-4
   * transaction by the deployer) to one shared deployment of `kind`: its own 65-byte ECDSA
   * signatures recover to it, and USDC, seeing code at its address, asks that code instead.
   */
  async delegatedEoa(kind: HostileKind, usdcAtomic: bigint): Promise<DelegatedEoa> {
    let delegate = this.hostile.get(kind);
    if (!delegate) {
      delegate = await this.deploy(kind, []);
      this.hostile.set(kind, delegate);
    }
    const account = privateKeyToAccount(generatePrivateKey());
    const sponsor = this.walletClient(await this.deployerWithGas());
    const authorization = await sponsor.signAuthorization({ account, contractAddress: delegate });
    // To the sponsor itself: a call to the EOA would run the delegate's code, which has no fallback.
    await this.mined(await sponsor.sendTransaction({ authorizationList: [authorization], to: sponsor.account.address, value: 0n }));
    const code = await this.publicClient.getCode({ address: account.address });
    const expected = `0xef0100${delegate.slice(2).toLowerCase()}`;
    if (code?.toLowerCase() !== expected) throw new Error(`EIP-7702 delegation did not take: code at ${account.address} is ${code ?? 'empty'}`);
    await this.fund(account.address, usdcAtomic);
    return { account, delegate };
  }

  private async deploy(name: 'HonestWallet' | HostileKind, args: readonly unknown[]): Promise<Address> {
    const contract = compileContracts(CONTRACTS)[name];
    if (!contract) throw new Error(`${name} did not compile`);
    const wallet = this.walletClient(await this.deployerWithGas());
    const receipt = await this.mined(await wallet.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args }));
    if (!receipt.contractAddress) throw new Error(`${name}: the deployment returned no address`);
    return getAddress(receipt.contractAddress);
  }

  private async deployerWithGas(): Promise<PrivateKeyAccount> {
    if (!this.funded) {
      await this.publicClient.request({ method: 'anvil_setBalance', params: [this.deployer.address, toHex(parseEther('100'))] } as never);
      this.funded = true;
    }
    return this.deployer;
  }

  private async mined(hash: Hex) {
    const receipt = await this.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }

  /** Mints with the token owner's key. Callers must not mint from elsewhere at the same moment (one owner nonce). */
  private async fund(to: Address, amount: bigint): Promise<void> {
    await mintUsdc({ rpcUrl: this.devChain.rpcUrl, chainId: this.devChain.chainId, ownerKey: devPrivateKey('tokenOwner'), token: this.devChain.usdc, to, amount });
  }
}
