import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const regexTool = defineTool({
  name: 'evaluate_regex',
  title: 'Evaluate a regular expression',
  description: 'Runs a JavaScript regular expression over a text and reports every match with its index, capture groups and named groups, and the text after replacement.',
  price: '0.002',
  http: [{ method: 'POST', path: '/api/tools/regex' }],
  input: z.object({
    pattern: z.string().min(1).max(5_000).describe('The pattern, without slashes.'),
    text: z.string().max(1_000_000).describe('The text to search.'),
    flags: z.string().regex(/^(?!.*(.).*\1)[dgimsuvy]*$/, { message: 'expected distinct JavaScript regex flags from "dgimsuvy"' }).default('g')
      .describe('JavaScript flags, e.g. "gi".'),
    replacement: z.string().max(10_000).optional().describe('Replacement string ($1, $<name> allowed); the replaced text is returned when given.'),
  }),
  example: { pattern: '(?<year>\\d{4})-(?<month>\\d{2})', text: 'Released 2024-05 and 2025-11', flags: 'g', replacement: '$<month>/$<year>' },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
