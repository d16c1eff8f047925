// A paying client for tests, written from the protocol (the official client is exercised in its
// own test): signs EIP-3009 TransferWithAuthorization over requirements, with any field bent.
import { randomBytes } from 'node:crypto';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { createPublicClient, createWalletClient, http, parseUnits, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex, PrivateKeyAccount } from 'viem';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { fiatTokenAbi, localChain, mintUsdc } from '../../src/chain/fiat-token.ts';

export interface SignOptions {
  value?: bigint;
  to?: Address;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: Hex;
  domainName?: string;
  chainId?: number;
  /** Changes to the `accepted` copy of the requirements. */
  accepted?: Partial<PaymentRequirements>;
}

export const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

export async function signPayment(payer: PrivateKeyAccount, requirements: PaymentRequirements, options: SignOptions = {}): Promise<PaymentPayload> {
  const authorization = {
    from: payer.address,
    to: options.to ?? (requirements.payTo as Address),
    value: options.value ?? BigInt(requirements.amount),
    validAfter: options.validAfter ?? nowSeconds() - 600n,
    validBefore: options.validBefore ?? nowSeconds() + BigInt(requirements.maxTimeoutSeconds),
    nonce: options.nonce ?? toHex(randomBytes(32)),
  };
  const signature = await payer.signTypedData({
    domain: {
      name: options.domainName ?? String(requirements.extra?.name),
      version: String(requirements.extra?.version),
      chainId: options.chainId ?? Number(requirements.network.split(':')[1]),
      verifyingContract: requirements.asset as Address,
    },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  return {
    x402Version: 2,
    accepted: { ...requirements, ...options.accepted },
    payload: {
      signature,
      authorization: {
        from: authorization.from,
        to: authorization.to,
        value: authorization.value.toString(),
        validAfter: authorization.validAfter.toString(),
        validBefore: authorization.validBefore.toString(),
        nonce: authorization.nonce,
      },
    },
  };
}

export const paymentHeader = (payload: PaymentPayload) => encodePaymentSignatureHeader(payload);

export function readPaymentRequired(response: Response): PaymentRequired {
  const header = response.headers.get('payment-required');
  if (!header) throw new Error(`no PAYMENT-REQUIRED header on ${response.status}`);
  return decodePaymentRequiredHeader(header);
}

export function readPaymentResponse(response: Response): SettleResponse | undefined {
  const header = response.headers.get('payment-response');
  return header ? decodePaymentResponseHeader(header) : undefined;
}

/** The key of a fresh payer holding `usdc` USDC (and no ETH: EIP-3009 payers need none). */
export async function fundedPayerKey(chain: DevChain, usdc = '10'): Promise<Hex> {
  const key = generatePrivateKey();
  if (parseUnits(usdc, 6) === 0n) return key;
  const to = privateKeyToAccount(key).address;
  const mint = () => mintUsdc({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, ownerKey: devPrivateKey('tokenOwner'), token: chain.usdc, to, amount: parseUnits(usdc, 6) });
  // One owner key mints for every test payer: mints queue per chain so concurrent callers never race on its nonce.
  const queued = (mintQueues.get(chain.rpcUrl) ?? Promise.resolve()).then(mint);
  mintQueues.set(chain.rpcUrl, queued.catch(() => undefined));
  await queued;
  return key;
}

const mintQueues = new Map<string, Promise<unknown>>();

export async function fundedPayer(chain: DevChain, usdc = '10'): Promise<PrivateKeyAccount> {
  return privateKeyToAccount(await fundedPayerKey(chain, usdc));
}

export function chainClients(chain: DevChain) {
  const viemChain = localChain(chain.chainId, chain.rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl), pollingInterval: 20 });
  const balanceOf = (owner: Address) =>
    publicClient.readContract({ address: chain.usdc, abi: fiatTokenAbi(), functionName: 'balanceOf', args: [owner] }) as Promise<bigint>;
  const walletFor = (account: PrivateKeyAccount) => createWalletClient({ chain: viemChain, transport: http(chain.rpcUrl), account });
  return { publicClient, balanceOf, walletFor };
}
