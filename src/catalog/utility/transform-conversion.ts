// The conversion itself, both ways: what the tool's handler runs once the call is paid. It reads
// and writes the whole table, so it is never run to validate an unpaid request.
import { csvToRecords, describeJsonType, recordsToCsv } from './json-csv-table.ts';
import type { JsonTable, TableIssue, TableResult } from './json-csv-table.ts';
import type { JsonValue } from './csv-cells.ts';

export interface TransformAnswer {
  toFormat: 'csv' | 'json';
  /** The CSV text (toFormat csv) or the array of records (toFormat json). */
  output: string | Record<string, JsonValue>[];
  rows: number;
  columns: string[];
}

export type Direction = 'json' | 'csv';

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

export function convert(input: string | unknown[], toFormat: Direction): TableResult<TransformAnswer> {
  return toFormat === 'csv' ? toCsv(input) : toJson(input);
}

/** An issue's place as the faces name fields: `input`, `input.3`, `input.3.price`. */
export const fieldOf = (issue: TableIssue): string => issue.path.join('.');
