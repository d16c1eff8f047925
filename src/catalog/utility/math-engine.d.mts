// Types of math-engine.mjs.
import type { MathNode } from 'mathjs';

export interface MathTask {
  expression: string;
  /** Variables the expression may use, as decimal strings (they become BigNumbers). */
  variables: Readonly<Record<string, string>>;
  /** Longest formatted result accepted. */
  maxResultChars: number;
  /** Most elements a matrix result may have. */
  maxResultElements: number;
}

export type MathOutcome =
  | {
      ok: true;
      /** The value as mathjs formats it, to 64 significant digits for BigNumbers. */
      result: string;
      /** mathjs's name for the type: BigNumber, Complex, Unit, DenseMatrix, boolean, string, Object, null... */
      resultType: string;
      /** The nearest double when the result is a finite real number, otherwise null. */
      approximate: number | null;
    }
  | {
      ok: false;
      code: 'invalid_expression' | 'evaluation_error' | 'result_too_large';
      message: string;
      /** 1-based character of a syntax error, as mathjs reports it. */
      position?: number;
      /** The name a name problem is about, to point at it in the expression. */
      name?: string;
    };

export const PRECISION: number;
export function evaluateExpression(task: MathTask): MathOutcome;
export function parseExpression(expression: string): { ok: true; root: MathNode } | { ok: false; message: string; position?: number };
export function mathjsVersion(): string;
export function isBuiltInName(name: string): boolean;
export function nameProblem(root: MathNode, variables: ReadonlySet<string>): { message: string; name?: string } | undefined;
export function warmUp(): void;
