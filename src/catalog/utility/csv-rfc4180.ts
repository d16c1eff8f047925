// CSV syntax as RFC 4180 defines it: fields separated by commas, records by line breaks, a field
// that holds a comma, a double quote or a line break enclosed in double quotes with its quotes
// doubled. Only syntax lives here; what a field means (number, null, nested JSON) is csv-cells.ts.
//
// Reading is a little more forgiving than the RFC, in ways that cannot lose data: line breaks may be
// CRLF, LF or a lone CR; a leading byte order mark is skipped; a double quote in the middle of an
// unquoted field is kept as a character. What would lose data is refused: an unterminated quoted
// field, or text after a closing quote.

/** One field as written: its text (quotes removed) and whether it was enclosed in quotes. */
export interface CsvField {
  text: string;
  quoted: boolean;
}

/** One record: its fields, and the line it starts on (1-based, counting line breaks inside quoted fields). */
export interface CsvRecord {
  fields: CsvField[];
  line: number;
}

export const CSV_LINE_BREAK = '\r\n';

export class CsvSyntaxError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(`line ${line}, column ${column}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

export class CsvTooManyFieldsError extends Error {
  constructor(readonly maxFields: number, readonly line: number) {
    super(`more than ${maxFields} fields (reached at line ${line})`);
    this.name = 'CsvTooManyFieldsError';
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const BYTE_ORDER_MARK = '\ufeff';

/**
 * Splits a CSV text into records of fields. A line break that ends the text ends the last record
 * (it does not start an empty one); every other line, blank ones included, is a record. The empty
 * text has no records. Stops with CsvTooManyFieldsError past `maxFields` fields in all.
 */
export function readCsv(text: string, maxFields = Number.POSITIVE_INFINITY): CsvRecord[] {
  const records: CsvRecord[] = [];
  forEachCsvRecord(text, (record) => records.push(record), maxFields);
  return records;
}

/**
 * readCsv one record at a time: `visit` sees each record as soon as it is read, so a caller that
 * turns records into something else does not keep every field of a large text alive at once.
 */
export function forEachCsvRecord(text: string, visit: (record: CsvRecord) => void, maxFields = Number.POSITIVE_INFINITY): void {
  const length = text.length;
  let position = text.startsWith(BYTE_ORDER_MARK) ? 1 : 0;
  let line = 1;
  let lineStart = position;
  let fieldCount = 0;
  let record: CsvRecord = { fields: [], line };

  const column = (at: number) => at - lineStart + 1;
  const pushField = (field: CsvField) => {
    fieldCount += 1;
    if (fieldCount > maxFields) throw new CsvTooManyFieldsError(maxFields, line);
    record.fields.push(field);
  };

  if (position >= length) return;
  for (;;) {
    // At the start of a field.
    if (text.charCodeAt(position) === QUOTE) {
      const openedAt = position;
      const openedLine = line;
      const openedColumn = column(openedAt);
      let value = '';
      position += 1;
      for (;;) {
        const close = text.indexOf('"', position);
        if (close === -1) throw new CsvSyntaxError('a quoted field is never closed (a double quote is missing)', openedLine, openedColumn);
        countLineBreaks(position, close);
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += text.slice(position, close + 1);
          position = close + 2;
          continue;
        }
        value += text.slice(position, close);
        position = close + 1;
        break;
      }
      pushField({ text: value, quoted: true });
      const next = position < length ? text.charCodeAt(position) : -1;
      if (next !== -1 && next !== COMMA && next !== CR && next !== LF) {
        throw new CsvSyntaxError('text after the closing double quote of a field (a double quote inside a quoted field must be doubled)', line, column(position));
      }
    } else {
      const start = position;
      while (position < length) {
        const code = text.charCodeAt(position);
        if (code === COMMA || code === CR || code === LF) break;
        position += 1;
      }
      pushField({ text: text.slice(start, position), quoted: false });
    }

    // After a field: a comma, a line break, or the end.
    if (position >= length) {
      visit(record);
      return;
    }
    const code = text.charCodeAt(position);
    if (code === COMMA) {
      position += 1;
      if (position >= length) {
        // "a," ends with an empty last field.
        pushField({ text: '', quoted: false });
        visit(record);
        return;
      }
      continue;
    }
    position += code === CR && text.charCodeAt(position + 1) === LF ? 2 : 1;
    line += 1;
    lineStart = position;
    visit(record);
    record = { fields: [], line };
    if (position >= length) return;
  }

  /** Keeps the line count right across line breaks inside a quoted field, between `from` and `to`. */
  function countLineBreaks(from: number, to: number): void {
    for (let i = from; i < to; i += 1) {
      const code = text.charCodeAt(i);
      if (code === LF || (code === CR && text.charCodeAt(i + 1) !== LF)) {
        line += 1;
        lineStart = i + 1;
      }
    }
  }
}

const needsQuotes = /[",\r\n]|^\s|\s$/;

/**
 * Writes one field. It is enclosed in quotes when asked, or when its text holds a comma, a quote
 * or a line break, or starts or ends with white space (which some readers would trim).
 */
export function writeCsvField(text: string, quote: boolean): string {
  if (!quote && !needsQuotes.test(text)) return text;
  return `"${text.replaceAll('"', '""')}"`;
}
