// Maps FiatToken's revert strings to x402 error reasons.
import { BaseError, ContractFunctionRevertedError } from 'viem';

const reasons: readonly [RegExp, string][] = [
  [/exceeds balance/i, 'insufficient_funds'],
  [/authorization is used or canceled/i, 'invalid_exact_evm_nonce_already_used'],
  [/authorization is expired/i, 'invalid_exact_evm_payload_authorization_valid_before'],
  [/authorization is not yet valid/i, 'invalid_exact_evm_payload_authorization_valid_after'],
  [/invalid signature/i, 'invalid_exact_evm_signature'],
  [/blacklisted/i, 'invalid_exact_evm_transaction_simulation_failed'],
  [/paused/i, 'invalid_exact_evm_transaction_simulation_failed'],
];

export function revertMessage(error: unknown): string {
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
    return error.shortMessage;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The x402 error reason of a revert message. */
export function reasonOfRevert(message: string): string {
  return reasons.find(([pattern]) => pattern.test(message))?.[1] ?? 'invalid_exact_evm_transaction_simulation_failed';
}

export function settleErrorReason(error: unknown): { reason: string; message: string } {
  const message = revertMessage(error);
  return { reason: reasonOfRevert(message), message };
}
