// Types of math-denied.mjs.
export const DENIED_FUNCTIONS: Readonly<Record<string, string>>;
