// Payment-channel calls (x402 batch-settlement) as rows of the payment ledger. A call's row is
// written inside the very transaction that records its voucher's charge in the channel's record:
// SqlChannelStorage calls `observe` within `updateChannel`. So a row exists exactly when a charge
// does, and a row that cannot be written rolls the charge back: settlePayment fails, the result is
// withheld and nothing is charged. The rows then follow the channel:
//   received  the voucher is charged: owed to us, on no chain yet
//   claimed   the channel's claimed total reached it (a confirmed claim, or a refund that claimed first)
//   settled   a settle confirmed after that claim moved it to payTo: collected
// A collector pass holds its claims back from the rows and writes each row once, `settled` when its
// settle confirms, `claimed` when it does not (held-claims.ts). A deposit's row is `deposited`: the
// payer's money held in the channel, not revenue.
import type { SettleResponse } from '@x402/core/types';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { claimBehind, HeldClaims, markClaimed } from './held-claims.ts';
import { SETTLE_CHUNK, settleInChunks } from './settle-in-chunks.ts';
import type { SqlClient, SqlQueries } from './sql-client.ts';

export const CHANNEL_SCHEME = 'batch-settlement';

/** A call's charge, as the scheme expects the channel's record to take it. */
export interface ExpectedCharge {
  channelId: string;
  /** The channel's charged total with this call: its voucher's maxClaimableAmount. */
  cumulative: bigint;
  tool: string;
  payer: string;
  network: string;
  resource: string;
  /** The call's price, atomic USDC. */
  amount: bigint;
  /** The tool's result as JSON, kept for a retry carrying a payment-identifier. */
  result?: string;
  /** The row that an attempt carrying a payment-identifier locked at admission. */
  paymentId?: number;
  /** The payment is a deposit of this many atomic USDC, and this call's first voucher. */
  deposit?: bigint;
  instance?: string;
}

export interface RecordedCharge {
  callId: number;
  depositId?: number;
}

/** What a claim, settle or refund transaction (or a deposit our key sent) cost. */
export interface CollectionTransaction {
  /** `amount`: deposited, claimed, settled, or for a refund what went back to the payer. */
  step: 'deposit' | 'claim' | 'settle' | 'refund';
  hash: string;
  amount: bigint;
  gas: bigint;
  feeWei: bigint;
}

interface Expectation {
  charge: ExpectedCharge;
  recorded?: RecordedCharge;
}

const expectationKey = (channelId: string, cumulative: bigint | string) => `${channelId.toLowerCase()}:${cumulative.toString()}`;

export class ChannelPayments {
  /** Charges the scheme is committing now, by channel and cumulative amount (one request per channel at a time). */
  private readonly expected = new Map<string, Expectation>();
  /** A collector pass's claims, held back from the rows while it runs (held-claims.ts). */
  private held: HeldClaims | undefined;

  constructor(private readonly db: SqlClient) {}

  /**
   * Announces a charge about to be committed; `recorded()` says which rows its transaction wrote
   * (undefined: none, the charge did not happen here). Call `done()` whatever happened.
   */
  expect(charge: ExpectedCharge): { recorded(): RecordedCharge | undefined; done(): void } {
    const key = expectationKey(charge.channelId, charge.cumulative);
    const expectation: Expectation = { charge };
    this.expected.set(key, expectation);
    return {
      recorded: () => expectation.recorded,
      done: () => {
        if (this.expected.get(key) === expectation) this.expected.delete(key);
      },
    };
  }

  /** Inside `updateChannel`'s transaction: a charge becomes a row, a claimed total claims the rows it covers. */
  async observe(tx: SqlQueries, before: Channel | undefined, after: Channel | undefined): Promise<void> {
    if (!after) {
      // The SDK deletes a record only after a refund, which claims what was charged first.
      if (before) await markClaimed(tx, before.channelId, BigInt(before.chargedCumulativeAmount));
      return;
    }
    const charged = BigInt(after.chargedCumulativeAmount);
    if (charged > BigInt(before?.chargedCumulativeAmount ?? 0)) {
      const expectation = this.expected.get(expectationKey(after.channelId, charged));
      if (expectation) expectation.recorded = await recordCharge(tx, expectation.charge, before ?? after, after);
    }
    if (BigInt(after.totalClaimed) > BigInt(before?.totalClaimed ?? 0)) {
      if (this.held) this.held.hold(after.channelId, BigInt(after.totalClaimed));
      else await markClaimed(tx, after.channelId, BigInt(after.totalClaimed));
    }
  }

  /**
   * For one collector pass: claims confirmed until `release` leave their rows `received`, and each
   * row changes state once, when the pass knows whether its settle confirmed (held-claims.ts).
   * Undefined when a hold is already open: that pass's hold takes the claims.
   */
  holdClaims(): HeldClaims | undefined {
    if (this.held) return undefined;
    const held = new HeldClaims(this.db, () => {
      if (this.held === held) this.held = undefined;
    });
    this.held = held;
    return held;
  }

  /** Rows a pass that died holding claims left behind their channel's claimed total: claimed (held-claims.ts). */
  claimBehind(network: string): Promise<number> {
    return claimBehind(this.db, network);
  }

  /**
   * Inside a group commit's transaction (SqlChannelStorage's chargeObserver): the vouchers it
   * charged become rows, the plain calls' in one statement; a call with a payment-identifier or a
   * deposit, as `observe` writes it. Throws if a row cannot be written: the group rolls back.
   */
  async observeCharges(tx: SqlQueries, charged: readonly { before: Channel; after: Channel }[]): Promise<void> {
    const plain: Expectation[] = [];
    for (const { before, after } of charged) {
      const expectation = this.expected.get(expectationKey(after.channelId, after.chargedCumulativeAmount));
      if (!expectation) continue;
      const { charge } = expectation;
      if (charge.paymentId !== undefined || charge.result !== undefined || charge.deposit !== undefined) {
        expectation.recorded = await recordCharge(tx, charge, before, after);
      } else {
        plain.push(expectation);
      }
    }
    if (plain.length === 0) return;
    const ids = await insertCallRows(tx, plain.map((e) => ({ charge: e.charge })));
    for (const expectation of plain) {
      const callId = ids.get(callNonce(expectation.charge));
      if (callId === undefined) throw new Error(`channel ${expectation.charge.channelId} at ${expectation.charge.cumulative} already has a ledger row; the charge is not recorded`);
      expectation.recorded = { callId };
    }
  }

  /** After a deposit went through: its transaction on both rows, and the PAYMENT-RESPONSE as given where one is kept for a retry. */
  async completeDeposit(recorded: RecordedCharge, settlement: SettleResponse): Promise<void> {
    await this.db.query(
      `UPDATE payments SET tx_hash = $3, updated_at = now(),
              payment_response = CASE WHEN id = $1 AND payment_response IS NOT NULL THEN $4 ELSE payment_response END
        WHERE id = $1 OR id = $2`,
      [recorded.callId, recorded.depositId ?? null, settlement.transaction, JSON.stringify(settlement)],
    );
  }

  /** The store's clock, read just before a settle is sent: rows are claimed by the store's clock too (instances' clocks may drift). */
  async clock(): Promise<string> {
    const { rows } = await this.db.query<{ now: string }>('SELECT clock_timestamp()::text AS now');
    return rows[0]!.now;
  }

  /**
   * A settle sent at `sentAt` (the store's `clock()`) confirmed: it moved everything claimed before
   * it to payTo, so the rows claimed by then are collected. Claims and settles are sent under the
   * claim-sender lock, one instance at a time. Returns how many rows, settled in chunks of `chunk`
   * (settle-in-chunks.ts).
   */
  settled(network: string, sentAt: Date | string, chunk = SETTLE_CHUNK): Promise<number> {
    const before = typeof sentAt === 'string' ? sentAt : sentAt.toISOString();
    return settleInChunks(this.db, `SELECT id FROM payments WHERE network = $1 AND state = 'claimed' AND claimed_at <= $2 LIMIT $3`, [network, before], chunk);
  }

  /** What collecting cost: each transaction once (a hash seen again is ignored). */
  async recordCollection(network: string, transactions: readonly CollectionTransaction[]): Promise<void> {
    if (transactions.length === 0) return;
    const column = <T>(pick: (t: CollectionTransaction) => T) => transactions.map(pick);
    await this.db.query(
      `INSERT INTO channel_collections (tx_hash, network, step, amount, gas_used, fee_wei)
       SELECT hash, $1, step, amount, gas, fee FROM unnest($2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::numeric[])
         AS t(hash, step, amount, gas, fee)
       ON CONFLICT (tx_hash) DO NOTHING`,
      [network, column((t) => t.hash.toLowerCase()), column((t) => t.step), column((t) => t.amount.toString()), column((t) => t.gas.toString()), column((t) => t.feeWei.toString())],
    );
  }

  /** Channel calls still `running` long after any tool could have finished (a release that failed): released. */
  releaseAbandoned(before: Date): Promise<number> {
    return releaseAbandoned(this.db, before);
  }

  /**
   * At start: channel calls a crashed run left `running` are released. A charge turns its row
   * `received` in its own transaction, so a row still running was never charged. On a shared
   * store, only this instance's and those of instances not seen alive.
   */
  async releaseOrphaned(scope: { instance: string; live?: ReadonlySet<string> }): Promise<number> {
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE payments SET state = 'released', released_at = now(), updated_at = now(),
              error = 'the gateway stopped during the call; nothing was charged'
        WHERE scheme = '${CHANNEL_SCHEME}' AND state = 'running'
          AND ($1::boolean OR instance IS NULL OR instance = $2 OR NOT (instance = ANY($3::text[])))
        RETURNING id`,
      [scope.live === undefined, scope.instance, [...(scope.live ?? [])]],
    );
    return rows.length;
  }
}

async function releaseAbandoned(db: SqlQueries, before: Date): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE payments SET state = 'released', released_at = now(), updated_at = now(), error = 'abandoned; nothing was charged'
      WHERE scheme = '${CHANNEL_SCHEME}' AND state = 'running' AND updated_at < $1
      RETURNING id`,
    [before.toISOString()],
  );
  return rows.length;
}

/**
 * The PAYMENT-RESPONSE the SDK answers a charged voucher with (its handleBeforeSettle's skip result,
 * channelStateExtra): the channel as it was, with the charged total it now has.
 */
export function voucherSettleResponse({ before, after, payer, network, amount }: { before: Channel; after: Channel; payer: string; network: string; amount: bigint | string }): SettleResponse {
  return {
    success: true, payer: payer.toLowerCase(), transaction: '', network: network as SettleResponse['network'], amount: '',
    extra: {
      channelState: {
        channelId: before.channelId, balance: before.balance, totalClaimed: before.totalClaimed,
        withdrawRequestedAt: before.withdrawRequestedAt, refundNonce: String(before.refundNonce), chargedCumulativeAmount: after.chargedCumulativeAmount,
      },
      chargedAmount: amount.toString(),
    },
  };
}

const callNonce = (charge: ExpectedCharge) => `${charge.channelId.toLowerCase()}:${charge.cumulative}`;

/**
 * Calls' rows, `received`, in one statement; a row an earlier attempt with the same voucher released
 * (its tool failed) is taken over. Returns the row ids by nonce: a call missing from it already has a
 * row that was not released.
 */
async function insertCallRows(tx: SqlQueries, calls: readonly { charge: ExpectedCharge; result?: string | undefined; response?: string | undefined }[]): Promise<Map<string, number>> {
  const column = <T>(pick: (call: (typeof calls)[number]) => T) => calls.map(pick);
  const { rows } = await tx.query<{ id: string | number; nonce: string }>(
    `INSERT INTO payments (payer, nonce, tool, amount, network, resource, state, scheme, channel_id, channel_cumulative,
                           result, payment_response, instance, received_at)
     SELECT payer, nonce, tool, amount, network, resource, 'received', '${CHANNEL_SCHEME}', channel_id, cumulative, result, response, instance, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::text[], $10::text[], $11::text[])
         AS v(payer, nonce, tool, amount, network, resource, channel_id, cumulative, result, response, instance)
     ON CONFLICT ON CONSTRAINT payments_payer_nonce DO UPDATE SET
       state = 'received', tool = EXCLUDED.tool, amount = EXCLUDED.amount, resource = EXCLUDED.resource, result = EXCLUDED.result,
       payment_response = EXCLUDED.payment_response, instance = EXCLUDED.instance, received_at = now(), updated_at = now(),
       attempts = payments.attempts + 1, error = NULL
       WHERE payments.state = 'released'
     RETURNING id, nonce`,
    [column((c) => c.charge.payer.toLowerCase()), column((c) => callNonce(c.charge)), column((c) => c.charge.tool), column((c) => c.charge.amount.toString()),
      column((c) => c.charge.network), column((c) => c.charge.resource), column((c) => c.charge.channelId.toLowerCase()), column((c) => c.charge.cumulative.toString()),
      column((c) => c.result ?? null), column((c) => c.response ?? null), column((c) => c.charge.instance ?? null)],
    // An insert: its conflicts are found through the unique index whatever the values.
    { prepared: true },
  );
  return new Map(rows.map((row) => [row.nonce, Number(row.id)]));
}

async function recordCharge(tx: SqlQueries, charge: ExpectedCharge, before: Channel, after: Channel): Promise<RecordedCharge> {
  const channelId = after.channelId.toLowerCase();
  const payer = charge.payer.toLowerCase();
  // Kept for a retry (keyed calls only): the client advances its charged total by it. A deposit's is replaced by the real one after.
  const keyed = charge.paymentId !== undefined || charge.result !== undefined;
  const response = voucherSettleResponse({ before, after, payer, network: charge.network, amount: charge.amount });
  let callId: number;
  if (charge.paymentId !== undefined) {
    const { rows } = await tx.query<{ id: string | number }>(
      `UPDATE payments SET state = 'received', received_at = now(), updated_at = now(), result = $2, payment_response = $3
        WHERE id = $1 AND state = 'running' RETURNING id`,
      [charge.paymentId, charge.result ?? null, keyed ? JSON.stringify(response) : null],
    );
    if (!rows[0]) throw new Error(`ledger row ${charge.paymentId} of this call is no longer running; the charge is not recorded`);
    callId = charge.paymentId;
  } else {
    const id = (await insertCallRows(tx, [{ charge, result: charge.result, response: keyed ? JSON.stringify(response) : undefined }])).get(callNonce(charge));
    if (id === undefined) throw new Error(`channel ${channelId} at ${charge.cumulative} already has a ledger row; the charge is not recorded`);
    callId = id;
  }
  if (charge.deposit === undefined) return { callId };
  const { rows } = await tx.query<{ id: string | number }>(
    `INSERT INTO payments (payer, nonce, tool, amount, network, resource, state, scheme, channel_id, channel_cumulative, instance, deposited_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'deposited', '${CHANNEL_SCHEME}', $7, $8, $9, now())
     RETURNING id`,
    [payer, `deposit:${channelId}:${charge.cumulative}`, charge.tool, charge.deposit.toString(), charge.network, charge.resource,
      channelId, charge.cumulative.toString(), charge.instance ?? null],
  );
  return { callId, depositId: Number(rows[0]!.id) };
}
