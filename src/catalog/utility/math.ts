import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const mathTool = defineTool({
  name: 'calculate_math',
  title: 'Deterministic math',
  description: 'Evaluates a formula, compound interest or a constant-product DEX swap (amount out, price impact, slippage) with high-precision decimal arithmetic.',
  price: '0.005',
  http: [{ method: 'POST', path: '/api/eval/math' }],
  input: z.object({
    expression: z.string().min(1).max(2_000).optional().describe('The formula to evaluate, for type "formula", e.g. "(1.05^10 - 1) * 100".'),
    type: z.enum(['formula', 'compound_interest', 'dex_slippage']).default('formula').describe('What to calculate.'),
    params: z.record(z.string(), z.unknown()).optional()
      .describe('Parameters of compound_interest (principal, rate, periods, time) or dex_slippage (reserveIn, reserveOut, amountIn, feeBps).'),
  }).refine((input) => input.type !== 'formula' || input.expression !== undefined, {
    message: 'expression is required when type is "formula"',
    path: ['expression'],
  }),
  example: { type: 'formula', expression: '(1 + 0.05)^10 * 1000' },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
