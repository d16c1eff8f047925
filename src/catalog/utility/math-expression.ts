// The checks on a formula that need no evaluation, run in the schema so that a bad expression is
// refused before payment (HTTP 400, free) with the character where it goes wrong. The evaluator
// repeats them in its worker; these exist to answer early and precisely.
import { nameProblem, parseExpression } from './math-engine.mjs';

/** Brackets deeper than this are refused: the parser is recursive and its stack is finite. */
export const MAX_NESTING = 50;

export interface ExpressionProblem {
  message: string;
  /** 1-based character the problem is at, when it has one. */
  position?: number;
}

/** The expression with every string literal blanked out (same length), so brackets and names inside strings do not count. */
function withoutStrings(expression: string): string {
  return expression.replace(/"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?/g, (literal) => ' '.repeat(literal.length));
}

function nestingProblem(code: string): ExpressionProblem | undefined {
  let depth = 0;
  for (let i = 0; i < code.length; i += 1) {
    const char = code[i];
    if (char === '(' || char === '[' || char === '{') {
      depth += 1;
      if (depth > MAX_NESTING) return { message: `brackets are nested more than ${MAX_NESTING} levels deep`, position: i + 1 };
    } else if (char === ')' || char === ']' || char === '}') depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/** 1-based position of the first use of a name as a whole identifier outside strings. */
export function positionOfName(expression: string, name: string): number | undefined {
  for (const found of withoutStrings(expression).matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)) {
    if (found[0] === name) return found.index + 1;
  }
  return undefined;
}

/** "…at character 5, near "* 2"" or "…at the end of the expression". */
export function locate(expression: string, problem: ExpressionProblem): string {
  if (problem.position === undefined) return problem.message;
  if (problem.position > expression.length) {
    return /end of expression/i.test(problem.message)
      ? `${problem.message} (character ${problem.position})`
      : `${problem.message} at the end of the expression (character ${problem.position})`;
  }
  const near = expression.slice(problem.position - 1, problem.position + 19);
  return `${problem.message} at character ${problem.position}, near ${JSON.stringify(near)}`;
}

/** What is wrong with an expression before it runs, or undefined. `variables` are the names params defines. */
export function expressionProblem(expression: string, variables: Iterable<string>): ExpressionProblem | undefined {
  if (expression.trim() === '') return { message: 'the expression is empty' };
  const nesting = nestingProblem(withoutStrings(expression));
  if (nesting) return nesting;
  const parsed = parseExpression(expression);
  if (!parsed.ok) return parsed.position === undefined ? { message: parsed.message } : { message: parsed.message, position: parsed.position };
  const names = nameProblem(parsed.root, new Set(variables));
  if (!names) return undefined;
  const position = names.name === undefined ? undefined : positionOfName(expression, names.name);
  return position === undefined ? { message: names.message } : { message: names.message, position };
}
