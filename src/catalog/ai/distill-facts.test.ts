// Issue 24, "distill_document keeps the facts": one test per failure seen on real documents.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';
import type { ToolContext } from '../tool.ts';
import { distillTool } from './distill.ts';
import { BUDGETS, outputBudget } from './distill/budget.ts';
import { detectFormat } from './distill/detect-format.ts';
import type { Distillation } from './distill/distill-document.ts';
import { readDebianChangelog } from './distill/read-debian-changelog.ts';
import { readHtml } from './distill/read-html.ts';
import { inlineText, readMarkdown } from './distill/read-markdown.ts';
import { readTroff } from './distill/read-troff.ts';
import { releasesOf } from './distill/releases.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date('2026-11-21T00:00:00Z'), caller: { ip: '127.0.0.1' } });

async function distill(raw: unknown): Promise<Distillation> {
  assert.ok(distillTool.handler);
  return (await distillTool.handler(distillTool.input.parse(raw), ctx)) as Distillation;
}
const answerText = ({ tokens: _tokens, ...rest }: Distillation) => JSON.stringify(rest);

/** A changelog of many releases, newest first, the oldest ending with a thank-you line. */
function changelog(): string {
  const releases = Array.from({ length: 40 }, (_, i) => {
    const minor = 40 - i;
    const date = `20${String(10 + Math.floor(minor / 4)).padStart(2, '0')}-0${1 + (minor % 9)}-1${minor % 10}`;
    return `${'3.'}${minor}.0 / ${date}\n==================\n\n  * Fix parsing of nested arrays in release ${minor} when the input is long\n  * Update the documentation of the parser options for release ${minor}\n`;
  });
  return `${releases.join('\n')}\n0.1.0 / 2009-01-01\n==================\n\n  * Initial release. Thank you to everyone who helped make this library possible over the years!\n`;
}

describe('changelogs: the newest releases, each with its version, date and entries', () => {
  test('the newest release and its date lead; entries stay with their version; no thank-you line from 2009 as summary', async () => {
    const answer = await distill({ content: changelog() });
    assert.equal(answer.kind, 'changelog');
    assert.equal(answer.releases[0]?.version, '3.40.0');
    assert.equal(answer.releases[0]?.date, '2020-05-10');
    assert.ok(answer.releases[0]?.changes.some((change) => change.includes('release 40')));
    for (const release of answer.releases) for (const change of release.changes) assert.match(change, new RegExp(`release ${release.version.split('.')[1]}\\b`));
    assert.doesNotMatch(answerText(answer), /Thank you|Initial release/);
  });

  test('bold release lines and setext headings are release headers; examples repeating one version are not', () => {
    const bold = readMarkdown('**5.2.5 / 2025-06-08**\n- Export typings\n\n**5.2.4 / 2025-06-06**\n- fix DOCTYPE\n\n**5.0.0 / 2025-02-19**\n- ESM support\n');
    assert.deepEqual(releasesOf(bold.blocks).map((r) => [r.version, r.date, r.changes]), [
      ['5.2.5', '2025-06-08', ['Export typings']],
      ['5.2.4', '2025-06-06', ['fix DOCTYPE']],
      ['5.0.0', '2025-02-19', ['ESM support']],
    ]);
    const examples = readMarkdown('# Ranges\n\n1.2.3 - 2.3.4 := >=1.2.3 <=2.3.4\n\n## 1.2.3\n\nA version.\n\n## 1.2.3\n\nAgain.\n\n## 1.2.3\n\nAnd again.\n');
    assert.deepEqual(releasesOf(examples.blocks), []);
  });

  test('Debian changelogs: each entry its own release, with date and maintainer; sub-entries not fused', () => {
    const read = readDebianChangelog(
      [
        'dbus (1.14.10-1) unstable; urgency=medium', '', '  * New upstream stable release', '    - Fix a dbus-daemon crash during policy reload',
        '    - Report the error correctly', '  * dbus-user-session: Copy XDG_CURRENT_DESKTOP', '', ' -- Simon McVittie <smcv@debian.org>  Fri, 01 Sep 2023 15:41:38 +0100', '',
        'dbus (1.14.8-2) unstable; urgency=high', '', '  * Stop trying to take DPKG_ROOT into account.', '', ' -- Simon McVittie <smcv@debian.org>  Tue, 11 Jul 2023 18:38:22 +0100',
      ].join('\n'),
    );
    assert.equal(read.title, 'dbus Debian changelog');
    assert.deepEqual(read.releases, [
      { version: '1.14.10-1', date: '01 Sep 2023', by: 'Simon McVittie', changes: ['New upstream stable release', 'Fix a dbus-daemon crash during policy reload', 'Report the error correctly', 'dbus-user-session: Copy XDG_CURRENT_DESKTOP'] },
      { version: '1.14.8-2', date: '11 Jul 2023', by: 'Simon McVittie', changes: ['Stop trying to take DPKG_ROOT into account.'] },
    ]);
  });
});

describe('READMEs: read as Markdown, the lead sentence first, no raw markup', () => {
  const readme = [
    '<p align="center"><img src="logo.png" width="200"></p>', '<h1 align="center">quickparse</h1>', '',
    '[![npm](https://img.shields.io/npm/v/quickparse.svg)](https://npm.im/quickparse) [![CI](https://ci/badge.svg)](https://ci)', '',
    'A tiny streaming parser for CSV files.', '',
    '## Install', '', '```sh', 'npm install quickparse', '```', '',
    '## Usage', '', 'Call [`parse()`](#parse) with a stream and an options object; it returns an async iterator of rows, each an array of strings.', '',
    '## Options', '', '* `delimiter`: the field separator. Defaults to `","`.', '* `maxRows`: stop after this many rows. The default is 1000.', '',
    ...Array.from({ length: 12 }, (_, i) => `The parser handles quoted fields, escaped quotes and line breaks inside quotes in mode ${i}, reading one chunk at a time.\n`),
  ].join('\n');

  test('a README carrying HTML is Markdown', () => {
    assert.equal(detectFormat(readme), 'markdown');
    assert.equal(detectFormat('<!doctype html><html><body><h1>x</h1></body></html>'), 'html');
    assert.equal(detectFormat('<div><p>one</p><p>two</p></div>\n<ul><li>a</li><li>b</li></ul>'), 'html');
  });

  test('the lead sentence opens the summary; the install command and options are facts; no "##" or link brackets leak', async () => {
    const answer = await distill({ content: readme });
    assert.equal(answer.format, 'markdown');
    assert.equal(answer.title, 'quickparse');
    assert.match(answer.summary, /^A tiny streaming parser for CSV files\./);
    // A short README's opening holds its install line and options, verbatim; the facts do not repeat them.
    assert.match(answer.summary, /\nnpm install quickparse\n/);
    assert.match(answer.summary, /maxRows: stop after this many rows\. The default is 1000\./);
    assert.ok(!answer.facts.some((fact) => fact.fact === 'npm install quickparse' || fact.fact === 'maxRows'), JSON.stringify(answer.facts));
    // Outline entries are written "## Section" by design; nothing else carries Markdown.
    assert.doesNotMatch(JSON.stringify({ ...answer, outline: [] }), /##|\]\(|!\[|`/);
  });
});

describe('code is verbatim', () => {
  test('underscores in a code span are not emphasis: `__proto__` stays __proto__', () => {
    assert.equal(inlineText('Keys such as `__proto__` and `a_b_c` are skipped, __really__.'), 'Keys such as __proto__ and a_b_c are skipped, really.');
    assert.equal(inlineText('\\_\\_proto\\_\\_ is escaped'), '__proto__ is escaped');
    assert.deepEqual(readMarkdown('Use `__proto__` here.').codeTerms, ['__proto__']);
  });
});

describe('a documentation page keeps what a reader must know', () => {
  test('what a command requires, when it fails, what it deletes and never writes outrank a minor option', async () => {
    const filler = (i: number) => `The ${['colour', 'layout', 'spacing', 'font', 'margin', 'border'][i % 6]} of the report page ${i} can be adjusted with the theme settings of the viewer.`;
    const content = [
      '# prune-cache', '', 'prune-cache removes stale entries from a build cache directory.', '',
      ...Array.from({ length: 10 }, (_, i) => filler(i)), '',
      'The command requires write access to the cache directory and a lock file next to it.', '',
      'It fails with exit status 2 when another prune is running.', '',
      'Entries older than 30 days are deleted.', '',
      'The command never writes outside the cache directory.', '',
      ...Array.from({ length: 10 }, (_, i) => filler(i + 10)), '',
      '## Options', '', '- `--colour`: choose the colour of the progress bar, one of red, green or blue for the output.',
    ].join('\n');
    const answer = await distill({ content, maxTokens: 220 });
    const text = answerText(answer);
    for (const point of ['requires write access', 'exit status 2', 'older than 30 days are deleted', 'never writes outside']) assert.ok(text.includes(point), `${point} in ${text}`);
  });
});

describe('keywords and entities come from the document and never contradict it', () => {
  test('a function the text says the library does not have is not a keyword', async () => {
    const content = `# tinyqs\n\n${'tinyqs parses query strings with parseQuery() and writes them with formatQuery(), keeping arrays and nested keys. '.repeat(6)}\n\nThere is no deepMerge() function: tinyqs does not merge objects.\n`;
    const answer = await distill({ content, detail: 'full' });
    // Named in the opening (the summary), it is not listed again as a keyword.
    assert.match(answer.summary, /parseQuery\(\)/);
    assert.ok(!answer.keywords.some((keyword) => keyword.startsWith('deepMerge')), JSON.stringify(answer.keywords));
  });

  test('fragments of percent-encoded URLs and troff escapes are not figures or names', async () => {
    const content = `# Links\n\n${'See https://example.org/wiki/Caf%C3%A9_%81%A9ri and https://example.org/search?q=A9ri%20x81%25 for the history of the café. '.repeat(4)}\n\nThe café opened in 1920 and serves 40 kinds of coffee.\n`;
    const answer = await distill({ content, detail: 'full' });
    const facts = JSON.stringify([answer.numbers, answer.entities, answer.keywords, answer.facts.map((fact) => fact.fact)]);
    assert.doesNotMatch(facts, /81%|A9ri|C3|x81/);
    const troff = readTroff('.TH NPM 1 "2024" "npm 10.8.2"\n.SH NAME\nnpm \\- package manager\n.SH DESCRIPTION\nReads \\fBpackage.json\\fR and \\fIwrites\\fP the lock file\\(emalways.\n');
    const text = troff.blocks.map((block) => block.text).join(' ');
    assert.match(text, /Reads package\.json and writes the lock file—always\./);
    assert.doesNotMatch(text, /fB|fR|fI|\\/);
  });

  test('navigation link text is dropped: no "src." after a sentence', async () => {
    assert.deepEqual(readHtml('<h1>API</h1><p>To build a form, use networkForm(). <a href="/src/form.js">src</a></p>').blocks.at(-1), { kind: 'paragraph', text: 'To build a form, use networkForm().' });
    assert.equal(inlineText('To build a form, use `networkForm()`. [src](https://x.org/form.js#L10)'), 'To build a form, use networkForm().');
  });
});

describe('man pages from their troff source', () => {
  test('sections, options as "term — meaning", the edition from .TH', () => {
    const read = readTroff(
      ['.TH GZIP 1 "2022-04-07" "gzip 1.12"', '.SH NAME', 'gzip, gunzip \\- compress or expand files', '.SH OPTIONS', '.TP', '.B \\-d \\-\\-decompress', 'Decompress.', '.HP', '\\fB\\-k\\fR, \\fB\\-\\-keep\\fR', '.IP', 'Keep input files.', '.SH "EXIT STATUS"', 'Exit status is normally 0.'].join('\n'),
    );
    assert.equal(read.format, 'troff');
    assert.equal(read.title, 'gzip, gunzip - compress or expand files');
    assert.equal(read.edition, 'gzip 1.12, 2022-04-07');
    assert.deepEqual(read.blocks.filter((block) => block.kind !== 'paragraph'), [
      { kind: 'heading', level: 1, text: 'NAME' },
      { kind: 'heading', level: 1, text: 'OPTIONS' },
      { kind: 'item', text: '-d --decompress — Decompress.' },
      { kind: 'item', text: '-k, --keep — Keep input files.' },
      { kind: 'heading', level: 1, text: 'EXIT STATUS' },
    ]);
    assert.equal(detectFormat(['.TH GZIP 1', '.SH NAME', 'gzip', '.SH SYNOPSIS', '.B gzip', '.SH DESCRIPTION', '.PP', 'text'].join('\n')), 'troff');
  });
});

describe('the budget follows the document and the caller', () => {
  test('detail and maxTokens set the budget, within bounds', () => {
    assert.equal(outputBudget(10_000), Math.round(BUDGETS.normal.share * 10_000));
    assert.equal(outputBudget(10_000, { detail: 'brief' }), Math.round(BUDGETS.brief.share * 10_000));
    assert.equal(outputBudget(10_000, { maxTokens: 300 }), 300);
    assert.equal(outputBudget(10_000, { detail: 'full', maxTokens: 300 }), 300);
    assert.equal(outputBudget(100_000, { detail: 'brief' }), BUDGETS.brief.max);
    assert.equal(outputBudget(500), BUDGETS.normal.min);
  });

  test('an answer stays within maxTokens', async () => {
    const content = `# Notes\n\n${Array.from({ length: 80 }, (_, i) => `Note ${i} says the service answered ${i * 3} requests per second with a latency of ${i + 5} ms in test run ${i}.`).join('\n\n')}`;
    const small = await distill({ content, maxTokens: 150 });
    assert.ok(small.tokens.output <= 150, JSON.stringify(small.tokens));
    const large = await distill({ content, detail: 'full' });
    assert.ok(large.tokens.output > small.tokens.output);
  });

  test('invalid detail or maxTokens is refused naming the field', () => {
    const { issuesOf } = schemaIssues(distillTool.input);
    assert.deepEqual(issuesOf({ content: 'text', detail: 'huge' })[0]?.path, ['detail']);
    assert.deepEqual(issuesOf({ content: 'text', maxTokens: 5 })[0]?.path, ['maxTokens']);
    assert.deepEqual(issuesOf({ content: 'text', maxTokens: 100.5 })[0]?.path, ['maxTokens']);
    assert.deepEqual(issuesOf({ content: 'text', maxTokens: 1_000_000 })[0]?.path, ['maxTokens']);
    assert.deepEqual(issuesOf({ content: 'text', maxTokens: '300' })[0]?.path, ['maxTokens']);
  });
});
