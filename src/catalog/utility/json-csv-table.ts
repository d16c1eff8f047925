// A JSON array of objects as a CSV table and back. The header row is the union of the records'
// keys in the order they are first seen; each record is one row; a key a record lacks is an empty
// unquoted cell. What each cell holds is csv-cells.ts. Both directions work in one pass over the
// data, within the limits below, so time and memory grow linearly with the input.
import { CellValueError, jsonValueProblem, readCell, writeCell } from './csv-cells.ts';
import type { JsonValue } from './csv-cells.ts';
import { CSV_LINE_BREAK, CsvSyntaxError, CsvTooManyFieldsError, forEachCsvRecord, writeCsvField } from './csv-rfc4180.ts';
import type { CsvRecord } from './csv-rfc4180.ts';

export const TABLE_LIMITS = {
  /** Records in a JSON array (the schema's own limit on `input`). */
  records: 100_000,
  /** Characters of a CSV or JSON text (the schema's own limit on `input`). */
  characters: 5_000_000,
  /** Cells: rows times columns. */
  cells: 1_000_000,
  /** Columns of the table. */
  columns: 10_000,
  /** Characters of the answer's `output` (about, for JSON: keys repeat on every row). */
  outputCharacters: 20_000_000,
} as const;

/** Problems are reported where they are, as zod issue paths under `input`. */
export interface TableIssue {
  path: (string | number)[];
  message: string;
}

export type TableResult<T> = { ok: true; value: T } | { ok: false; issues: TableIssue[] };

export interface CsvTable {
  csv: string;
  columns: string[];
  rows: number;
}

export interface JsonTable {
  records: Record<string, JsonValue>[];
  columns: string[];
  rows: number;
}

const MAX_ISSUES = 10;
const count = (n: number) => n.toLocaleString('en-US');

/** "null", "an array", "an object", "a string", ...: what a JSON value is, for messages. */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

export function recordsToCsv(records: readonly unknown[]): TableResult<CsvTable> {
  const issues: TableIssue[] = [];
  if (records.length > TABLE_LIMITS.records) {
    return { ok: false, issues: [{ path: ['input'], message: `too many records: ${count(records.length)}; at most ${count(TABLE_LIMITS.records)}` }] };
  }
  const columnIndex = new Map<string, number>();
  records.forEach((record, index) => {
    if (!isPlainObject(record)) {
      if (issues.length < MAX_ISSUES) {
        issues.push({ path: ['input', index], message: `record ${index} is ${describeJsonType(record)}; every element must be an object (one row of the table)` });
      }
      return;
    }
    for (const key of Object.keys(record)) if (!columnIndex.has(key)) columnIndex.set(key, columnIndex.size);
  });
  if (issues.length > 0) return { ok: false, issues };

  const columns = [...columnIndex.keys()];
  if (columns.length > TABLE_LIMITS.columns) {
    return { ok: false, issues: [{ path: ['input'], message: `too many columns: the records have ${count(columns.length)} different keys; at most ${count(TABLE_LIMITS.columns)}` }] };
  }
  const cells = records.length * columns.length;
  if (cells > TABLE_LIMITS.cells) {
    return {
      ok: false,
      issues: [{ path: ['input'], message: `too large: ${count(records.length)} records × ${count(columns.length)} columns = ${count(cells)} cells; at most ${count(TABLE_LIMITS.cells)}` }],
    };
  }

  // An empty header line means "no columns", so a lone column named "" is quoted to tell them apart.
  const lines: string[] = records.length === 0 ? [] : [columns.map((key) => writeCsvField(key, key === '')).join(',')];
  let outputLength = lines[0]?.length ?? 0;
  const row = new Array<string>(columns.length);
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as Record<string, unknown>;
    row.fill('');
    for (const [key, value] of Object.entries(record)) {
      const problem = jsonValueProblem(value);
      if (problem) {
        issues.push({ path: ['input', index, key], message: `record ${index}, key ${JSON.stringify(key)}: ${problem}` });
        if (issues.length >= MAX_ISSUES) return { ok: false, issues };
        continue;
      }
      const cell = writeCell(value as JsonValue);
      row[columnIndex.get(key)!] = writeCsvField(cell.text, cell.quoted);
    }
    const line = row.join(',');
    outputLength += line.length + CSV_LINE_BREAK.length;
    if (outputLength > TABLE_LIMITS.outputCharacters) {
      return { ok: false, issues: [{ path: ['input'], message: `too large: the CSV would be longer than ${count(TABLE_LIMITS.outputCharacters)} characters` }] };
    }
    lines.push(line);
  }
  if (issues.length > 0) return { ok: false, issues };
  const csv = lines.length === 0 ? '' : lines.join(CSV_LINE_BREAK) + CSV_LINE_BREAK;
  return { ok: true, value: { csv, columns, rows: records.length } };
}

function headerColumns(header: CsvRecord): TableResult<string[]> {
  const only = header.fields[0];
  if (header.fields.length === 1 && only && only.text === '' && !only.quoted) return { ok: true, value: [] };
  const columns = header.fields.map((field) => field.text);
  const firstSeen = new Map<string, number>();
  for (const [index, name] of columns.entries()) {
    const earlier = firstSeen.get(name);
    if (earlier !== undefined) {
      return {
        ok: false,
        issues: [{ path: ['input'], message: `the header names column ${JSON.stringify(name)} twice (columns ${earlier + 1} and ${index + 1}); a JSON object cannot hold both` }],
      };
    }
    firstSeen.set(name, index);
  }
  return { ok: true, value: columns };
}

/** Thrown from inside the reader's visit to stop reading: the answer is already decided. */
class StopReading extends Error {}

function readFailure(error: unknown): TableIssue {
  if (error instanceof CsvSyntaxError) return { path: ['input'], message: `not valid CSV (RFC 4180): ${error.message}` };
  if (error instanceof CsvTooManyFieldsError) {
    return { path: ['input'], message: `too large: more than ${count(error.maxFields)} fields in all (reached at line ${error.line}); a table may hold at most ${count(TABLE_LIMITS.cells)} cells` };
  }
  throw error;
}

/**
 * Reads the CSV record by record and builds each JSON record at once, so only the answer stays in
 * memory, and stops at the first fatal problem (or after MAX_ISSUES row problems).
 */
export function csvToRecords(text: string): TableResult<JsonTable> {
  let columns: string[] | undefined;
  // What one value adds to the JSON answer besides its own text: its key, quotes, colon, comma.
  let keyCost: number[] = [];
  let assign = (record: Record<string, JsonValue>, key: string, value: JsonValue) => { record[key] = value; };
  let outputLength = 2;
  let fatal: TableIssue[] | undefined;
  const issues: TableIssue[] = [];
  const records: Record<string, JsonValue>[] = [];
  const stop = (problems: TableIssue[]): never => {
    fatal = problems;
    throw new StopReading();
  };

  const readHeader = (header: CsvRecord) => {
    const result = headerColumns(header);
    if (!result.ok) stop(result.issues);
    else columns = result.value;
    if (columns!.length > TABLE_LIMITS.columns) {
      stop([{ path: ['input'], message: `too many columns: the header has ${count(columns!.length)}; at most ${count(TABLE_LIMITS.columns)}` }]);
    }
    keyCost = columns!.map((name) => JSON.stringify(name).length + 4);
    // Plain assignment would set the prototype for a column named "__proto__"; such tables
    // define their properties instead.
    if (columns!.includes('__proto__')) {
      assign = (record, key, value) => Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    }
  };

  const readRow = ({ fields, line }: CsvRecord, names: string[]) => {
    const rows = records.length + issues.length + 1;
    if (rows * names.length > TABLE_LIMITS.cells) {
      stop([{ path: ['input'], message: `too large: at least ${count(rows)} rows × ${count(names.length)} columns = ${count(rows * names.length)} cells; at most ${count(TABLE_LIMITS.cells)}` }]);
    }
    if (fields.length > Math.max(names.length, 1) || (names.length === 0 && (fields[0]?.text !== '' || fields[0]?.quoted))) {
      issues.push({ path: ['input'], message: `line ${line} has ${fields.length} field(s) but the header has ${names.length} column(s); every row may have at most as many fields as the header` });
      return;
    }
    const record: Record<string, JsonValue> = {};
    const width = Math.min(fields.length, names.length);
    for (let column = 0; column < width; column += 1) {
      const field = fields[column]!;
      let value: JsonValue | undefined;
      try {
        value = readCell(field);
      } catch (error) {
        if (!(error instanceof CellValueError)) throw error;
        issues.push({ path: ['input'], message: `line ${line}, column ${JSON.stringify(names[column])}: ${error.message}` });
        continue;
      }
      if (value === undefined) continue;
      assign(record, names[column]!, value);
      outputLength += keyCost[column]! + field.text.length;
    }
    outputLength += 3;
    if (outputLength > TABLE_LIMITS.outputCharacters) {
      stop([{ path: ['input'], message: `too large: the JSON answer would be longer than about ${count(TABLE_LIMITS.outputCharacters)} characters (every row repeats the column names)` }]);
    }
    records.push(record);
  };

  try {
    forEachCsvRecord(text, (record) => {
      if (columns === undefined) readHeader(record);
      else readRow(record, columns);
      if (issues.length >= MAX_ISSUES) throw new StopReading();
    }, TABLE_LIMITS.cells + TABLE_LIMITS.columns);
  } catch (error) {
    if (!(error instanceof StopReading)) return { ok: false, issues: [readFailure(error)] };
  }
  if (fatal) return { ok: false, issues: fatal };
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { records, columns: columns ?? [], rows: records.length } };
}
