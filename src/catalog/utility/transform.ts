import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const transformTool = defineTool({
  name: 'transform_data_format',
  title: 'JSON <-> CSV',
  description: 'Converts a JSON array of objects to CSV, or CSV to a JSON array, losslessly (quoting, embedded commas, quotes and newlines, unicode, column order).',
  price: '0.003',
  http: [{ method: 'POST', path: '/api/data/transform' }],
  input: z.object({
    input: z.union([z.array(z.unknown()).max(100_000), z.string().max(5_000_000)])
      .describe('A JSON array of objects, or a CSV string (a JSON array as a string is accepted too).'),
    toFormat: z.enum(['json', 'csv']).default('csv').describe('The format to produce.'),
  }),
  example: { input: [{ name: 'Ada', city: 'London' }, { name: 'Linus', city: 'Helsinki' }], toFormat: 'csv' },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
