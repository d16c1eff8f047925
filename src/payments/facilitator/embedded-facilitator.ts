// The embedded facilitator: verifies EIP-3009 authorizations locally (recipient, exact amount, time
// window, an ECDSA signature with low-s, then the payer's balance through a cached view; a contract
// wallet's signature last, by the chain). What it asks of the node for requests that have not shown
// they can pay is bounded (chain-read-budget.ts). Settling is the settlement engine's
// (src/payments/settlement/).
import { eip3009ABI } from '@x402/evm';
import { createPublicClient, encodeFunctionData, getAddress, http, isAddressEqual, isErc6492Signature, parseErc6492Signature, size, slice } from 'viem';
import type { PaymentPayload, PaymentRequirements, SupportedResponse, VerifyResponse } from '@x402/core/types';
import type { Address, Hex, PublicClient } from 'viem';
import { viemChain } from '../../chain/viem-chain.ts';
import { parseEip3009Payload } from '../exact-evm-payload.ts';
import type { Eip3009Payload } from '../exact-evm-payload.ts';
import type { PaymentNetwork } from '../networks.ts';
import { ChainReadBudget } from './chain-read-budget.ts';
import type { Facilitator, VerifyContext } from './facilitator.ts';
import { FreshPaymentState } from './fresh-payment-state.ts';
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
  /** Multicall3's address: fresh checks of several payments share one eth_call. */
  multicall3: Address;
  /** Chain reads for callers not yet known to hold funds; defaults in DEFAULT_READ_BUDGET. */
  readBudget?: ConstructorParameters<typeof ChainReadBudget>[0];
}

/** Per client address and for the whole instance (docs/payments.md). */
export const DEFAULT_READ_BUDGET = { perClient: { burst: 20, perSecond: 5 }, total: { burst: 200, perSecond: 50 } };

/** The most gas a contract wallet's isValidSignature may use when we ask it (eth_call). */
export const CONTRACT_SIGNATURE_GAS = 500_000n;

/** ERC-1271's answer for a valid signature: bytes4(keccak256("isValidSignature(bytes32,bytes)")). */
const ERC1271_MAGIC = '0x1626ba7e';
const erc1271Abi = [{
  type: 'function', name: 'isValidSignature', stateMutability: 'view',
  inputs: [{ name: 'hash', type: 'bytes32' }, { name: 'signature', type: 'bytes' }], outputs: [{ name: '', type: 'bytes4' }],
}] as const;

class ReadRefused extends Error {}

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
  private readonly budget: ChainReadBudget;
  private readonly fresh: FreshPaymentState;
  /** Addresses seen to hold code (contract wallets, EIP-7702 delegations): a fact that rarely changes back. */
  private readonly withCode = new Set<string>();

  constructor(private readonly options: EmbeddedFacilitatorOptions) {
    const chain = viemChain(options.network, options.rpcUrl);
    this.publicClient = createPublicClient({ chain, transport: http(options.rpcUrl, { retryCount: 0 }) });
    this.nowSeconds = options.nowSeconds ?? (() => BigInt(Math.floor(Date.now() / 1000)));
    this.balances = new PayerBalances(options.balanceTtlMs ?? DEFAULT_BALANCE_TTL_MS);
    this.budget = new ChainReadBudget(options.readBudget ?? DEFAULT_READ_BUDGET);
    this.fresh = new FreshPaymentState(this.publicClient, options.network.usdc.address, options.multicall3);
  }

  async supported(): Promise<SupportedResponse> {
    return {
      kinds: [{ x402Version: 2, scheme: 'exact', network: this.options.network.caip2 }],
      extensions: [],
      signers: { 'eip155:*': [...this.options.signers] },
    };
  }

  async verify(payload: PaymentPayload, requirements: PaymentRequirements, context?: VerifyContext): Promise<VerifyResponse> {
    const checked = this.checkTerms(payload, requirements);
    if ('isValid' in checked) return checked;
    const { domain, authorization: { authorization, signature } } = checked;
    const payer = authorization.from;
    const client = context?.client ?? 'unknown';

    // Cheap checks first: an ECDSA signature is recovered here; a contract wallet's waits until the
    // payer is known to hold the price, since asking the chain costs us.
    const contract = size(signature) !== 65;
    if (!contract) {
      const signatureCheck = await this.checkSignature(domain, checked.authorization);
      if (signatureCheck) return { ...signatureCheck, payer };
    }

    // No chain read per call: the balance view (read at most every few seconds per payer, net of
    // what is in flight here). The nonce's state is read only where checkOnChainNow is asked for
    // (tools that cost us real work, payers on probation); elsewhere toolgate's own uses are in the
    // ledger, and one used elsewhere is refused by the settlement's simulation, before anything moves.
    let view: Awaited<ReturnType<PayerBalances['admit']>>;
    let read = false;
    try {
      view = await this.balances.admit(payer, authorization.value, () => {
        if (!this.budget.allows(client)) throw new ReadRefused();
        read = true;
        return this.publicClient.readContract({ address: domain.verifyingContract, abi: eip3009ABI, functionName: 'balanceOf', args: [payer] });
      });
    } catch (error) {
      if (error instanceof ReadRefused) return busy(payer);
      throw error;
    }
    if (read && !view.admitted) this.budget.charge(client);
    if (!view.admitted) {
      return invalid('invalid_exact_evm_insufficient_balance', `payer holds ${view.balance} atomic USDC not already committed to calls in flight, the price is ${authorization.value}`, payer);
    }
    if (contract) {
      let verdict: Invalid | undefined;
      try {
        verdict = await this.checkContractSignature(domain, checked.authorization, client);
      } catch (error) {
        this.balances.finish(payer, authorization.value, false);
        throw error;
      }
      if (verdict) {
        this.balances.finish(payer, authorization.value, false);
        return { ...verdict, payer };
      }
    }
    return { isValid: true, payer };
  }

  async checkOnChainNow({ authorization }: Eip3009Payload): Promise<{ reason: string; message: string } | undefined> {
    const state = await this.fresh.read(authorization.from, authorization.nonce);
    this.balances.observe(authorization.from, state.balance);
    if (state.nonceUsed) {
      return { reason: 'invalid_exact_evm_nonce_already_used', message: 'this authorization is already used or cancelled on chain; sign a new one' };
    }
    // The view's in-flight sum includes this payment.
    const committed = this.balances.inFlight(authorization.from);
    const needed = committed > authorization.value ? committed : authorization.value;
    if (state.balance < needed) {
      return { reason: 'invalid_exact_evm_insufficient_balance', message: `payer holds ${state.balance} atomic USDC on chain, calls in flight need ${needed}` };
    }
    return undefined;
  }

  payerRefused(payer: string): void {
    this.balances.forget(payer);
  }

  paymentFinished(payer: string, value: bigint, moved: boolean): void {
    this.balances.finish(payer, value, moved);
  }

  async authorizationUsed(payer: Address, nonce: Hex): Promise<boolean> {
    return (await this.fresh.read(payer, nonce)).nonceUsed;
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
    return invalid('invalid_exact_evm_signature', 'a signature that is not 65 bytes long needs a contract wallet');
  }

  /**
   * A contract wallet (ERC-1271) decides by its code: asked with one eth_call, capped in gas. An
   * ERC-6492 signature is taken only from a wallet already deployed (its inner signature is what USDC
   * will be given): deploying wallets through their factories is not something we run for callers.
   */
  private async checkContractSignature(domain: Eip712Domain, { authorization, signature }: Eip3009Payload, client: string): Promise<Invalid | undefined> {
    const payer = authorization.from;
    if (!this.budget.allows(client)) return busy(payer);
    const deployed = await this.hasCode(payer);
    const wrapped = isErc6492Signature(signature);
    if (!deployed) {
      this.budget.charge(client);
      return wrapped
        ? invalid('invalid_exact_evm_payload_undeployed_smart_wallet', `the wallet ${payer} is not deployed yet; this gateway does not deploy wallets: deploy it (any transaction from it does), then pay`, payer)
        : invalid('invalid_exact_evm_signature', `${payer} holds no contract code, so a signature that is not 65 bytes cannot be its`, payer);
    }
    const inner = wrapped ? parseErc6492Signature(signature).signature : signature;
    const data = encodeFunctionData({ abi: erc1271Abi, functionName: 'isValidSignature', args: [authorizationDigest(domain, authorization), inner] });
    const answer = await this.publicClient
      .call({ to: payer, data, gas: CONTRACT_SIGNATURE_GAS })
      .then(({ data: returned }) => (returned && size(returned) >= 4 ? slice(returned, 0, 4) : undefined))
      .catch(() => undefined);
    if (answer?.toLowerCase() === ERC1271_MAGIC) return undefined;
    this.budget.charge(client);
    return invalid('invalid_exact_evm_signature', 'the contract wallet did not accept the signature', payer);
  }

  private async hasCode(address: Address): Promise<boolean> {
    const key = address.toLowerCase();
    if (this.withCode.has(key)) return true;
    const code = await this.publicClient.getCode({ address });
    const deployed = code !== undefined && code !== '0x';
    if (deployed && this.withCode.size < 100_000) this.withCode.add(key);
    return deployed;
  }
}

function busy(payer: string): Invalid {
  return invalid(
    'verification_busy',
    'too many payments needing a chain read came from your address or from everyone just now; retry in a second',
    payer,
  );
}
