// The batch-settlement scheme's reason codes the gateway answers or reads (`@x402/evm`'s
// batch-settlement errors, which its type declarations do not export), written once.
export const CHANNEL_BUSY = 'invalid_batch_settlement_evm_channel_busy';
export const CUMULATIVE_AMOUNT_MISMATCH = 'invalid_batch_settlement_evm_cumulative_amount_mismatch';
export const CUMULATIVE_BELOW_CLAIMED = 'invalid_batch_settlement_evm_cumulative_below_claimed';
export const CUMULATIVE_EXCEEDS_BALANCE = 'invalid_batch_settlement_evm_cumulative_exceeds_balance';
export const INVALID_VOUCHER_SIGNATURE = 'invalid_batch_settlement_evm_voucher_signature';
export const REFUND_NO_BALANCE = 'invalid_batch_settlement_evm_refund_no_balance';
export const REFUND_AMOUNT_INVALID = 'invalid_batch_settlement_evm_refund_amount_invalid';
