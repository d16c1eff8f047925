// The embedded facilitator: verifies EIP-3009 authorizations locally (signature with low-s,
// recipient, exact amount, time window, then the payer's balance through a cached view). Settling is the
// settlement engine's (src/payments/settlement/).
import { eip3009ABI } from '@x402/evm';
import { createPublicClient, getAddress, http, isAddressEqual, size } from 'viem';
import type { PaymentPayload, PaymentRequirements, SupportedResponse, VerifyResponse } from '@x402/core/types';
import type { Address, Hex, PublicClient } from 'viem';
import { viemChain } from '../../chain/viem-chain.ts';
import { parseEip3009Payload } from '../exact-evm-payload.ts';
import type { Eip3009Payload } from '../exact-evm-payload.ts';
import type { PaymentNetwork } from '../networks.ts';
import type { Facilitator } from './facilitator.ts';
import { PayerBalances } from './payer-balances.ts';
import { authorizationDigest, recoverAuthorizationSigner } from './signature.ts';
import type { Eip712Domain } from './signature.ts';

/** An authorization must stay valid this long past verification (block time allowance), as in the reference. */
export const VALID_BEFORE_BUFFER_SECONDS = 6n;

export interface EmbeddedFacilitatorOptions {
  network: PaymentNetwork;
  rpcUrl: string;
  /** The settler keys' addresses, announced in /supported. */
  signers: readonly Address[];
  /** Wall clock in seconds; injectable for tests. */
  nowSeconds?: () => bigint;
  /** How long a payer's balance read from the chain is trusted (net of calls in flight here). */
  balanceTtlMs?: number;
}

const DEFAULT_BALANCE_TTL_MS = 5_000;

type Invalid = { isValid: false; invalidReason: string; invalidMessage: string; payer?: string };

const invalid = (invalidReason: string, invalidMessage: string, payer?: string): Invalid => ({
  isValid: false,
  invalidReason,
  invalidMessage,
  ...(payer ? { payer } : {}),
});

export class EmbeddedFacilitator implements Facilitator {
  readonly kind = 'embedded';
  private readonly publicClient: PublicClient;
  private readonly nowSeconds: () => bigint;
  private readonly balances: PayerBalances;

  constructor(private readonly options: EmbeddedFacilitatorOptions) {
    const chain = viemChain(options.network, options.rpcUrl);
    this.publicClient = createPublicClient({ chain, transport: http(options.rpcUrl, { retryCount: 0 }) });
    this.nowSeconds = options.nowSeconds ?? (() => BigInt(Math.floor(Date.now() / 1000)));
    this.balances = new PayerBalances(options.balanceTtlMs ?? DEFAULT_BALANCE_TTL_MS);
  }

  async supported(): Promise<SupportedResponse> {
    return {
      kinds: [{ x402Version: 2, scheme: 'exact', network: this.options.network.caip2 }],
      extensions: [],
      signers: { 'eip155:*': [...this.options.signers] },
    };
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    const checked = this.checkTerms(payload, requirements);
    if ('isValid' in checked) return checked;
    const { domain, authorization: { authorization } } = checked;
    const payer = authorization.from;

    const signatureCheck = await this.checkSignature(domain, checked.authorization);
    if (signatureCheck) return { ...signatureCheck, payer };

    // No chain read per call: the balance view (read at most every few seconds per payer, net of
    // what is in flight here). The nonce's state on chain is not read either: toolgate's own uses
    // are in the ledger, and one used elsewhere is refused by the settlement's simulation, before
    // anything moves (the result is then withheld, nothing charged).
    const view = await this.balances.admit(payer, authorization.value, () =>
      this.publicClient.readContract({ address: domain.verifyingContract, abi: eip3009ABI, functionName: 'balanceOf', args: [payer] }),
    );
    if (!view.admitted) {
      return invalid('invalid_exact_evm_insufficient_balance', `payer holds ${view.balance} atomic USDC not already committed to calls in flight, the price is ${authorization.value}`, payer);
    }
    return { isValid: true, payer };
  }

  paymentFinished(payer: string, value: bigint, moved: boolean): void {
    this.balances.finish(payer, value, moved);
  }

  authorizationUsed(payer: Address, nonce: Hex): Promise<boolean> {
    return this.publicClient.readContract({ address: this.options.network.usdc.address, abi: eip3009ABI, functionName: 'authorizationState', args: [payer, nonce] });
  }

  /** Everything that needs no signature recovery and no chain: cheap checks first. */
  private checkTerms(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): Invalid | { domain: Eip712Domain; authorization: Eip3009Payload } {
    const network = this.options.network;
    if (payload.x402Version !== 2) return invalid('invalid_x402_version', `x402Version ${String(payload.x402Version)} is not supported; use 2`);
    if (requirements.scheme !== 'exact' || payload.accepted.scheme !== 'exact') return invalid('invalid_exact_evm_scheme', 'only the "exact" scheme is accepted');
    if (requirements.network !== network.caip2 || payload.accepted.network !== requirements.network) {
      return invalid('invalid_exact_evm_network_mismatch', `this gateway takes payment on ${network.caip2}`);
    }
    if (!isAddressEqual(requirements.asset as Address, network.usdc.address)) {
      return invalid('invalid_payment_requirements', `asset ${requirements.asset} is not USDC on ${network.caip2}`);
    }
    const name = requirements.extra?.name;
    const version = requirements.extra?.version;
    if (typeof name !== 'string' || typeof version !== 'string') {
      return invalid('invalid_exact_evm_missing_eip712_domain', 'requirements.extra must carry the EIP-712 name and version');
    }
    const parsed = parseEip3009Payload(payload.payload);
    if (!parsed.ok) return invalid('invalid_payload', parsed.message);
    const { authorization } = parsed.value;
    const payer = authorization.from;
    if (!isAddressEqual(authorization.to, requirements.payTo as Address)) {
      return invalid('invalid_exact_evm_recipient_mismatch', `authorization.to must be ${requirements.payTo}`, payer);
    }
    if (authorization.value !== BigInt(requirements.amount)) {
      return invalid(
        'invalid_exact_evm_payload_authorization_value_mismatch',
        `authorization.value is ${authorization.value}, the price is exactly ${requirements.amount} atomic units`,
        payer,
      );
    }
    const now = this.nowSeconds();
    if (authorization.validBefore < now + VALID_BEFORE_BUFFER_SECONDS) {
      return invalid(
        'invalid_exact_evm_payload_authorization_valid_before',
        `the authorization expires at ${authorization.validBefore} (unix seconds), too soon to settle; sign a new one`,
        payer,
      );
    }
    if (authorization.validAfter > now) {
      return invalid('invalid_exact_evm_payload_authorization_valid_after', `the authorization is not valid before ${authorization.validAfter} (unix seconds)`, payer);
    }
    return {
      domain: { name, version, chainId: network.chainId, verifyingContract: getAddress(requirements.asset) },
      authorization: parsed.value,
    };
  }

  private async checkSignature(domain: Eip712Domain, { authorization, signature }: Eip3009Payload): Promise<Invalid | undefined> {
    if (size(signature) === 65) {
      const recovered = await recoverAuthorizationSigner(domain, authorization, signature);
      if (!recovered.ok) {
        const why = { high_s: 'its s value is in the upper half of the curve order (EIP-2); USDC rejects it', bad_v: 'its v is not 27 or 28', unrecoverable: 'it does not recover to any address' }[recovered.reason];
        return invalid('invalid_exact_evm_signature', `the signature is not acceptable: ${why}`);
      }
      if (!isAddressEqual(recovered.signer, authorization.from)) {
        return invalid('invalid_exact_evm_signature', 'the signature was not made by authorization.from over this USDC domain and these terms');
      }
      return undefined;
    }
    // Smart-contract wallets (ERC-1271, ERC-6492): the chain decides.
    const valid = await this.publicClient
      .verifyHash({ address: authorization.from, hash: authorizationDigest(domain, authorization), signature })
      .catch(() => false);
    return valid ? undefined : invalid('invalid_exact_evm_signature', 'the contract wallet did not accept the signature');
  }
}
