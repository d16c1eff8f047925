import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import { runRegex } from './regex-engine.mjs';
import { REGEX_LIMITS, REGEX_TIME_LIMIT_MS, type RegexAnswer, regexTool, regexWorkers } from './regex.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx = (signal = new AbortController().signal): ToolContext => (testContext({ signal, now: () => new Date('2025-01-01T00:00:00Z'), caller: { ip: '127.0.0.1' } }));

async function evaluate(raw: unknown, context = ctx()): Promise<RegexAnswer> {
  assert.ok(regexTool.handler);
  return (await regexTool.handler(regexTool.input.parse(raw), context)) as RegexAnswer;
}

async function failure(raw: unknown): Promise<{ error: ToolError; ms: number }> {
  const started = performance.now();
  const error = await evaluate(raw).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
  return { error, ms: performance.now() - started };
}

const brief = (answer: RegexAnswer) => answer.matches.map((m) => [m.index, m.match]);

describe('evaluate_regex: hand-checked matches and replacements', () => {
  test('the documented example: two dates with named groups, reordered by the replacement', async () => {
    const answer = await evaluate(regexTool.example);
    assert.deepEqual(answer.matches, [
      { index: 9, end: 16, match: '2024-05', captures: ['2024', '05'], groups: { year: '2024', month: '05' } },
      { index: 21, end: 28, match: '2025-11', captures: ['2025', '11'], groups: { year: '2025', month: '11' } },
    ]);
    assert.equal(answer.matchCount, 2);
    assert.equal(answer.truncated, false);
    assert.equal(answer.replaced, 'Released 05/2024 and 11/2025');
    assert.equal(answer.textLength, 28);
    assert.equal(answer.flags, 'g');
    assert.match(answer.engine, /^JavaScript RegExp \(V8 /);
    assert.deepEqual(answer.limits, { ...REGEX_LIMITS, timeLimitMs: REGEX_TIME_LIMIT_MS });
  });

  test('a group that does not take part is null; no named groups means no groups field', async () => {
    const answer = await evaluate({ pattern: 'a(b)?c', text: 'ac abc' });
    assert.deepEqual(answer.matches, [
      { index: 0, end: 2, match: 'ac', captures: [null] },
      { index: 3, end: 6, match: 'abc', captures: ['b'] },
    ]);
    assert.equal(answer.replaced, undefined, 'no replacement asked for, none given');
  });

  const cases: { name: string; raw: Record<string, unknown>; matches: [number, string][]; replaced?: string }[] = [
    { name: 'i: case-insensitive', raw: { pattern: 'hello', text: 'Hello HELLO hello', flags: 'gi' }, matches: [[0, 'Hello'], [6, 'HELLO'], [12, 'hello']] },
    { name: 'm: ^ at every line', raw: { pattern: '^\\w+', text: 'one\ntwo\nthree', flags: 'gm' }, matches: [[0, 'one'], [4, 'two'], [8, 'three']] },
    { name: 'without m: ^ only at the start', raw: { pattern: '^\\w+', text: 'one\ntwo', flags: 'g' }, matches: [[0, 'one']] },
    { name: 's: dot matches a newline', raw: { pattern: 'a.b', text: 'a\nb', flags: 's' }, matches: [[0, 'a\nb']] },
    { name: 'without s: it does not', raw: { pattern: 'a.b', text: 'a\nb', flags: 'g' }, matches: [] },
    { name: 'y alone: only at index 0', raw: { pattern: 'a', text: 'baa', flags: 'y' }, matches: [] },
    { name: 'gy: adjacent matches until the first gap', raw: { pattern: 'a', text: 'aaba', flags: 'gy', replacement: 'x' }, matches: [[0, 'a'], [1, 'a']], replaced: 'xxba' },
    { name: 'no g: the first match only, replaced once', raw: { pattern: 'o', text: 'foo boo', flags: '', replacement: '0' }, matches: [[1, 'o']], replaced: 'f0o boo' },
    { name: 'empty matches step one code unit', raw: { pattern: '(?:)', text: 'abc', replacement: '-' }, matches: [[0, ''], [1, ''], [2, ''], [3, '']], replaced: '-a-b-c-' },
    { name: 'empty matches step over a surrogate pair with u', raw: { pattern: '(?:)', text: '😀', flags: 'gu', replacement: '-' }, matches: [[0, ''], [2, '']], replaced: '-😀-' },
    { name: 'and into it without u', raw: { pattern: '(?:)', text: '😀', flags: 'g' }, matches: [[0, ''], [1, ''], [2, '']] },
    { name: 'v: set subtraction', raw: { pattern: '[\\p{L}--[a-z]]', text: 'aBcD', flags: 'gv' }, matches: [[1, 'B'], [3, 'D']] },
    { name: 'lookbehind', raw: { pattern: '(?<=\\$)\\d+', text: 'cost $42 or 7', flags: 'g' }, matches: [[6, '42']] },
    { name: 'backreference', raw: { pattern: '(\\w)\\1', text: 'aabbcd', flags: 'g' }, matches: [[0, 'aa'], [2, 'bb']] },
    { name: '$2, $1 swaps groups', raw: { pattern: '(\\w+) (\\w+)', text: 'John Smith', replacement: '$2, $1' }, matches: [[0, 'John Smith']], replaced: 'Smith, John' },
    { name: '$& and $$', raw: { pattern: 'a', text: 'aba', replacement: '[$&]$$' }, matches: [[0, 'a'], [2, 'a']], replaced: '[a]$b[a]$' },
    { name: '$` and $\'', raw: { pattern: 'b', text: 'abc', replacement: "[$`|$']" }, matches: [[1, 'b']], replaced: 'a[a|c]c' },
    { name: '$<name> without named groups stays literal', raw: { pattern: '(b)', text: 'abc', replacement: '$<x>' }, matches: [[1, 'b']], replaced: 'a$<x>c' },
    { name: '$10 with one group is $1 then 0', raw: { pattern: '(b)', text: 'abc', replacement: '$10' }, matches: [[1, 'b']], replaced: 'ab0c' },
    { name: '$0 and $2 beyond the groups stay literal', raw: { pattern: '(b)', text: 'abc', replacement: '$0$2' }, matches: [[1, 'b']], replaced: 'a$0$2c' },
    { name: 'an unknown $<name> with named groups is empty', raw: { pattern: '(?<x>b)', text: 'abc', replacement: '[$<y>]' }, matches: [[1, 'b']], replaced: 'a[]c' },
    { name: 'no match: the text is unchanged', raw: { pattern: 'z', text: 'abc', replacement: 'Q' }, matches: [], replaced: 'abc' },
    { name: 'an empty text', raw: { pattern: 'a*', text: '', replacement: 'x' }, matches: [[0, '']], replaced: 'x' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const answer = await evaluate(c.raw);
      assert.deepEqual(brief(answer), c.matches);
      assert.equal(answer.matchCount, c.matches.length);
      if (c.replaced !== undefined) assert.equal(answer.replaced, c.replaced);
    });
  }

  test('d: indices of the match, each group and each named group', async () => {
    const answer = await evaluate({ pattern: '(?<x>b)(z)?', text: 'abc', flags: 'gd' });
    assert.deepEqual(answer.matches, [{
      index: 1, end: 2, match: 'b', captures: ['b', null], groups: { x: 'b' },
      indices: [[1, 2], [1, 2], null], groupIndices: { x: [1, 2] },
    }]);
  });
});

describe('evaluate_regex agrees with the engine\'s own matchAll, exec and replace', () => {
  // The reference is the JavaScript engine itself, called the ordinary way in this thread: the tool
  // runs in a worker and builds its replacement by its own implementation of GetSubstitution.
  const patterns = ['a', '(a)(b)?', '(?<x>a)|(?<y>b)', '(?:)', 'a*', '\\b', '(a)|b', '(?<n>.)\\k<n>', '(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)', 'x*?', '^', '$', '(?=a)', '[😀-😎]', '.', '(b)(a)', '\\p{L}+'];
  const flagSets = ['g', '', 'gi', 'gu', 'y', 'gy', 'gm', 'gs', 'gd', 'u', 'gv', 'd'];
  const templates = ['$', '$$', '$&', '$`', "$'", '$0', '$00', '$1', '$01', '$10', '$11', '$2', '$99', '$<x>', '$<y>', '$<n>', '$<', '$<zz>', 'Q', '>', '$<x', '$a'];
  const alphabet = ['a', 'b', 'x', '😀', '\ud83d', 'A', '\n', ' ', 'é'];
  let seed = 20250101;
  const below = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const randomCase = () => ({
    pattern: patterns[below(patterns.length)]!,
    flags: flagSets[below(flagSets.length)]!,
    text: Array.from({ length: below(14) }, () => alphabet[below(alphabet.length)]).join(''),
    replacement: Array.from({ length: below(5) }, () => templates[below(templates.length)]).join(''),
  });
  const reference = ({ pattern, flags, text, replacement }: ReturnType<typeof randomCase>) => {
    const regex = new RegExp(pattern, flags);
    const found = regex.global ? [...text.matchAll(regex)] : [regex.exec(text)].filter((m): m is RegExpExecArray => m !== null);
    return {
      matches: found.map((m) => ({ index: m.index, match: m[0], captures: m.slice(1).map((c) => c ?? null), groups: m.groups ? Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v ?? null])) : undefined })),
      replaced: text.replace(new RegExp(pattern, flags), replacement),
    };
  };
  const compatible = (c: ReturnType<typeof randomCase>) => {
    try {
      new RegExp(c.pattern, c.flags);
      return true;
    } catch {
      return false; // \p{L} without u, for one
    }
  };

  test('on 10,000 random cases, through the engine directly', () => {
    let checked = 0;
    for (let i = 0; i < 10_000; i += 1) {
      const c = randomCase();
      if (!compatible(c)) continue;
      const expected = reference(c);
      const outcome = runRegex({ ...c, limits: REGEX_LIMITS });
      assert.ok(outcome.ok, JSON.stringify(c));
      const where = JSON.stringify(c);
      assert.equal(outcome.replaced, expected.replaced, where);
      assert.equal(outcome.matchCount, expected.matches.length, where);
      assert.deepEqual(
        outcome.matches.map((m) => ({ index: m.index, match: m.match, captures: m.captures, groups: m.groups })),
        expected.matches,
        where,
      );
      checked += 1;
    }
    assert.ok(checked > 7_500, `${checked} cases checked`);
  });

  test('on 40 random cases, through the tool and its worker', async () => {
    for (let i = 0; i < 40; i += 1) {
      const c = randomCase();
      if (!compatible(c)) continue;
      const answer = await evaluate(c);
      const expected = reference(c);
      assert.equal(answer.replaced, expected.replaced, JSON.stringify(c));
      assert.deepEqual(answer.matches.map((m) => [m.index, m.match]), expected.matches.map((m) => [m.index, m.match]), JSON.stringify(c));
    }
  });
});

describe('evaluate_regex limits', () => {
  test('lists at most 1000 matches but counts them all', async () => {
    const answer = await evaluate({ pattern: 'a', text: 'a'.repeat(1_500) });
    assert.equal(answer.matchCount, 1_500);
    assert.equal(answer.matches.length, 1_000);
    assert.equal(answer.truncated, true);
    assert.deepEqual(answer.matches.at(-1), { index: 999, end: 1_000, match: 'a', captures: [] });
  });

  test('lists at most 500,000 characters of matches', async () => {
    const answer = await evaluate({ pattern: '.{1000}', text: 'x'.repeat(600_000) });
    assert.equal(answer.matchCount, 600);
    assert.equal(answer.matches.length, 500);
    assert.equal(answer.truncated, true);
  });

  test('a million-character text is searched whole, and a long one replaced whole', async () => {
    const million = await evaluate({ pattern: 'needle', text: `${'hay '.repeat(249_998)}needle!!` });
    assert.equal(million.textLength, 1_000_000);
    assert.deepEqual(brief(million), [[999_992, 'needle']]);
    // 150,000 matches replaced (a million take about half a second, too close to the limit on a busy machine).
    const answer = await evaluate({ pattern: 'b', text: 'ab'.repeat(150_000), replacement: '' });
    assert.equal(answer.matchCount, 150_000);
    assert.equal(answer.replaced, 'a'.repeat(150_000));
  });

  test('a replaced text over 2,000,000 characters is refused with 422 result_too_large', async () => {
    const many = await failure({ pattern: 'a', text: 'a'.repeat(3_000), replacement: '$`' }); // 3000·2999/2 ≈ 4.5 million
    assert.equal(many.error.status, 422);
    assert.equal(many.error.code, 'result_too_large');
    // One match whose template repeats the rest of the text: refused while it grows, not after.
    const one = await failure({ pattern: '^a', text: 'a'.repeat(1_000_000), replacement: "$'".repeat(5_000) });
    assert.equal(one.error.code, 'result_too_large');
    assert.ok(one.ms < 2_000, `${one.ms} ms`);
  });

  test('(a+)+$ on 50,000 a\'s and a "!" is stopped after about a second with 422 regex_timeout', async () => {
    const { error, ms } = await failure({ pattern: '(a+)+$', text: `${'a'.repeat(50_000)}!` });
    assert.equal(error.status, 422);
    assert.equal(error.code, 'regex_timeout');
    assert.match(error.message, /did not finish within 1000 ms .*backtracking catastrophically/);
    assert.deepEqual(error.details, { timeLimitMs: 1_000 });
    assert.ok(ms >= 950 && ms < 2_500, `refused after ${Math.round(ms)} ms`);
  });

  test('other catastrophic shapes, three at once, are stopped the same way', async () => {
    const shapes = [['(a|a)*b', 'a'.repeat(40)], ['(.*)*x', 'y'.repeat(5_000)], ['^(\\w+\\s?)*$', `${'word '.repeat(30)}!`]] as const;
    const failures = await Promise.all(shapes.map(([pattern, text]) => failure({ pattern, text })));
    failures.forEach(({ error, ms }, i) => {
      assert.equal(error.code, 'regex_timeout', shapes[i]![0]);
      assert.ok(ms < 2_500, `${shapes[i]![0]}: ${Math.round(ms)} ms`);
    });
  });

  test('a normal call answers at once while a catastrophic one is running', async () => {
    await evaluate({ pattern: 'x', text: 'x' });
    // The pool keeps two idle workers; after the patterns above it may still be starting them again.
    for (let i = 0; i < 300 && regexWorkers().stats().idle < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(regexWorkers().stats().idle >= 2);
    const started = performance.now();
    let stuckEnded = 0;
    const stuck = failure({ pattern: '(a+)+$', text: `${'a'.repeat(50_000)}!` }).then((f) => {
      stuckEnded = performance.now() - started;
      return f;
    });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the catastrophic one is in its worker
    const quickStarted = performance.now();
    const quick = await evaluate({ pattern: '\\d+', text: 'order 66' });
    const quickMs = performance.now() - quickStarted;
    assert.deepEqual(brief(quick), [[6, '66']]);
    assert.equal(stuckEnded, 0, 'the quick call answered before the catastrophic one was stopped');
    assert.ok(quickMs < 500, `the quick call took ${Math.round(quickMs)} ms`);
    assert.equal((await stuck).error.code, 'regex_timeout');
  });

  test('the caller going away stops the pattern\'s worker', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = evaluate({ pattern: '(a+)+$', text: `${'a'.repeat(50_000)}!` }, ctx(controller.signal)).then(() => undefined, (e: unknown) => e);
    setTimeout(() => controller.abort(new Error('the caller went away')), 200);
    const error = await pending;
    assert.ok(error instanceof Error);
    assert.equal(error.message, 'the caller went away');
    assert.ok(performance.now() - started < 900);
  });
});

describe('evaluate_regex refuses bad input in the schema (free), naming the field', () => {
  const { issuesOf, expectIssue } = schemaIssues(regexTool.input);

  const badPatterns: [string, string, RegExp][] = [
    ['(', 'g', /not a valid JavaScript regular expression: Invalid regular expression: .*Unterminated group/],
    ['[a-', 'g', /Unterminated character class/],
    ['a{2,1}', 'g', /numbers out of order/],
    ['(?<n>a)(?<n>b)', 'g', /Duplicate capture group name/],
    ['a\\', 'g', /\\ at end of pattern/],
    ['\\-', 'gu', /Invalid escape/], // valid without u
    ['(?<=a', 'g', /Invalid regular expression/],
    ['*', 'g', /Nothing to repeat/],
  ];
  for (const [pattern, flags, message] of badPatterns) {
    test(`pattern ${JSON.stringify(pattern)} with ${JSON.stringify(flags)}: the engine's message on pattern`, () => {
      expectIssue({ pattern, text: 'x', flags }, 'pattern', message);
    });
  }

  test('flags: only distinct letters of dgimsuvy, and not u with v', () => {
    expectIssue({ pattern: 'a', text: 'x', flags: 'gg' }, 'flags', /distinct JavaScript regex flags/);
    expectIssue({ pattern: 'a', text: 'x', flags: 'x' }, 'flags', /distinct JavaScript regex flags/);
    expectIssue({ pattern: 'a', text: 'x', flags: 'uv' }, 'flags', /Invalid flags .*u and v cannot be combined/);
    expectIssue({ pattern: 'a', text: 'x', flags: 7 }, 'flags');
  });

  test('a long flags string is refused in linear time (the schema runs in the gateway\'s own thread)', () => {
    const distinct = Array.from({ length: 60_000 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');
    const started = performance.now();
    expectIssue({ pattern: 'a', text: 'x', flags: distinct }, 'flags', /distinct JavaScript regex flags/);
    assert.ok(performance.now() - started < 200, `${Math.round(performance.now() - started)} ms`);
    assert.equal(issuesOf({ pattern: 'a', text: 'x', flags: 'xx' }).length, 1, 'one issue, not two');
  });

  test('pattern, text and replacement: required, strings, within their lengths', () => {
    expectIssue({ text: 'x' }, 'pattern');
    expectIssue({ pattern: '', text: 'x' }, 'pattern');
    expectIssue({ pattern: 'a'.repeat(5_001), text: 'x' }, 'pattern');
    expectIssue({ pattern: 1, text: 'x' }, 'pattern');
    expectIssue({ pattern: 'a' }, 'text');
    expectIssue({ pattern: 'a', text: 42 }, 'text');
    expectIssue({ pattern: 'a', text: 'x'.repeat(1_000_001) }, 'text');
    expectIssue({ pattern: 'a', text: 'x', replacement: 'r'.repeat(10_001) }, 'replacement');
    expectIssue({ pattern: 'a', text: 'x', replacement: null }, 'replacement');
    assert.ok(regexTool.input.safeParse({ pattern: 'a'.repeat(5_000), text: 'x'.repeat(1_000_000), replacement: 'r'.repeat(10_000) }).success);
  });

  test('flags default to g', () => {
    assert.equal(regexTool.input.parse({ pattern: 'a', text: 'x' }).flags, 'g');
  });
});
