// mathjs functions an expression may not use, with the reason a caller is told. Shared by the
// schema's check (math-expression.ts, in the gateway's thread) and the evaluator (math-engine.mjs,
// in a worker), which also replaces each of them with a function that throws.

/** @type {Readonly<Record<string, string>>} */
export const DENIED_FUNCTIONS = Object.freeze({
  // They parse, compile, evaluate or transform expressions, or change the library itself.
  import: 'it changes the library',
  createUnit: 'it changes the library',
  config: 'it changes the library',
  typed: 'it defines functions',
  factory: 'it defines functions',
  create: 'it creates a new library instance',
  evaluate: 'it evaluates code',
  parse: 'it parses code',
  compile: 'it compiles code',
  parser: 'it creates an evaluator',
  chain: 'it wraps values in a method chain',
  simplify: 'it rewrites expressions (symbolic algebra is not offered)',
  simplifyConstant: 'it rewrites expressions (symbolic algebra is not offered)',
  simplifyCore: 'it rewrites expressions (symbolic algebra is not offered)',
  derivative: 'it rewrites expressions (symbolic algebra is not offered)',
  rationalize: 'it rewrites expressions (symbolic algebra is not offered)',
  resolve: 'it rewrites expressions (symbolic algebra is not offered)',
  leafCount: 'it inspects expressions (symbolic algebra is not offered)',
  symbolicEqual: 'it compares expressions (symbolic algebra is not offered)',
  reviver: 'it deserialises objects',
  replacer: 'it serialises objects',
  help: 'it returns documentation, not a value',
  expression: 'it is the parser\'s internals',
  random: 'it is not deterministic',
  randomInt: 'it is not deterministic',
  pickRandom: 'it is not deterministic',
});
