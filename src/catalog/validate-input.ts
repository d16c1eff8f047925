// Turns a tool's zod input schema into a verdict a caller can act on: which field, what was
// expected, what was received. Runs before any payment is asked for, so bad input is free.
import type { z } from 'zod';
import type { ToolInput } from './tool.ts';

export interface InputIssue {
  /** Dotted path of the field ("limit", "params.rate"), or "(input)" for the whole input. */
  field: string;
  message: string;
}

export type InputVerdict<T> = { ok: true; value: T } | { ok: false; issues: InputIssue[] };

export function validateInput<S extends ToolInput>(schema: S, raw: unknown): InputVerdict<z.output<S>> {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.map(describeIssue) };
}

function describeIssue(issue: z.core.$ZodIssue): InputIssue {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    return { field, message: `${field} is required (expected ${issue.expected})` };
  }
  return { field, message: `${field}: ${issue.message}` };
}

/** One sentence naming every bad field, for the top of an error answer. */
export function summarizeIssues(issues: readonly InputIssue[]): string {
  return `Invalid input: ${issues.map((i) => i.message).join('; ')}`;
}
