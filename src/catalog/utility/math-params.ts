// Reads calculate_math's `params` for each type: which keys it takes, their ranges and defaults.
// Numbers may be JSON numbers or decimal strings; strings keep every digit ("0.1" is exactly 0.1).
import { Decimal } from './math-decimal.ts';

export interface ParamIssue {
  /** The key inside params, or undefined for params as a whole. */
  key?: string;
  message: string;
}

export type Read<T> = { ok: true; values: T } | { ok: false; issues: ParamIssue[] };

export const compoundingNames = {
  annually: 1,
  semiannually: 2,
  quarterly: 4,
  monthly: 12,
  weekly: 52,
  daily: 365,
  continuous: 'continuous',
} as const;
export type Compounding = keyof typeof compoundingNames;

export interface CompoundInterestParams {
  principal: Decimal;
  rate: Decimal;
  time: Decimal;
  /** Compounding periods per year, or continuous compounding. */
  periods: number | 'continuous';
}

export interface DexSlippageParams {
  reserveIn: Decimal;
  reserveOut: Decimal;
  amountIn: Decimal;
  feeBps: Decimal;
  slippageToleranceBps: Decimal;
}

const DECIMAL_STRING = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?$/;
const MAX_DECIMAL_CHARACTERS = 100;
export const MAX_VARIABLES = 50;
const MAX_YEARS = 10_000;
const MAX_PERIODS_PER_YEAR = 100_000_000;

/** A finite JSON number or a decimal string as a Decimal, or what is wrong with it. */
export function readDecimal(value: unknown): Decimal | string {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? new Decimal(value) : 'expected a finite number';
  }
  if (typeof value !== 'string') return 'expected a number or a decimal string such as "1000.50"';
  const text = value.trim();
  if (text.length > MAX_DECIMAL_CHARACTERS) return `expected at most ${MAX_DECIMAL_CHARACTERS} characters`;
  if (!DECIMAL_STRING.test(text)) return `expected a decimal number such as "1000.50" or "2.5e-3", got ${JSON.stringify(value.slice(0, 40))}`;
  return new Decimal(text);
}

type Rule = (value: Decimal) => string | undefined;
const atLeast = (min: number): Rule => (d) => (d.lt(min) ? `must be at least ${min}` : undefined);
const above = (min: number): Rule => (d) => (d.lte(min) ? `must be greater than ${min}` : undefined);
const atMost = (max: number): Rule => (d) => (d.gt(max) ? `must be at most ${max}` : undefined);
const below = (max: number): Rule => (d) => (d.gte(max) ? `must be less than ${max}` : undefined);
const integer: Rule = (d) => (d.isInteger() ? undefined : 'must be a whole number');

interface Field {
  required: boolean;
  default?: number;
  rules: Rule[];
}

/** Reads the named decimal fields, collecting one issue per bad key and one for each unknown key. */
function readFields<K extends string>(
  type: string,
  params: Record<string, unknown> | undefined,
  fields: Record<K, Field>,
  extraKeys: readonly string[] = [],
): { values: Partial<Record<K, Decimal>>; issues: ParamIssue[] } {
  const issues: ParamIssue[] = [];
  const values: Partial<Record<K, Decimal>> = {};
  const known = [...Object.keys(fields), ...extraKeys];
  const keys = Object.keys(params ?? {});
  if (keys.length > known.length * 2) {
    return { values, issues: [{ message: `params has ${keys.length} keys; type ${type} takes ${known.join(', ')}` }] };
  }
  for (const key of keys) {
    if (!known.includes(key)) issues.push({ key, message: `unknown parameter for type ${type}; it takes ${known.join(', ')}` });
  }
  for (const key of Object.keys(fields) as K[]) {
    const field = fields[key];
    const raw = params?.[key];
    if (raw === undefined) {
      if (field.required) issues.push({ key, message: `${key} is required for type ${type}` });
      else if (field.default !== undefined) values[key] = new Decimal(field.default);
      continue;
    }
    const value = readDecimal(raw);
    if (typeof value === 'string') {
      issues.push({ key, message: value });
      continue;
    }
    const problem = field.rules.map((rule) => rule(value)).find((p) => p !== undefined);
    if (problem) issues.push({ key, message: problem });
    else values[key] = value;
  }
  return { values, issues };
}

export function readCompoundInterest(params: Record<string, unknown> | undefined): Read<CompoundInterestParams> {
  const type = 'compound_interest';
  if (!params) return { ok: false, issues: [{ message: 'params is required for type compound_interest: { principal, rate, time, periods or compounding }' }] };
  const { values, issues } = readFields(type, params, {
    principal: { required: true, rules: [atLeast(0)] },
    rate: { required: true, rules: [atLeast(-1_000_000), atMost(1_000_000)] },
    time: { required: false, default: 1, rules: [atLeast(0), atMost(MAX_YEARS)] },
    periods: { required: false, rules: [integer, atLeast(1), atMost(MAX_PERIODS_PER_YEAR)] },
  }, ['compounding']);

  let periods: number | 'continuous' | undefined = values.periods?.toNumber();
  const compounding = params.compounding;
  if (compounding !== undefined) {
    if (params.periods !== undefined) issues.push({ key: 'compounding', message: 'give periods or compounding, not both' });
    else if (typeof compounding !== 'string' || !Object.hasOwn(compoundingNames, compounding)) {
      issues.push({ key: 'compounding', message: `expected one of ${Object.keys(compoundingNames).join(', ')}` });
    } else periods = compoundingNames[compounding as Compounding];
  }
  periods ??= 1;
  const { principal, rate, time } = values;
  if (rate && typeof periods === 'number' && rate.div(periods).lte(-1)) {
    issues.push({ key: 'rate', message: `a rate of ${rate.toString()} compounded ${periods} time(s) a year loses more than everything each period: rate must be greater than -${periods}` });
  }
  if (issues.length > 0 || !principal || !rate || !time) return { ok: false, issues };
  return { ok: true, values: { principal, rate, time, periods } };
}

export function readDexSlippage(params: Record<string, unknown> | undefined): Read<DexSlippageParams> {
  const type = 'dex_slippage';
  if (!params) return { ok: false, issues: [{ message: 'params is required for type dex_slippage: { reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps }' }] };
  const { values, issues } = readFields(type, params, {
    reserveIn: { required: true, rules: [above(0)] },
    reserveOut: { required: true, rules: [above(0)] },
    amountIn: { required: true, rules: [above(0)] },
    feeBps: { required: false, default: 30, rules: [atLeast(0), below(10_000)] },
    slippageToleranceBps: { required: false, default: 50, rules: [atLeast(0), atMost(10_000)] },
  });
  const { reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps } = values;
  if (issues.length > 0 || !reserveIn || !reserveOut || !amountIn || !feeBps || !slippageToleranceBps) return { ok: false, issues };
  return { ok: true, values: { reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps } };
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads formula variables: names an expression may use, each a number or a decimal string.
 * `isReserved` says whether a name belongs to the library (sqrt, pi...) and so cannot be a variable.
 */
export function readVariables(
  params: Record<string, unknown> | undefined,
  isReserved: (name: string) => boolean,
): Read<Record<string, string>> {
  const issues: ParamIssue[] = [];
  const values: Record<string, string> = {};
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_VARIABLES) return { ok: false, issues: [{ message: `at most ${MAX_VARIABLES} variables` }] };
  for (const [name, raw] of entries) {
    if (!VARIABLE_NAME.test(name)) {
      issues.push({ key: name, message: 'a variable name is a letter or _ followed by letters, digits or _' });
      continue;
    }
    if (isReserved(name)) {
      issues.push({ key: name, message: `"${name}" is a built-in name (function or constant) and cannot be a variable` });
      continue;
    }
    const value = readDecimal(raw);
    if (typeof value === 'string') issues.push({ key: name, message: value });
    else values[name] = value.toString();
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, values };
}
