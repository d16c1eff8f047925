// What a CSV field means, and how a JSON value is written as one: the conventions that make
// JSON -> CSV -> JSON lossless. docs/tools/transform.md states them for callers.
//
// Reading a field (its text, and whether it was in quotes):
//   1. text starting with { or [ that parses as a JSON object or array -> that object or array
//   2. a JSON string literal of text that rule 1 (or 2) would misread   -> that string ("[1,2]" in quotes -> the text [1,2])
//   3. any other quoted field                                          -> its text, as a string ("" is the empty string)
//   4. unquoted empty field                                            -> no value: the key is absent from the record
//   5. unquoted null, true, false                                      -> null, true, false
//   6. unquoted number written as JavaScript writes it (42, -1.5, 1e+21) -> that number
//   7. any other unquoted field                                        -> its text, as a string (007, 1.50, abc)
// Writing is the inverse: a string that rule 1 would misread is written as a JSON string literal
// (rule 2); one that rules 4-6 would is quoted; numbers are written as JavaScript writes them, so
// that each reads back as itself. Rule 2 is that narrow so that a foreign cell holding a quoted
// word ("The Godfather", quotes included) keeps its quotes.
import type { CsvField } from './csv-rfc4180.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Deepest nesting of arrays and objects accepted inside one value. */
export const MAX_NESTING_DEPTH = 64;

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** True when `text` is a number exactly as JavaScript (and JSON.stringify) writes it: nothing is lost reading it. */
export function isCanonicalNumber(text: string): boolean {
  return jsonNumber.test(text) && String(Number(text)) === text;
}

export class CellValueError extends Error {}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * True when the string `text`, written as it is, would be read as something else by rule 1 or 2:
 * it is JSON object or array text, or a JSON string literal of such a string, and so on. Each
 * level of literal roughly doubles the escapes, so the loop runs about log2(length) times at most.
 */
export function needsStringLiteral(text: string): boolean {
  let current = text;
  for (;;) {
    const first = current.charCodeAt(0);
    if (first === 0x7b /* { */ || first === 0x5b /* [ */) {
      const parsed = parseJsonOrUndefined(current);
      return typeof parsed === 'object' && parsed !== null;
    }
    if (first !== 0x22 /* " */) return false;
    const parsed = parseJsonOrUndefined(current);
    if (typeof parsed !== 'string') return false;
    current = parsed;
  }
}

/** Returns the field's value, or undefined when the field is an absent value (rule 4). */
export function readCell(field: CsvField): JsonValue | undefined {
  const { text, quoted } = field;
  const first = text.charCodeAt(0);
  if (first === 0x7b /* { */ || first === 0x5b /* [ */) {
    const parsed = parseJsonOrUndefined(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const problem = jsonValueProblem(parsed);
      if (problem) throw new CellValueError(problem);
      return parsed as JsonValue;
    }
  } else if (first === 0x22 /* " */) {
    const parsed = parseJsonOrUndefined(text);
    if (typeof parsed === 'string' && needsStringLiteral(parsed)) return parsed;
  }
  if (quoted) return text;
  if (text === '') return undefined;
  if (text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (isCanonicalNumber(text)) return Number(text);
  return text;
}

/** The field that reads back (with readCell) as `value`. `value` must be a JSON value (see jsonValueProblem). */
export function writeCell(value: JsonValue): CsvField {
  if (value === null) return { text: 'null', quoted: false };
  switch (typeof value) {
    case 'boolean':
      return { text: String(value), quoted: false };
    case 'number':
      // -0 is written as 0, as JSON.stringify writes it.
      return { text: String(value), quoted: false };
    case 'string':
      if (value === '') return { text: '', quoted: true };
      if (needsStringLiteral(value)) return { text: JSON.stringify(value), quoted: true };
      return { text: value, quoted: !readsBackAsItself(value) };
    default:
      return { text: JSON.stringify(value), quoted: false };
  }
}

/** Whether `text`, which needs no string literal, reads back as itself unquoted (rules 4-7). */
function readsBackAsItself(text: string): boolean {
  return readCell({ text, quoted: false }) === text;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) return `a ${value.constructor?.name ?? 'non-plain'} object`;
  return `a ${typeof value}`;
}

/**
 * Why `value` is not a JSON value this tool can carry, or undefined when it is: plain objects,
 * arrays, strings, booleans, null and finite numbers, nested at most MAX_NESTING_DEPTH deep.
 * (Values parsed from JSON text are always JSON; depth is what can still go wrong.)
 */
export function jsonValueProblem(value: unknown, depth = 0): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
  if (typeof value !== 'object') return `${describe(value)} is not a JSON value`;
  if (depth >= MAX_NESTING_DEPTH) return `nested more than ${MAX_NESTING_DEPTH} levels deep`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonValueProblem(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return `${describe(value)} is not a JSON value`;
  for (const item of Object.values(value)) {
    const problem = jsonValueProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
