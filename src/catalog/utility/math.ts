import { z } from 'zod';
import { sandboxToolError } from '../sandbox/sandbox-errors.ts';
import { lazySandboxPool } from '../sandbox/sandbox-pool.ts';
import { defineTool, ToolError } from '../tool.ts';
import { PRECISION } from './math-decimal.ts';
import type { MathOutcome, MathTask } from './math-engine.d.mts';
import { isBuiltInName, mathjsVersion } from './math-engine.mjs';
import { expressionProblem, locate, positionOfName } from './math-expression.ts';
import { compoundInterest, dexSwap } from './math-finance.ts';
import { type ParamIssue, type Read, readCompoundInterest, readDexSlippage, readVariables } from './math-params.ts';

/** A formula is stopped after this long, and its worker with it. */
export const MATH_TIME_LIMIT_MS = 1_000;
/** Longest result written out (a matrix, a long string...). */
export const MAX_RESULT_CHARS = 100_000;
/** Most elements of a matrix result. */
export const MAX_RESULT_ELEMENTS = 10_000;
const FORMULA_ARITHMETIC = `BigNumber (decimal.js): every operation rounded to ${PRECISION} significant digits, ties away from zero (ROUND_HALF_UP)`;
const FINANCE_ARITHMETIC = `decimal.js with ${PRECISION + 20} significant digits, each figure then rounded to ${PRECISION}, ties away from zero (ROUND_HALF_UP)`;

/** The workers that evaluate formulas, started on first use. Exported for the tests. */
export const mathWorkers = lazySandboxPool('calculate_math', new URL('./math-worker.mjs', import.meta.url));

/**
 * Loads the parser the schema uses (about a second, once per process) and starts the spare workers,
 * so that the first call after start-up is as quick as the others. Call it at start-up if you can.
 */
export function warmUpMath(): void {
  expressionProblem('1', []);
  mathWorkers().warm();
}

const types = ['formula', 'compound_interest', 'dex_slippage'] as const;
type MathType = (typeof types)[number];
const isMathType = (value: unknown): value is MathType => types.some((type) => type === value);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const paramPath = (issue: ParamIssue) => (issue.key === undefined ? ['params'] : ['params', issue.key]);

function readParams(type: Exclude<MathType, 'formula'>, params: Record<string, unknown> | undefined): Read<unknown> {
  return type === 'compound_interest' ? readCompoundInterest(params) : readDexSlippage(params);
}

export const mathTool = defineTool({
  name: 'calculate_math',
  title: 'Deterministic math',
  description:
    'Evaluates a formula, compound interest or a constant-product DEX swap (amount out, price impact, slippage) with high-precision decimal arithmetic ' +
    `(${PRECISION} significant digits). type "formula": expression is a mathjs expression (operators, functions such as sqrt, log, sin, det, ` +
    'units such as "5 cm to inch", variables from params, several statements separated by ";" with the last one as the result); ' +
    'it cannot define functions or evaluate code, and is stopped after ' + `${MATH_TIME_LIMIT_MS} ms. ` +
    'type "compound_interest": params { principal, rate (annual, as a fraction: 0.05 = 5 %), time (years, default 1), ' +
    'periods (compounding periods per year, default 1) or compounding (annually, semiannually, quarterly, monthly, weekly, daily, continuous) }. ' +
    'type "dex_slippage": params { reserveIn, reserveOut, amountIn, feeBps (default 30 = 0.3 %), slippageToleranceBps (default 50) } for an x·y = k pool. ' +
    'Numbers may be JSON numbers or decimal strings; results are decimal strings, with the inputs echoed and the method named.',
  price: '0.005',
  http: [{ method: 'POST', path: '/api/eval/math' }],
  input: z.object({
    expression: z.string().min(1).max(2_000).optional().describe('The formula to evaluate, for type "formula", e.g. "(1.05^10 - 1) * 100".'),
    type: z.enum(['formula', 'compound_interest', 'dex_slippage']).default('formula').describe('What to calculate.'),
    // The values are read (and refused with their own messages) by math-params.ts; the schema documents their JSON types.
    params: z.record(z.string(), z.unknown().meta({ oneOf: [{ type: 'number' }, { type: 'string' }] })).optional()
      .describe(
        'For formula: variables the expression uses, e.g. {"P": 1000, "r": "0.05"}. ' +
        'For compound_interest: principal, rate, time, periods or compounding. ' +
        'For dex_slippage: reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps.',
      ),
  }).superRefine((input, ctx) => {
    // zod runs this even when a field failed, so it checks only what it can trust.
    const { type, expression, params } = input as { type: unknown; expression: unknown; params: unknown };
    if (!isMathType(type)) return;
    const paramsRecord = isRecord(params) ? params : undefined;
    if (params !== undefined && !paramsRecord) return;

    if (type !== 'formula') {
      if (expression !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['expression'], message: `expression is only used with type "formula"; type "${type}" takes its inputs in params` });
      }
      const read = readParams(type, paramsRecord);
      if (!read.ok) for (const issue of read.issues) ctx.addIssue({ code: 'custom', path: paramPath(issue), message: issue.message });
      return;
    }

    if (expression === undefined) {
      ctx.addIssue({ code: 'custom', path: ['expression'], message: 'expression is required when type is "formula"' });
    }
    const variables = readVariables(paramsRecord, isBuiltInName);
    if (!variables.ok) {
      for (const issue of variables.issues) ctx.addIssue({ code: 'custom', path: paramPath(issue), message: issue.message });
      return;
    }
    if (typeof expression !== 'string' || expression.length === 0 || expression.length > 2_000) return;
    const problem = expressionProblem(expression, Object.keys(variables.values));
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['expression'], message: locate(expression, problem) });
      return;
    }
    // A valid formula is likely to be paid for next: have a worker ready by then.
    mathWorkers().warm();
  }),
  example: { type: 'formula', expression: '(1 + 0.05)^10 * 1000' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler(input, ctx) {
    switch (input.type) {
      case 'formula':
        return evaluateFormula(input.expression ?? '', input.params, ctx.signal);
      case 'compound_interest': {
        const read = readCompoundInterest(input.params);
        if (!read.ok) throw invalidParams(read.issues);
        const { principal, rate, time, periods } = read.values;
        const result = compoundInterest(read.values);
        return {
          type: input.type,
          inputs: { principal: principal.toString(), rate: rate.toString(), time: time.toString(), periods },
          result: result.finalAmount,
          breakdown: result,
          formula: periods === 'continuous' ? 'A = P·e^(r·t)' : 'A = P·(1 + r/n)^(n·t), n = periods per year, t = years',
          method: { arithmetic: FINANCE_ARITHMETIC },
        };
      }
      case 'dex_slippage': {
        const read = readDexSlippage(input.params);
        if (!read.ok) throw invalidParams(read.issues);
        const result = dexSwap(read.values);
        return {
          type: input.type,
          inputs: Object.fromEntries(Object.entries(read.values).map(([key, value]) => [key, value.toString()])),
          result: result.amountOut,
          breakdown: result,
          formula: 'amountOut = reserveOut·a / (reserveIn + a), a = amountIn·(1 - feeBps/10000)',
          method: {
            arithmetic: FINANCE_ARITHMETIC,
            model: 'constant-product pool (x·y = k), fee taken from the input and kept in the pool, as in Uniswap v2',
          },
        };
      }
    }
  },
});

/** The schema already refused these; this is the net under it. */
function invalidParams(issues: ParamIssue[]): ToolError {
  const issue = issues[0];
  return new ToolError(400, 'invalid_params', `${paramPath(issue ?? { message: '' }).join('.')}: ${issue?.message ?? 'invalid'}`);
}

async function evaluateFormula(expression: string, params: Record<string, unknown> | undefined, signal: AbortSignal) {
  const variables = readVariables(params, isBuiltInName);
  if (!variables.ok) throw invalidParams(variables.issues);
  const task: MathTask = { expression, variables: variables.values, maxResultChars: MAX_RESULT_CHARS, maxResultElements: MAX_RESULT_ELEMENTS };
  let outcome: MathOutcome;
  try {
    ({ value: outcome } = await mathWorkers().run<MathOutcome>(task, { timeLimitMs: MATH_TIME_LIMIT_MS, signal }));
  } catch (error) {
    throw sandboxToolError(error, {
      what: 'The expression',
      timeoutCode: 'evaluation_timeout',
      timeoutHint: 'Very large factorials, powers, matrices or loops over big ranges take too long; simplify it or split it up.',
    });
  }
  if (!outcome.ok) {
    if (outcome.code === 'result_too_large') {
      throw new ToolError(422, 'result_too_large', `${outcome.message}.`, { maxResultChars: MAX_RESULT_CHARS, maxResultElements: MAX_RESULT_ELEMENTS });
    }
    const position = outcome.position ?? (outcome.name === undefined ? undefined : positionOfName(expression, outcome.name));
    const message = locate(expression, position === undefined ? { message: outcome.message } : { message: outcome.message, position });
    throw new ToolError(400, outcome.code, `expression: ${message}`, { field: 'expression', ...(position === undefined ? {} : { position }) });
  }
  return {
    type: 'formula' as const,
    inputs: { expression, ...(Object.keys(variables.values).length > 0 ? { params: variables.values } : {}) },
    result: outcome.result,
    resultType: outcome.resultType,
    approximate: outcome.approximate,
    method: { engine: `mathjs ${mathjsVersion()} expression parser`, arithmetic: FORMULA_ARITHMETIC },
  };
}
