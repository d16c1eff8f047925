// Evaluates calculate_math formulas with mathjs in BigNumber mode (decimal.js, 64 significant
// digits). It runs inside a worker (math-worker.mjs) that the gateway terminates when a formula
// runs too long or takes too much memory. Types: math-engine.d.mts.
//
// What an expression may touch is decided here, before anything runs: only mathjs's own typed
// functions may be called, and only by name; functions cannot be defined, passed around or used as
// values; names that evaluate, parse or change the library, or that are not deterministic
// (math-denied.mjs), are refused. mathjs's own guards (no access to constructor, __proto__, ...)
// still apply underneath, and the denied functions are replaced by ones that throw.
//
// mathjs is loaded from its single-file bundle: the same library as the package's ESM build, but one
// file instead of hundreds, so a worker is ready in a few hundred milliseconds instead of seconds.
import { createRequire } from 'node:module';
import { DENIED_FUNCTIONS } from './math-denied.mjs';

/** @typedef {import('./math-engine.d.mts').MathTask} MathTask */
/** @typedef {import('./math-engine.d.mts').MathOutcome} MathOutcome */
/** @typedef {import('mathjs').MathJsInstance} MathJsInstance */
/** @typedef {import('mathjs').MathNode} MathNode */

export const PRECISION = 64;
/**
 * Plain digits from 1e-20 to below 1e40 (mathjs's own default switches to exponents above 1e5,
 * which reads badly for amounts), exponent notation outside. math-decimal.ts matches it.
 */
const NOTATION = { lowerExp: -20, upperExp: 40 };
const require = createRequire(import.meta.url);

/**
 * @typedef {object} Library
 * @property {MathJsInstance} math the instance expressions run in
 * @property {(expression: string) => MathNode} parse
 * @property {(name: string) => boolean} isUnit
 * @property {string} version
 */

/** @type {Library | undefined} */
let loaded;

/**
 * Loads and configures mathjs on first use (a few hundred milliseconds), so that importing this
 * module costs nothing until a formula arrives.
 * @returns {Library}
 */
function library() {
  if (loaded) return loaded;
  /** @type {MathJsInstance} */
  const bundle = require('mathjs/lib/browser/math.js');
  /** @type {MathJsInstance} */
  const math = bundle.create(/** @type {any} */ ({ number: 'BigNumber', precision: PRECISION }));
  // Kept before the denied functions are replaced: the evaluator itself still needs the parser.
  const parse = math.parse;
  const Unit = /** @type {{ isValuelessUnit(name: string): boolean }} */ (/** @type {unknown} */ (math.Unit));
  // Replacing `typed`, `config`, `factory` or `create` would break the library (every function is
  // built with them); they are refused by name in nameProblem instead, like everything in the list.
  const notReplaceable = new Set(['typed', 'config', 'factory', 'create', 'expression']);
  /** @type {Record<string, () => never>} */
  const throwing = {};
  for (const [name, reason] of Object.entries(DENIED_FUNCTIONS)) {
    if (notReplaceable.has(name) || !(name in math)) continue;
    throwing[name] = () => {
      throw new Error(`${name} is not available: ${reason}`);
    };
  }
  math.import(throwing, { override: true });
  loaded = { math, parse, isUnit: (name) => Unit.isValuelessUnit(name), version: String(/** @type {unknown} */ (bundle.version)) };
  return loaded;
}

/**
 * Whether a name belongs to the library (a function, constant or class), so a variable cannot take it.
 * @param {string} name
 */
export function isBuiltInName(name) {
  return Object.prototype.hasOwnProperty.call(library().math, name);
}

/** The mathjs version expressions run on. */
export function mathjsVersion() {
  return library().version;
}

/**
 * Parses an expression, or says where it stops making sense.
 * @param {string} expression
 * @returns {{ ok: true, root: MathNode } | { ok: false, message: string, position?: number }}
 */
export function parseExpression(expression) {
  try {
    return { ok: true, root: library().parse(expression) };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, message: 'the expression is nested too deeply' };
    const { message, char } = /** @type {Error & { char?: number }} */ (error);
    return { ok: false, message: message.replace(/ \(char \d+\)$/, ''), ...(typeof char === 'number' ? { position: char } : {}) };
  }
}

/**
 * @param {unknown} value
 * @returns {value is Function & { signatures: object }}
 */
const isTypedFunction = (value) => typeof value === 'function' && typeof (/** @type {{ signatures?: unknown }} */ (value)).signatures === 'object';

/**
 * Checks every name the expression uses. Returns the first problem, or undefined.
 * @param {MathNode} root
 * @param {ReadonlySet<string>} variables names given in params
 * @returns {{ message: string, name?: string } | undefined}
 */
export function nameProblem(root, variables) {
  const { math, isUnit } = library();
  const own = (/** @type {string} */ name) => Object.prototype.hasOwnProperty.call(math, name);
  /** @type {Set<string>} */
  const assigned = new Set(variables);
  root.traverse((node) => {
    const assignment = /** @type {{ isAssignmentNode?: boolean, object?: { isSymbolNode?: boolean, name?: string } }} */ (node);
    if (assignment.isAssignmentNode && assignment.object?.isSymbolNode && assignment.object.name) assigned.add(assignment.object.name);
  });

  /** @type {{ message: string, name?: string } | undefined} */
  let problem;
  root.traverse((node, path, parent) => {
    if (problem) return;
    const any = /** @type {any} */ (node);
    if (any.isFunctionAssignmentNode) {
      problem = { message: `defining functions ("${any.name}(...) = ...") is not allowed`, name: any.name };
      return;
    }
    if (any.isFunctionNode && !any.fn?.isSymbolNode) {
      problem = { message: 'only functions named directly can be called, e.g. sqrt(2)' };
      return;
    }
    if (any.isAssignmentNode && any.object?.isSymbolNode) {
      const name = any.object.name;
      if (own(name)) problem = { message: `"${name}" is a built-in name and cannot be assigned to`, name };
      return;
    }
    if (!any.isSymbolNode) return;
    const name = /** @type {string} */ (any.name);
    const anyParent = /** @type {any} */ (parent);
    if (anyParent?.isAssignmentNode && path === 'object') return;
    const denied = Object.prototype.hasOwnProperty.call(DENIED_FUNCTIONS, name) ? DENIED_FUNCTIONS[name] : undefined;
    if (denied) {
      problem = { message: `${name} is not available: ${denied}`, name };
      return;
    }
    const called = anyParent?.isFunctionNode && path === 'fn';
    if (called) {
      if (assigned.has(name)) problem = { message: `"${name}" is a variable, not a function`, name };
      else if (!own(name)) problem = { message: `unknown function "${name}"`, name };
      else if (!isTypedFunction(/** @type {any} */ (math)[name])) problem = { message: `"${name}" is not a function that can be called in an expression`, name };
      return;
    }
    if (assigned.has(name)) return;
    if (own(name)) {
      const value = /** @type {any} */ (math)[name];
      if (typeof value === 'function') problem = { message: `"${name}" is a function: call it, e.g. ${name}(...); functions cannot be used as values`, name };
      else if (typeof value === 'object' && value !== null && !math.isBigNumber(value) && !math.isComplex(value) && !math.isUnit(value)) {
        problem = { message: `"${name}" is not a value an expression can use`, name };
      }
      return;
    }
    if (!isUnit(name)) problem = { message: `unknown symbol "${name}"`, name };
  });
  return problem;
}

/**
 * @param {MathTask} task
 * @returns {MathOutcome}
 */
export function evaluateExpression(task) {
  const { math } = library();
  const parsed = parseExpression(task.expression);
  if (!parsed.ok) return { ok: false, code: 'invalid_expression', message: parsed.message, ...(parsed.position ? { position: parsed.position } : {}) };
  const root = parsed.root;
  const variables = Object.keys(task.variables);
  const problem = nameProblem(root, new Set(variables));
  if (problem) return { ok: false, code: 'invalid_expression', message: problem.message, ...(problem.name ? { name: problem.name } : {}) };

  /** @type {Map<string, unknown>} */
  const scope = new Map(variables.map((name) => [name, math.bignumber(/** @type {string} */ (task.variables[name]))]));
  const anyRoot = /** @type {any} */ (root);
  /** @type {MathNode[]} */
  const statements = anyRoot.isBlockNode ? anyRoot.blocks.map((/** @type {{ node: MathNode }} */ block) => block.node) : [root];
  /** @type {unknown} */
  let value;
  try {
    for (const statement of statements) value = statement.compile().evaluate(scope);
  } catch (error) {
    const { message } = error instanceof Error ? error : { message: String(error) };
    return { ok: false, code: 'evaluation_error', message };
  }
  return describeValue(value, task);
}

/**
 * @param {unknown} value
 * @param {MathTask} limits
 * @returns {MathOutcome}
 */
function describeValue(value, { maxResultChars, maxResultElements }) {
  const { math } = library();
  const type = math.typeOf(value);
  if (value === undefined || typeof value === 'function') {
    return { ok: false, code: 'evaluation_error', message: 'the expression has no value (its last statement must compute something)' };
  }
  if (math.isMatrix(value) || Array.isArray(value)) {
    // Counted before anything is written out: formatting a huge matrix would itself take long.
    const elements = /** @type {number[]} */ (math.size(/** @type {any} */ (value)).valueOf()).reduce((count, side) => count * Number(side), 1);
    if (elements > maxResultElements) {
      return { ok: false, code: 'result_too_large', message: `the result has ${elements} elements, more than the ${maxResultElements} allowed` };
    }
  }
  /** @type {string} */
  let result;
  try {
    result = typeof value === 'string' ? value : math.format(value, NOTATION);
  } catch (error) {
    return { ok: false, code: 'evaluation_error', message: `the result cannot be written out: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (result.length > maxResultChars) {
    return { ok: false, code: 'result_too_large', message: `the result is ${result.length} characters long, more than the ${maxResultChars} allowed` };
  }
  let approximate = null;
  if (math.isBigNumber(value) && value.isFinite()) approximate = value.toNumber();
  else if (typeof value === 'number' && Number.isFinite(value)) approximate = value;
  return { ok: true, result, resultType: type, approximate };
}

/** Builds the functions most formulas use, so the first real call does not pay for it. */
export function warmUp() {
  evaluateExpression({
    expression: 'a = sqrt(2) + sin(pi / 4)^2 * 3 - 1/7 + 2^10 + log(10) + log10(100) + exp(1) + abs(-1) + round(2.5, 1) + floor(1.5) + ceil(1.5); ' +
      'b = mod(7, 3) + max(1, 2) + min(1, 2) + sum(1, 2) + mean(1, 2) + factorial(5) + combinations(5, 2) + det([1, 2; 3, 4]) + cos(1) + tan(1); ' +
      'c = 5 cm to inch; d = 1 < 2 and true; e1 = median(1, 2, 3) + std(1, 2) + gcd(4, 6) + nthRoot(8, 3) + atan2(1, 1); a + b + e1',
    variables: {},
    maxResultChars: 1_000,
    maxResultElements: 10,
  });
}
