import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Papa from 'papaparse';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import { readCsv, writeCsvField } from './csv-rfc4180.ts';
import { TABLE_LIMITS } from './json-csv-table.ts';
import type { TransformAnswer } from './transform.ts';
import { transformTool } from './transform.ts';
import { generateRecords, seededRandom } from './transform-generated-records.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date('2026-03-02T12:00:00Z'), caller: { ip: '127.0.0.1' } });

async function transform(raw: unknown): Promise<TransformAnswer> {
  assert.ok(transformTool.handler);
  return (await transformTool.handler(transformTool.input.parse(raw), ctx)) as TransformAnswer;
}
const toCsv = async (input: unknown) => (await transform({ input, toFormat: 'csv' })).output as string;
const toJson = async (csv: string) => (await transform({ input: csv, toFormat: 'json' })).output as Record<string, unknown>[];

const { issuesOf } = schemaIssues(transformTool.input);

describe('transform_data_format: JSON -> CSV', () => {
  test('the example gives the CSV written by hand', async () => {
    assert.deepEqual(await transform(transformTool.example), {
      toFormat: 'csv',
      output: 'name,city\r\nAda,London\r\nLinus,Helsinki\r\n',
      rows: 2,
      columns: ['name', 'city'],
    });
  });

  test('toFormat defaults to csv, and a JSON array given as text is accepted', async () => {
    const answer = await transform({ input: '[{"a":1},{"b":"x"}]' });
    assert.equal(answer.toFormat, 'csv');
    assert.equal(answer.output, 'a,b\r\n1,\r\n,x\r\n');
  });

  test('quoting follows RFC 4180: commas, quotes, line breaks; hand-written expectations', async () => {
    const csv = await toCsv([{ a: 'x,y', b: 'he said "hi"', c: 'two\nlines', d: 'crlf\r\nhere', e: 'plain' }]);
    assert.equal(csv, 'a,b,c,d,e\r\n"x,y","he said ""hi""","two\nlines","crlf\r\nhere",plain\r\n');
  });

  test('the header is the union of the keys in first-seen order; a missing key is an empty cell', async () => {
    const answer = await transform({ input: [{ b: 1, a: 2 }, { c: 3 }, { a: 4, d: 5 }] });
    assert.deepEqual(answer.columns, ['b', 'a', 'c', 'd']);
    assert.equal(answer.output, 'b,a,c,d\r\n1,2,,\r\n,,3,\r\n,4,,5\r\n');
  });

  test('types are written so they read back: null, booleans, numbers bare; look-alike strings quoted; nested values as JSON', async () => {
    const csv = await toCsv([{ n: null, t: true, f: false, i: 42, x: -1.5, big: 1e21, sn: 'null', st: 'true', s42: '42', e: '', nested: { k: [1, 'two'] }, arr: [], sArr: '[1,2]', s150: '1.50' }]);
    assert.equal(
      csv.split('\r\n')[1],
      'null,true,false,42,-1.5,1e+21,"null","true","42","","{""k"":[1,""two""]}",[],"""[1,2]""",1.50',
    );
  });

  test('an empty array gives the empty text; records without keys give blank lines', async () => {
    assert.equal(await toCsv([]), '');
    assert.equal(await toCsv([{}, {}]), '\r\n\r\n\r\n');
  });

  test('a column named "" is quoted in the header, so it is not taken for "no columns"', async () => {
    assert.equal(await toCsv([{ '': 'v' }]), '""\r\nv\r\n');
  });

  test('the CSV parses with papaparse (an independent RFC 4180 reader) into the same cells', async () => {
    for (let seed = 1; seed <= 100; seed += 1) {
      const records = generateRecords(seed);
      const answer = await transform({ input: records });
      if (records.length === 0) continue;
      // Told the delimiter and line break: its guess is fooled by a header holding a line feed.
      const papa = Papa.parse<string[]>(answer.output as string, { header: false, skipEmptyLines: false, delimiter: ',', newline: '\r\n' });
      assert.deepEqual(papa.errors, [], `seed ${seed}`);
      // papaparse reads the final line break as one more empty row.
      const rows = papa.data.slice(0, -1);
      const ours = readCsv(answer.output as string).map((record) => record.fields.map((field) => field.text));
      assert.deepEqual(rows, ours, `seed ${seed}`);
      assert.deepEqual(rows[0], answer.columns, `seed ${seed}: header`);
    }
  });
});

describe('transform_data_format: CSV -> JSON', () => {
  test('RFC 4180 section 2 examples, read as the RFC says', async () => {
    assert.deepEqual(await toJson('aaa,bbb,ccc\r\nzzz,yyy,xxx\r\n'), [{ aaa: 'zzz', bbb: 'yyy', ccc: 'xxx' }]);
    assert.deepEqual(await toJson('aaa,bbb,ccc\r\nzzz,yyy,xxx'), [{ aaa: 'zzz', bbb: 'yyy', ccc: 'xxx' }], 'the last line break is optional');
    assert.deepEqual(await toJson('h1,h2,h3\r\n"aaa","b\r\nbb","ccc"\r\n'), [{ h1: 'aaa', h2: 'b\r\nbb', h3: 'ccc' }]);
    assert.deepEqual(await toJson('h1,h2,h3\r\n"aaa","b""bb","ccc"\r\n'), [{ h1: 'aaa', h2: 'b"bb', h3: 'ccc' }]);
  });

  test('how types come back: the documented table, cell by cell', async () => {
    const cells: [string, unknown][] = [
      ['42', 42], ['-1.5', -1.5], ['0', 0], ['1e+21', 1e21], ['0.1', 0.1],
      ['007', '007'], ['1.50', '1.50'], ['1e5', '1e5'], ['-0', '-0'], ['+1', '+1'], ['.5', '.5'],
      ['12345678901234567890', '12345678901234567890'], ['NaN', 'NaN'], ['Infinity', 'Infinity'],
      ['null', null], ['true', true], ['false', false], ['TRUE', 'TRUE'], ['Null', 'Null'],
      ['"42"', '42'], ['"null"', 'null'], ['"true"', 'true'], ['""', ''], ['" x "', ' x '],
      ['"{""a"":1}"', { a: 1 }], ['"[1,""two"",null]"', [1, 'two', null]], ['{}', {}], ['[]', []],
      ['"""[1,2]"""', '[1,2]'], ['"""hello"""', '"hello"'], ['"""\\""[]\\"""""', '"[]"'], ['"[1,2"', '[1,2'], ['{oops}', '{oops}'], ['abc', 'abc'], [' padded ', ' padded '],
    ];
    for (const [cell, expected] of cells) {
      assert.deepEqual(await toJson(`v\r\n${cell}\r\n`), [{ v: expected }], `cell ${cell}`);
    }
  });

  test('an empty unquoted cell leaves the key out; short rows leave the trailing keys out', async () => {
    assert.deepEqual(await toJson('a,b,c\n1,,3\n4\n'), [{ a: 1, c: 3 }, { a: 4 }]);
  });

  test('LF, CRLF and lone CR line breaks are accepted; a leading byte order mark is skipped', async () => {
    const expected = [{ a: 1, b: 'x' }, { a: 2, b: 'y' }];
    for (const text of ['a,b\n1,x\n2,y\n', 'a,b\r\n1,x\r\n2,y', 'a,b\r1,x\r2,y\r', '\ufeffa,b\n1,x\n2,y']) {
      assert.deepEqual(await toJson(text), expected, JSON.stringify(text));
    }
  });

  test('a double quote inside an unquoted field is kept as a character', async () => {
    assert.deepEqual(await toJson('height\n5\'11"\n'), [{ height: '5\'11"' }]);
  });

  test('blank lines are records without keys; a header alone gives no records; the empty text gives []', async () => {
    assert.deepEqual(await toJson('a\n1\n\n2\n'), [{ a: 1 }, {}, { a: 2 }]);
    assert.deepEqual(await transform({ input: 'a,b\n', toFormat: 'json' }), { toFormat: 'json', output: [], rows: 0, columns: ['a', 'b'] });
    assert.deepEqual(await toJson(''), []);
  });

  test('a column named __proto__ is an ordinary key of the record', async () => {
    const [record] = await toJson('__proto__,a\nx,1\n');
    assert.ok(record);
    assert.equal(Object.getPrototypeOf(record), Object.prototype);
    assert.deepEqual(Object.keys(record), ['__proto__', 'a']);
    assert.equal(Object.getOwnPropertyDescriptor(record, '__proto__')?.value, 'x');
  });

  test('CSV written by papaparse (quoting every field) reads back as the same strings', async () => {
    const random = seededRandom(7);
    for (let round = 0; round < 100; round += 1) {
      const header = Array.from({ length: 1 + random.int(4) }, (_, i) => `c${i}`);
      const rows = Array.from({ length: 1 + random.int(5) }, () =>
        header.map(() => Array.from({ length: 1 + random.int(4) }, () => random.pick(['a', ',', '"', '\n', '\r\n', 'é', '🙂', ' x', 'y '])).join('')),
      );
      const csv = Papa.unparse([header, ...rows], { quotes: true, newline: '\r\n' });
      const expected = rows.map((row) => Object.fromEntries(row.map((text, i) => [header[i]!, text])));
      assert.deepEqual(await toJson(csv), expected, `round ${round}`);
    }
  });
});

describe('transform_data_format: lossless round trip JSON -> CSV -> JSON', () => {
  test('300 seeded random tables of tricky strings, numbers, nulls, nested values and heterogeneous keys (5,000 in the slow suite)', async () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const records = generateRecords(seed);
      const csv = await toCsv(records);
      assert.deepStrictEqual(await toJson(csv), records, `seed ${seed}: ${JSON.stringify(records).slice(0, 300)}`);
      // The same through the JSON text form of the input.
      assert.equal(await toCsv(JSON.stringify(records)), csv, `seed ${seed}: JSON text input`);
    }
  });

  test('unicode: accents (composed and not), CJK, emoji, right-to-left text, a lone surrogate', async () => {
    const records = [{ 'clé': 'café', 'e\u0301': 'e\u0301', '東京': '日本語', emoji: '👩‍👩‍👧 🙂', rtl: 'مرحبا بالعالم', lone: 'a\ud800b' }];
    assert.deepStrictEqual(await toJson(await toCsv(records)), records);
  });

  test('CSV -> JSON -> CSV gives back canonical CSV unchanged', async () => {
    const csv = 'id,name,tags\r\n1,"Smith, J.","[""a"",""b""]"\r\n2,"",null\r\n3,,true\r\n';
    assert.equal(await toCsv(await toJson(csv)), csv);
  });
});

describe('transform_data_format: bad input is refused before payment, naming the field (only what is cheap to see)', () => {
  const expectIssue = (raw: unknown, path: (string | number)[], message: RegExp) => {
    const issues = issuesOf(raw);
    assert.ok(issues.some((i) => JSON.stringify(i.path) === JSON.stringify(path) && message.test(i.message)), JSON.stringify(issues, null, 1).slice(0, 600));
  };

  test('input missing, or of the wrong type', () => {
    expectIssue({}, ['input'], /required/);
    expectIssue({ input: 42 }, ['input'], /expected a JSON array of objects, or a string.*received a number/);
    expectIssue({ input: { a: 1 } }, ['input'], /received an object/);
    expectIssue({ input: [{ a: 1 }], toFormat: 'xml' }, ['toFormat'], /./);
  });

  test('an element of an array that is not an object is named by its index', () => {
    expectIssue({ input: [{ a: 1 }, [1, 2]] }, ['input', 1], /record 1 is an array/);
    expectIssue({ input: [{ a: 1 }, null] }, ['input', 1], /record 1 is null/);
  });

  test('the wrong direction is refused with the fix, when the first character tells', () => {
    expectIssue({ input: [{ a: 1 }], toFormat: 'json' }, ['input'], /already a JSON array.*set toFormat to csv/);
    expectIssue({ input: 'a,b\n1,2\n', toFormat: 'csv' }, ['input'], /JSON text of an array of objects, starting with "\["; it starts with "a".*set toFormat to json/s);
    expectIssue({ input: ' \n{"a":1}', toFormat: 'csv' }, ['input'], /starts with "\{", a JSON object \(one record: wrap it in \[ \]\)/);
    expectIssue({ input: '  ', toFormat: 'csv' }, ['input'], /it is blank/);
  });

  test('size limits of the input itself: records, characters', () => {
    expectIssue({ input: new Array(TABLE_LIMITS.records + 1).fill({}) }, ['input'], /too many records: 100,001; at most 100,000/);
    expectIssue({ input: 'a'.repeat(TABLE_LIMITS.characters + 1), toFormat: 'json' }, ['input'], /too long: at most 5,000,000 characters/);
  });
});

describe('transform_data_format: validation does not convert', () => {
  test('the records of an array are looked at, never read: no key of any record is listed before the handler runs', async () => {
    let keyReads = 0;
    const counted = (record: Record<string, unknown>) => new Proxy(record, {
      ownKeys: (target) => { keyReads += 1; return Reflect.ownKeys(target); },
      get: (target, key, receiver) => { if (typeof key === 'string') keyReads += 1; return Reflect.get(target, key, receiver) as unknown; },
    });
    const records = Array.from({ length: 2000 }, (_, i) => counted({ id: i, name: `n${i}` }));
    const parsed = transformTool.input.parse({ input: records, toFormat: 'csv' });
    assert.equal(keyReads, 0, 'validation read no record\'s keys or values');
    assert.ok(transformTool.handler);
    await transformTool.handler(parsed, ctx);
    assert.ok(keyReads >= 2000 * 2, 'the handler did the conversion');
  });

  test('a 1 MB CSV whose last line is broken passes validation: only the conversion, after payment, reads that far', () => {
    const row = '12345,"Smith, Jane",3.25,true\n';
    const csv = `id,name,score,active\n${row.repeat(Math.floor(1024 * 1024 / row.length))}1,"never closed\n`;
    assert.equal(transformTool.input.safeParse({ input: csv, toFormat: 'json' }).success, true);
    assert.equal(transformTool.input.safeParse({ input: `[${'{"a":1},'.repeat(100_000)}"x"]`, toFormat: 'csv' }).success, true);
  });
});

describe('transform_data_format: what only the conversion finds is a 400 from the handler (after payment, not charged), naming the field', () => {
  /** The schema takes the input; the handler refuses it. */
  const handlerIssues = async (raw: unknown): Promise<{ field: string; message: string }[]> => {
    const parsed = transformTool.input.safeParse(raw);
    assert.ok(parsed.success, `the schema takes it: ${JSON.stringify(parsed.error?.issues ?? []).slice(0, 300)}`);
    assert.ok(transformTool.handler);
    try {
      await transformTool.handler(parsed.data, ctx);
    } catch (error) {
      assert.ok(error instanceof ToolError && error.status === 400 && error.code === 'invalid_input', String(error));
      return (error.details as { issues: { field: string; message: string }[] }).issues;
    }
    assert.fail('the handler converted it');
  };
  const expectIssue = async (raw: unknown, field: string, message: RegExp) => {
    const issues = await handlerIssues(raw);
    assert.ok(issues.some((i) => i.field === field && message.test(i.message)), JSON.stringify(issues, null, 1).slice(0, 600));
  };

  test('an element of a JSON text that is not an object is named by its index', async () => {
    await expectIssue({ input: '[{"a":1}, "x"]' }, 'input.1', /record 1 is a string/);
  });

  test('a value nested deeper than 64 levels is named by record and key', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i += 1) deep = [deep];
    await expectIssue({ input: [{ ok: 1 }, { deep }] }, 'input.1.deep', /nested more than 64 levels/);
    await expectIssue({ input: `v\n"${JSON.stringify(deep).replaceAll('"', '""')}"\n`, toFormat: 'json' }, 'input', /line 2, column "v": nested more than 64/);
  });

  test('a value that is not JSON (from a direct call) is refused', async () => {
    await expectIssue({ input: [{ n: Number.NaN }] }, 'input.0.n', /NaN is not a JSON number/);
    await expectIssue({ input: [{ d: new Date(0) }] }, 'input.0.d', /Date object is not a JSON value/);
  });

  test('broken CSV names the line and column', async () => {
    await expectIssue({ input: 'a,b\n1,"open\n2,3\n', toFormat: 'json' }, 'input', /line 2, column 3: a quoted field is never closed/);
    await expectIssue({ input: 'a,b\n"x"y,2\n', toFormat: 'json' }, 'input', /line 2, column 4: text after the closing double quote/);
  });

  test('a row wider than the header, and a header naming a column twice', async () => {
    await expectIssue({ input: 'a,b\n1,2,3\n', toFormat: 'json' }, 'input', /line 2 has 3 field\(s\) but the header has 2/);
    await expectIssue({ input: 'a,b,a\n1,2,3\n', toFormat: 'json' }, 'input', /column "a" twice \(columns 1 and 3\)/);
  });

  test('JSON text given as CSV, and JSON text that does not parse, are refused with the fix', async () => {
    await expectIssue({ input: '[{"a":1}]', toFormat: 'json' }, 'input', /is JSON text, not CSV.*set toFormat to csv/);
    await expectIssue({ input: '[{"a":1}', toFormat: 'csv' }, 'input', /this is not JSON .*set toFormat to json/s);
  });

  test('size limits of the table: cells, columns, output', async () => {
    const header = Array.from({ length: 1000 }, (_, i) => `c${i}`).join(',');
    const emptyRow = ','.repeat(999);
    await expectIssue({ input: `${header}\n${`${emptyRow}\n`.repeat(1001)}`, toFormat: 'json' }, 'input', /at least 1,001 rows × 1,000 columns = 1,001,000 cells; at most 1,000,000/);
    await expectIssue({ input: new Array(1001).fill(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`c${i}`, 1]))) }, 'input', /1,001 records × 1,000 columns/);
    await expectIssue({ input: [Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, 1]))] }, 'input', /too many columns: .* 10,001 different keys/);

    // Long column names repeat on every row of the JSON answer: 1 MB of CSV would become ~100 MB.
    const longNames = Array.from({ length: 1000 }, (_, i) => `${'n'.repeat(995)}${String(i).padStart(5, '0')}`).join(',');
    const ones = Array.from({ length: 1000 }, () => '1').join(',');
    await expectIssue({ input: `${longNames}\n${`${ones}\n`.repeat(100)}`, toFormat: 'json' }, 'input', /the JSON answer would be longer than about 20,000,000 characters/);
  });

  test('the message names the field too', async () => {
    assert.ok(transformTool.handler);
    await assert.rejects(
      transformTool.handler({ input: 'a\n"x', toFormat: 'json' }, ctx),
      (error: unknown) => error instanceof ToolError && error.status === 400 && /^input: not valid CSV/.test(error.message),
    );
    await assert.rejects(
      transformTool.handler({ input: [{ a: 1 }, 'x'], toFormat: 'csv' }, ctx),
      (error: unknown) => error instanceof ToolError && /^input\.1: record 1 is a string/.test(error.message),
    );
  });
});

describe('transform_data_format: bounded time and memory', () => {
  test('a 1 MiB CSV (the gateway\'s default body limit) converts both ways within 2 s each (about 0.1-0.3 s measured)', async () => {
    const row = '12345,"Smith, Jane","line one\nline two",3.25,true,,"q""uote",東京\n';
    const csv = `id,name,notes,score,active,empty,quote,city\n${row.repeat(Math.floor(1024 * 1024 / row.length))}`;
    let started = performance.now();
    const records = await toJson(csv);
    const toJsonMs = performance.now() - started;
    started = performance.now();
    await toCsv(records);
    const toCsvMs = performance.now() - started;
    assert.ok(records.length > 10_000);
    assert.ok(toJsonMs < 2000 && toCsvMs < 2000, `CSV->JSON ${toJsonMs.toFixed(0)} ms, JSON->CSV ${toCsvMs.toFixed(0)} ms`);
  });

  test('writeCsvField quotes leading white space, including a byte order mark', () => {
    assert.equal(writeCsvField('\ufeffa', false), '"\ufeffa"');
    assert.equal(writeCsvField(' a', false), '" a"');
    assert.equal(writeCsvField('a', false), 'a');
  });
});
