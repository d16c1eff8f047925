import { z } from 'zod';
import { sandboxToolError } from '../sandbox/sandbox-errors.ts';
import { lazySandboxPool } from '../sandbox/sandbox-pool.ts';
import { defineTool, ToolError } from '../tool.ts';
import type { RegexLimits, RegexMatch, RegexOutcome, RegexTask } from './regex-engine.d.mts';

/** A backtracking pattern is stopped after this long; `(a+)+$` on 50,000 characters is refused within about a second. */
export const REGEX_TIME_LIMIT_MS = 1_000;
export const REGEX_LIMITS: RegexLimits = {
  maxListedMatches: 1_000,
  maxListedChars: 500_000,
  maxReplacedChars: 2_000_000,
};

/** The workers that run patterns, started on first use. Exported for the tests. */
export const regexWorkers = lazySandboxPool('evaluate_regex', new URL('./regex-worker.mjs', import.meta.url));

const FLAGS_MESSAGE = 'expected distinct JavaScript regex flags from "dgimsuvy"';
const areDistinct = (flags: string) => new Set(flags).size === flags.length;

/** Starts the spare workers, so that the first call after start-up is as quick as the others. */
export function warmUpRegex(): void {
  regexWorkers().warm();
}

/** The engine's own complaint about a pattern and flags, or undefined when it compiles. */
function compileProblem(pattern: string, flags: string): { field: 'pattern' | 'flags'; message: string } | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    try {
      new RegExp('', flags);
    } catch {
      return { field: 'flags', message: `${message} (u and v cannot be combined)` };
    }
    return { field: 'pattern', message };
  }
}

export interface RegexAnswer {
  pattern: string;
  flags: string;
  /** Length of the text in UTF-16 code units, the unit of every index. */
  textLength: number;
  replacement?: string;
  matchCount: number;
  matches: RegexMatch[];
  /** True when more matches were found than are listed (see limits). */
  truncated: boolean;
  replaced?: string;
  engine: string;
  limits: RegexLimits & { timeLimitMs: number };
}

export const regexTool = defineTool({
  name: 'evaluate_regex',
  title: 'Evaluate a regular expression',
  description:
    'Runs a JavaScript regular expression (the engine\'s own RegExp, ECMAScript semantics) over a text and reports every match ' +
    'with its index (UTF-16 code units), end, capture groups and named groups, and, when a replacement is given, the text after ' +
    'replacement ($&, $1, $<name>... as in String.prototype.replace). Without the g flag only the first match is reported and replaced. ' +
    `A pattern that backtracks catastrophically is stopped after ${REGEX_TIME_LIMIT_MS} ms (HTTP 422, not charged). ` +
    `At most ${REGEX_LIMITS.maxListedMatches} matches are listed (all are counted); the replaced text may be up to ${REGEX_LIMITS.maxReplacedChars} characters.`,
  price: '0.002',
  http: [{ method: 'POST', path: '/api/tools/regex' }],
  input: z.object({
    pattern: z.string().min(1).max(5_000).describe('The pattern, without slashes.'),
    text: z.string().max(1_000_000).describe('The text to search.'),
    // Checked in linear time: the gateway's own thread runs this on whatever a caller sends. (A
    // lookahead such as /^(?!.*(.).*\1)[dgimsuvy]*$/ takes seconds on 20,000 distinct characters.)
    flags: z.string()
      .regex(/^[dgimsuvy]{0,8}$/, { message: FLAGS_MESSAGE })
      .refine((flags) => !/^[dgimsuvy]{0,8}$/.test(flags) || areDistinct(flags), { message: FLAGS_MESSAGE })
      .default('g')
      .describe('JavaScript flags, e.g. "gi".'),
    replacement: z.string().max(10_000).optional().describe('Replacement string ($1, $<name> allowed); the replaced text is returned when given.'),
  }).superRefine(({ pattern, flags }, ctx) => {
    // zod runs this even when a field failed, so it checks only what it can trust.
    if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > 5_000) return;
    if (typeof flags !== 'string' || !/^[dgimsuvy]{0,8}$/.test(flags) || !areDistinct(flags)) return;
    const problem = compileProblem(pattern, flags);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: [problem.field], message: `not a valid JavaScript regular expression: ${problem.message}` });
      return;
    }
    // A valid call is likely to be paid for next: have a worker ready by then.
    regexWorkers().warm();
  }),
  example: { pattern: '(?<year>\\d{4})-(?<month>\\d{2})', text: 'Released 2024-05 and 2025-11', flags: 'g', replacement: '$<month>/$<year>' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler(input, ctx): Promise<RegexAnswer> {
    const task: RegexTask = { ...input, limits: REGEX_LIMITS };
    let outcome: RegexOutcome;
    try {
      ({ value: outcome } = await regexWorkers().run<RegexOutcome>(task, { timeLimitMs: REGEX_TIME_LIMIT_MS, signal: ctx.signal }));
    } catch (error) {
      throw sandboxToolError(error, {
        what: 'The pattern',
        timeoutCode: 'regex_timeout',
        timeoutHint:
          'It is most likely backtracking catastrophically: nested or overlapping quantifiers such as (a+)+, (a|a)* or (.*)*, ' +
          'followed by something that fails, take exponential time on long texts. Make the repetition unambiguous or anchor it.',
      });
    }
    if (!outcome.ok) {
      if (outcome.code === 'invalid_pattern') {
        throw new ToolError(400, 'invalid_pattern', `pattern: not a valid JavaScript regular expression: ${outcome.message}`, { field: 'pattern' });
      }
      throw new ToolError(422, 'result_too_large', `${outcome.message}; replace fewer matches or use a shorter replacement.`, {
        maxReplacedChars: REGEX_LIMITS.maxReplacedChars,
      });
    }
    return {
      pattern: input.pattern,
      flags: input.flags,
      textLength: input.text.length,
      ...(input.replacement !== undefined ? { replacement: input.replacement } : {}),
      matchCount: outcome.matchCount,
      matches: outcome.matches,
      truncated: outcome.truncated,
      ...(outcome.replaced !== undefined ? { replaced: outcome.replaced } : {}),
      engine: `JavaScript RegExp (V8 ${process.versions.v8}, Node.js ${process.versions.node})`,
      limits: { ...REGEX_LIMITS, timeLimitMs: REGEX_TIME_LIMIT_MS },
    };
  },
});
