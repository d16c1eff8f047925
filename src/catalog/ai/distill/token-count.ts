// Token counts with OpenAI's o200k_base encoding (GPT-4o, GPT-4.1, o-series), from the npm
// package gpt-tokenizer, whose vocabulary ships inside the package. Loaded on first use
// (~0.3 s), so merely importing the catalogue stays fast.

export const TOKENIZER = { encoding: 'o200k_base', library: 'gpt-tokenizer@4.0.0' } as const;

type CountTokens = (text: string) => number;
let loading: Promise<CountTokens> | undefined;

export function tokenCounter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => (text: string) => module.countTokens(text));
  return loading;
}
