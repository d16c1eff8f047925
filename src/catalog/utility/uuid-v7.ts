// UUIDv7 (RFC 9562 §5.7): 48-bit Unix-millisecond timestamp, version 7, variant 10, and 74 bits
// that are random for the first id of a millisecond. Within one millisecond (or a small clock step
// backwards) the 74 bits grow by a random amount instead (RFC 9562 §6.2, "monotonic random"), so
// ids from one generator sort in the order they were made while staying unguessable.
// Written here rather than taken from the `uuid` package because that one reads Date.now() itself,
// and the gateway's clock comes from the tool context.
import { randomBytes } from 'node:crypto';

const MAX_TIMESTAMP_MS = 2 ** 48 - 1;
const TAIL_BITS = 74n; // rand_a (12 bits) + rand_b (62 bits)
const TAIL_LIMIT = 1n << TAIL_BITS;
/** A fresh millisecond starts in the lower half of the tail space, leaving room to count up. */
const FRESH_TAIL_BITS = 73;
const INCREMENT_BITS = 32;
/**
 * A clock that steps back by more than this is believed (the ids restart from its time) rather than
 * overridden: stamping every id far ahead of the real time would be worse than one break in order.
 */
const MAX_TOLERATED_CLOCK_STEP_BACK_MS = 10_000;

export interface UuidV7 {
  uuid: string;
  /** The millisecond stamped into the id (equal to the clock, or a little ahead of it). */
  timestampMs: number;
}

export type UuidV7Generator = (nowMs: number) => UuidV7;

export function randomBits(bits: number): bigint {
  const bytes = randomBytes(Math.ceil(bits / 8));
  return BigInt(`0x${bytes.toString('hex')}`) & ((1n << BigInt(bits)) - 1n);
}

export function createUuidV7Generator(random: (bits: number) => bigint = randomBits): UuidV7Generator {
  let lastMs = -Infinity;
  let lastTail = 0n;
  return (nowMs) => {
    if (!Number.isSafeInteger(nowMs) || nowMs < 0 || nowMs > MAX_TIMESTAMP_MS) {
      throw new RangeError(`UUIDv7 needs a clock between 1970 and year 10889; got ${nowMs} ms`);
    }
    let ms = nowMs;
    let tail: bigint;
    const clockDidNotAdvance = nowMs <= lastMs && lastMs - nowMs <= MAX_TOLERATED_CLOCK_STEP_BACK_MS;
    if (clockDidNotAdvance) {
      ms = lastMs;
      tail = lastTail + 1n + random(INCREMENT_BITS);
      if (tail >= TAIL_LIMIT) {
        ms = lastMs + 1;
        tail = random(FRESH_TAIL_BITS);
      }
    } else {
      tail = random(FRESH_TAIL_BITS);
    }
    lastMs = ms;
    lastTail = tail;
    return { uuid: formatUuidV7(ms, tail), timestampMs: ms };
  };
}

function formatUuidV7(ms: number, tail: bigint): string {
  const randA = tail >> 62n;
  const randB = tail & ((1n << 62n) - 1n);
  const value = (BigInt(ms) << 80n) | (0x7n << 76n) | (randA << 64n) | (0b10n << 62n) | randB;
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
