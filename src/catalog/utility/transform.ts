import { z } from 'zod';
import { defineTool, ToolError } from '../tool.ts';
import { csvToRecords, describeJsonType, recordsToCsv, TABLE_LIMITS } from './json-csv-table.ts';
import type { JsonTable, TableIssue, TableResult } from './json-csv-table.ts';
import type { JsonValue } from './csv-cells.ts';

export interface TransformAnswer {
  toFormat: 'csv' | 'json';
  /** The CSV text (toFormat csv) or the array of records (toFormat json). */
  output: string | Record<string, JsonValue>[];
  rows: number;
  columns: string[];
}

type Direction = 'json' | 'csv';

const count = (n: number) => n.toLocaleString('en-US');

function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

const refuse = (message: string): TableResult<never> => ({ ok: false, issues: [{ path: ['input'], message }] });

function toCsv(input: string | unknown[]): TableResult<TransformAnswer> {
  let records: unknown = input;
  if (typeof input === 'string') {
    const parsed = parseJsonText(input);
    if (!parsed.ok) {
      return refuse(`toFormat is csv, so a string input must be the JSON text of an array of objects, and this is not JSON (${parsed.message}). To turn CSV into JSON, set toFormat to json`);
    }
    records = parsed.value;
    if (!Array.isArray(records)) return refuse(`toFormat is csv, so input must be an array of objects; this JSON text holds ${describeJsonType(records)}`);
  }
  const table = recordsToCsv(records as unknown[]);
  if (!table.ok) return table;
  return { ok: true, value: { toFormat: 'csv', output: table.value.csv, rows: table.value.rows, columns: table.value.columns } };
}

function toJson(input: string | unknown[]): TableResult<TransformAnswer> {
  if (Array.isArray(input)) {
    return refuse('input is already a JSON array; toFormat json turns a CSV string into JSON. To turn this array into CSV, set toFormat to csv');
  }
  if (/^\s*[[{]/.test(input) && parseJsonText(input).ok) {
    return refuse('input is JSON text, not CSV; toFormat json turns a CSV string into JSON. To turn JSON into CSV, set toFormat to csv');
  }
  const table: TableResult<JsonTable> = csvToRecords(input);
  if (!table.ok) return table;
  return { ok: true, value: { toFormat: 'json', output: table.value.records, rows: table.value.rows, columns: table.value.columns } };
}

function transform(input: string | unknown[], toFormat: Direction): TableResult<TransformAnswer> {
  return toFormat === 'csv' ? toCsv(input) : toJson(input);
}

// The schema converts once to find what only a conversion can find (broken CSV, a record that is
// not an object, a table over the limits), so such input is refused before payment is asked for.
// Its answer is kept for the handler, keyed by the parsed input object the gate hands over.
const answers = new WeakMap<object, TransformAnswer>();

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
        // Each record is checked by the conversion (with a message naming it); the schema documents that it is an object.
        z.array(z.unknown().meta({ type: 'object' })).max(100_000),
        z.string().max(5_000_000, { message: `too long: at most ${count(TABLE_LIMITS.characters)} characters` }),
      ], { error: describeUnionFailure })
      .describe('A JSON array of objects, or a CSV string (a JSON array as a string is accepted too).'),
    toFormat: z.enum(['json', 'csv']).default('csv').describe('The format to produce.'),
  })
  .superRefine((value, ctx) => {
    const source: unknown = value.input;
    const withinLimits = typeof source === 'string'
      ? source.length <= TABLE_LIMITS.characters
      : Array.isArray(source) && source.length <= TABLE_LIMITS.records;
    if (!withinLimits) return; // already refused by the field's own checks
    const result = transform(source as string | unknown[], value.toFormat);
    if (!result.ok) {
      for (const issue of result.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      return;
    }
    answers.set(value, result.value);
  });

function transformOrThrow(source: string | unknown[], toFormat: Direction): TransformAnswer {
  const result = transform(source, toFormat);
  if (result.ok) return result.value;
  const issues: TableIssue[] = result.issues;
  throw new ToolError(400, 'invalid_input', `input: ${issues.map((i) => i.message).join('; ')}`, { issues });
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
    return answers.get(parsed) ?? transformOrThrow(parsed.input, parsed.toFormat);
  },
});
