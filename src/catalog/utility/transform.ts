// transform_data_format. Before payment only what costs next to nothing is checked: the schema's types and sizes, the
// direction, and that each element of an array is an object (one pass, nothing allocated). Reading
// the CSV or JSON text and building the table are the conversion itself (tens of milliseconds per
// MB, more than parsing the request body): that runs in the handler, after payment, and what only it
// can find (broken CSV, a table over the limits) is a tool failure there, released, not charged.
import { z } from 'zod';
import { defineTool, ToolError } from '../tool.ts';
import { describeJsonType, isPlainObject, TABLE_LIMITS } from './json-csv-table.ts';
import type { TableIssue } from './json-csv-table.ts';
import { convert, fieldOf } from './transform-conversion.ts';
import type { Direction, TransformAnswer } from './transform-conversion.ts';

export type { TransformAnswer } from './transform-conversion.ts';

const count = (n: number) => n.toLocaleString('en-US');

const MAX_ISSUES = 10;
const JSON_WHITE_SPACE = new Set([' ', '\t', '\n', '\r']);

function firstNonBlank(text: string): string | undefined {
  for (const char of text) if (!JSON_WHITE_SPACE.has(char)) return char;
  return undefined;
}

/** The checks made before payment; each is exact (never refuses what the conversion would take). */
function cheapIssues(source: unknown, toFormat: Direction): TableIssue[] {
  if (toFormat === 'json') {
    if (!Array.isArray(source)) return [];
    return [{ path: ['input'], message: 'input is already a JSON array; toFormat json turns a CSV string into JSON. To turn this array into CSV, set toFormat to csv' }];
  }
  if (typeof source === 'string') {
    // The JSON text of an array starts with "[" after white space; whether the rest parses is the conversion's to find.
    const first = firstNonBlank(source);
    if (first === '[') return [];
    const seen = first === undefined ? 'it is blank' : first === '{' ? 'it starts with "{", a JSON object (one record: wrap it in [ ])' : `it starts with ${JSON.stringify(first)}`;
    return [{ path: ['input'], message: `toFormat is csv, so a string input must be the JSON text of an array of objects, starting with "["; ${seen}. To turn CSV into JSON, set toFormat to json` }];
  }
  if (!Array.isArray(source) || source.length > TABLE_LIMITS.records) return []; // refused by the field's own checks
  const issues: TableIssue[] = [];
  for (let index = 0; index < source.length && issues.length < MAX_ISSUES; index += 1) {
    const record: unknown = source[index];
    if (!isPlainObject(record)) issues.push({ path: ['input', index], message: `record ${index} is ${describeJsonType(record)}; every element must be an object (one row of the table)` });
  }
  return issues;
}

const describeUnionFailure = (issue: { input?: unknown }): string => {
  const { input } = issue;
  if (input === undefined) return 'required: a JSON array of objects, or a CSV string';
  if (Array.isArray(input)) return `too many records: ${count(input.length)}; at most ${count(TABLE_LIMITS.records)}`;
  return `expected a JSON array of objects, or a string (CSV, or the JSON text of an array); received ${describeJsonType(input)}`;
};

const input = z
  .object({
    input: z
      .union([
        // That each record is an object is checked below (with a message naming it); the schema documents it.
        z.array(z.unknown().meta({ type: 'object' })).max(100_000),
        z.string().max(5_000_000, { message: `too long: at most ${count(TABLE_LIMITS.characters)} characters` }),
      ], { error: describeUnionFailure })
      .describe('A JSON array of objects, or a CSV string (a JSON array as a string is accepted too).'),
    toFormat: z.enum(['json', 'csv']).default('csv').describe('The format to produce.'),
  })
  .superRefine((value, ctx) => {
    for (const issue of cheapIssues(value.input, value.toFormat)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

function transformOrThrow(source: string | unknown[], toFormat: Direction): TransformAnswer {
  const result = convert(source, toFormat);
  if (result.ok) return result.value;
  const issues = result.issues.map((issue) => ({ field: fieldOf(issue), message: issue.message }));
  throw new ToolError(400, 'invalid_input', issues.map((i) => `${i.field}: ${i.message}`).join('; '), { issues });
}

export const transformTool = defineTool({
  name: 'transform_data_format',
  title: 'JSON <-> CSV',
  description:
    'Converts a JSON array of objects to CSV, or CSV to a JSON array, losslessly (quoting, embedded commas, quotes and newlines, unicode, column order). ' +
    'CSV is RFC 4180 with CRLF line breaks; the header is the union of the keys in first-seen order; nested objects and arrays are JSON text in a cell. ' +
    'Reading CSV: an empty unquoted cell leaves the key out, "" is the empty string, unquoted null/true/false and numbers written canonically (42, -1.5) are typed, ' +
    'everything else (007, 1.50, quoted cells) stays a string. ' +
    `Limits: ${count(TABLE_LIMITS.records)} records, ${count(TABLE_LIMITS.cells)} cells, ${count(TABLE_LIMITS.columns)} columns, ${count(TABLE_LIMITS.characters)} characters of input.`,
  price: '0.003',
  http: [{ method: 'POST', path: '/api/data/transform' }],
  input,
  example: { input: [{ name: 'Ada', city: 'London' }, { name: 'Linus', city: 'Helsinki' }], toFormat: 'csv' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler(parsed, ctx) {
    ctx.signal.throwIfAborted();
    return transformOrThrow(parsed.input, parsed.toFormat);
  },
});
