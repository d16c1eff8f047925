// The transform at its limits: time and memory of the largest inputs the schema accepts, and a
// long round-trip property run. Figures are printed as test diagnostics (docs/tools/transform.md).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import { TABLE_LIMITS } from './json-csv-table.ts';
import type { TransformAnswer } from './transform.ts';
import { transformTool } from './transform.ts';
import { generateRecords } from './transform-generated-records.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' } });

async function transform(raw: unknown): Promise<TransformAnswer> {
  assert.ok(transformTool.handler);
  return (await transformTool.handler(transformTool.input.parse(raw), ctx)) as TransformAnswer;
}

/** Runs `work`, returning its time and how much more heap is in use afterwards (its result still held). */
async function measure<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; heapMiB: number }> {
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  return { result, ms, heapMiB };
}

const MAX_MS = 10_000;

describe('transform_data_format at its limits', () => {
  test('5,000,000 characters of ordinary CSV -> JSON -> CSV', async (t) => {
    // Every column holds a value ("" included): a column empty in every row has no key in JSON to come back from.
    const row = '12345,"Smith, Jane","line one\nline two",3.25,true,"","q""uote",東京\n';
    const header = 'id,name,notes,score,active,empty,quote,city\n';
    const rowCount = Math.floor((TABLE_LIMITS.characters - header.length) / row.length);
    const csv = header + row.repeat(rowCount);
    const toJson = await measure(() => transform({ input: csv, toFormat: 'json' }));
    t.diagnostic(`CSV -> JSON: ${csv.length} chars, ${toJson.result.rows} rows in ${toJson.ms.toFixed(0)} ms, heap +${toJson.heapMiB.toFixed(0)} MiB`);
    const toCsv = await measure(() => transform({ input: toJson.result.output, toFormat: 'csv' }));
    t.diagnostic(`JSON -> CSV: ${toJson.result.rows} records in ${toCsv.ms.toFixed(0)} ms, heap +${toCsv.heapMiB.toFixed(0)} MiB`);
    assert.ok(toJson.ms < MAX_MS && toCsv.ms < MAX_MS);
    // Written back canonically: the same text with CRLF record ends (the line feed inside "line one..." stays).
    const crlf = (line: string) => `${line.slice(0, -1)}\r\n`;
    assert.equal(toCsv.result.output, crlf(header) + crlf(row).repeat(rowCount));
  });

  test('one quoted field of almost 5,000,000 characters, full of commas and doubled quotes', async (t) => {
    const csv = `v\n"${'x,""'.repeat(1_249_990)}"\n`;
    const run = await measure(() => transform({ input: csv, toFormat: 'json' }));
    t.diagnostic(`${csv.length} chars in one field: ${run.ms.toFixed(0)} ms, heap +${run.heapMiB.toFixed(0)} MiB`);
    assert.ok(run.ms < MAX_MS);
    assert.deepEqual(run.result.output, [{ v: 'x,"'.repeat(1_249_990) }]);
  });

  test('a million empty cells (the cell limit) and one past it', async (t) => {
    const header = Array.from({ length: 1000 }, (_, i) => `c${i}`).join(',');
    const rows = (n: number) => `${','.repeat(999)}\n`.repeat(n);
    const atLimit = await measure(() => transform({ input: `${header}\n${rows(1000)}`, toFormat: 'json' }));
    t.diagnostic(`1,000 x 1,000 empty cells: ${atLimit.ms.toFixed(0)} ms, heap +${atLimit.heapMiB.toFixed(0)} MiB`);
    assert.equal(atLimit.result.rows, 1000);
    // Found by the conversion, after payment (the schema does not convert).
    const over = await measure(() => transform({ input: `${header}\n${rows(1001)}`, toFormat: 'json' }).then(() => 'converted', (error: unknown) => error));
    t.diagnostic(`1,001 x 1,000: refused in ${over.ms.toFixed(0)} ms`);
    assert.ok(over.result instanceof ToolError && /1,001,000 cells/.test(over.result.message));
  });

  test('100,000 records (the record limit) of ten keys -> CSV', async (t) => {
    const records = Array.from({ length: TABLE_LIMITS.records }, (_, i) => ({
      id: i, name: `name ${i}`, note: i % 7 === 0 ? 'has, comma' : 'plain', score: i / 8, ok: i % 2 === 0,
      tags: ['a', i], missing: null, empty: '', unicode: 'é東🙂', quote: 'say "hi"',
    }));
    const run = await measure(() => transform({ input: records, toFormat: 'csv' }));
    t.diagnostic(`100,000 records: ${run.ms.toFixed(0)} ms, ${(run.result.output as string).length} chars, heap +${run.heapMiB.toFixed(0)} MiB`);
    assert.ok(run.ms < MAX_MS);
  });

  test('5,000 seeded random tables round-trip JSON -> CSV -> JSON', async () => {
    for (let seed = 1; seed <= 5000; seed += 1) {
      const records = generateRecords(seed * 7919);
      const csv = (await transform({ input: records, toFormat: 'csv' })).output as string;
      assert.deepStrictEqual((await transform({ input: csv, toFormat: 'json' })).output, records, `seed ${seed * 7919}`);
    }
  });
});
