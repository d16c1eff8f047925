import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { testContext } from '../../../test/support/tool-context.ts';
import { ToolError, type ToolContext } from '../tool.ts';
import { distillTool } from './distill.ts';
import { detectFormat } from './distill/detect-format.ts';
import { BUDGETS, outputBudget } from './distill/budget.ts';
import type { Distillation } from './distill/distill-document.ts';
import { extractDates, extractEntities, extractNumbers } from './distill/facts.ts';
import { readHtml } from './distill/read-html.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { readText } from './distill/read-text.ts';
import { splitSentences } from './distill/sentences.ts';
import { tokenCounter } from './distill/token-count.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date('2026-11-21T00:00:00Z'), caller: { ip: '127.0.0.1' } });

async function distill(raw: unknown, context: ToolContext = ctx): Promise<Distillation> {
  assert.ok(distillTool.handler);
  return (await distillTool.handler(distillTool.input.parse(raw), context)) as Distillation;
}

const withoutTokens = ({ tokens: _tokens, ...rest }: Distillation) => rest;
const texts = (facts: { text: string }[]) => facts.map((fact) => fact.text);

describe('token counts use o200k_base', () => {
  // Reference counts from js-tiktoken 1.0.21 (an independent port of OpenAI's tiktoken, o200k_base ranks), run on this machine.
  test('agrees with js-tiktoken on known strings', async () => {
    const count = await tokenCounter();
    assert.equal(count('hello world'), 2); // ids [24912, 2375]
    assert.equal(count('Grüße aus München — 東京 🙂'), 8);
    assert.equal(count('{"title":"x"}'), 5);
    assert.equal(count(String(distillTool.example.content)), 39);
  });
});

describe('distill_document on the catalogue example (hand-checked)', () => {
  test('keeps the title, the sentence, its numbers, date and names, and counts its tokens', async () => {
    const answer = await distill(distillTool.example);
    assert.equal(answer.title, 'Quarterly report');
    assert.equal(answer.format, 'html');
    assert.equal(answer.summary, 'Revenue rose 12% to $4.2 million in Q3 2026, driven by API sales in Europe.');
    // The summary (the page's opening) gives its numbers, date and names: the lists do not repeat them.
    assert.deepEqual([answer.numbers, answer.dates, answer.entities], [[], [], []]);
    assert.equal(answer.tokens.input, 39); // js-tiktoken's count, above
    const count = await tokenCounter();
    assert.equal(answer.tokens.output, count(JSON.stringify(withoutTokens(answer))));
    assert.equal(answer.tokens.saved, answer.tokens.input - answer.tokens.output);
    assert.equal(answer.tokens.ratio, Math.round((answer.tokens.output / 39) * 10_000) / 10_000);
    // A one-sentence page is shorter than any structure describing it: the saving is honestly negative.
    assert.ok(answer.tokens.savedPercent < 0);
  });

  test('is deterministic', async () => {
    const content = `# Report\n\n${'The committee met in Geneva on 3 March 2025 and approved a budget of €12 million. '.repeat(3)}\n\nMembers discussed water policy.`;
    assert.deepEqual(await distill({ content }), await distill({ content }));
  });

  test('echoes url, and names an untitled document after its last path segment', async () => {
    const content = 'the quick brown fox jumps over the lazy dog and keeps running across the wide green field until the sun sets behind the distant hills, '.repeat(2);
    const answer = await distill({ content, url: 'https://example.com/blog/the-fox-report.html' });
    assert.equal(answer.url, 'https://example.com/blog/the-fox-report.html');
    assert.equal(answer.title, 'the fox report');
    assert.equal((await distill({ content: 'Short note' })).url, undefined);
  });
});

describe('reading the three formats', () => {
  test('format detection', () => {
    assert.equal(detectFormat('<!DOCTYPE html><html><body><p>x</p></body></html>'), 'html');
    assert.equal(detectFormat('<div><p>one</p><p>two</p></div>'), 'html');
    assert.equal(detectFormat('# Title\n\nSome *text* with a [link](https://x.org).'), 'markdown');
    assert.equal(detectFormat('Title\n=====\n\n- one\n- two\n'), 'markdown');
    assert.equal(detectFormat('Just a plain paragraph of text.\nAnd another line.'), 'text');
    assert.equal(detectFormat('TAR(1)      GNU TAR Manual      TAR(1)\n\nNAME\n       tar - an archiving utility\n'), 'text');
  });

  test('Markdown: headings, list items, code kept apart, link text without its URL, tables as rows', () => {
    const read = readMarkdown([
      '---', 'title: Front matter title', '---', '', '# Guide', '', 'Read the [manual](https://example.com/manual) **first**.', '',
      'Setext Heading', '--------------', '', '- item one', '  continued', '* item `two`', '', '```js', 'const secret = 1;', '```', '',
      '| a | b |', '|---|---|', '| 1 | 2 |', '', '<h2 align="center">Html Heading</h2>',
    ].join('\n'));
    assert.equal(read.title, 'Front matter title');
    assert.deepEqual(read.blocks, [
      { kind: 'heading', level: 1, text: 'Guide' },
      { kind: 'paragraph', text: 'Read the manual first.' },
      { kind: 'heading', level: 2, text: 'Setext Heading' },
      { kind: 'item', text: 'item one continued' },
      { kind: 'item', text: 'item two' },
      { kind: 'code', text: 'const secret = 1;' },
      { kind: 'row', text: 'a | b' },
      { kind: 'row', text: '1 | 2' },
      { kind: 'heading', level: 2, text: 'Html Heading' },
    ]);
    assert.deepEqual(read.codeTerms, ['two']);
  });

  test('plain text: a man page (title from NAME, sections, options as items) and underlined headings', () => {
    const man = readText([
      'TAR(1)                          GNU TAR Manual                          TAR(1)', '', 'NAME', '       tar - an archiving utility', '',
      'DESCRIPTION', '       GNU tar saves many files together into a single tape or disk archive, and can restore', '       individual files from the archive.', '',
      '       -c, --create', '              Create a new archive.', '', 'TAR                              July 13, 2020                          TAR(1)',
    ].join('\n'));
    assert.equal(man.title, 'tar - an archiving utility');
    assert.deepEqual(man.blocks, [
      { kind: 'heading', level: 1, text: 'NAME' },
      { kind: 'paragraph', text: 'tar - an archiving utility' },
      { kind: 'heading', level: 1, text: 'DESCRIPTION' },
      { kind: 'paragraph', text: 'GNU tar saves many files together into a single tape or disk archive, and can restore individual files from the archive.' },
      { kind: 'item', text: '-c, --create — Create a new archive.' },
    ]);
    const spec = readText('Introduction\n------------\n\nA trigger is a facility.\n\n1. Scope\n\nThis text covers triggers.\n');
    assert.deepEqual(spec.blocks.filter((b) => b.kind === 'heading'), [{ kind: 'heading', level: 2, text: 'Introduction' }, { kind: 'heading', level: 1, text: '1. Scope' }]);
  });

  test('plain text: words hyphenated by man at line ends are joined again', () => {
    const read = readText('ssh connects to the host, which may be speci\u2010\n     fied as a URI.\n');
    assert.equal(read.blocks[0]?.text, 'ssh connects to the host, which may be specified as a URI.');
  });

  test('HTML: the article is kept; navigation, scripts, styles and footers are not', () => {
    const paragraph = (n: number) => `<p>Paragraph ${n} explains how the Ninja build system schedules work across cores, why it reads build.ninja files quickly, and what the manifest format allows.</p>`;
    const page = `<!doctype html><html><head><title>Ninja notes</title><style>p{color:red}</style><script>var tracking = 1;</script></head><body>
      <nav><a href="/">Home</a> <a href="/about">About us</a></nav>
      <article><h1>Ninja notes</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join('')}<h2>Details</h2><ul><li>First item of the list</li></ul><pre>ninja -C out</pre></article>
      <footer>Copyright footer text</footer></body></html>`;
    const read = readHtml(page);
    assert.equal(read.title, 'Ninja notes');
    const all = read.blocks.map((b) => b.text).join('\n');
    assert.doesNotMatch(all, /tracking|color:red|Home|About us|Copyright footer/);
    assert.ok(read.blocks.some((b) => b.kind === 'heading' && b.text === 'Details'));
    assert.ok(read.blocks.some((b) => b.kind === 'item' && b.text === 'First item of the list'));
    assert.ok(read.blocks.some((b) => b.kind === 'code' && b.text === 'ninja -C out'));
    assert.equal(read.blocks.filter((b) => b.kind === 'paragraph').length, 6);
  });

  test('HTML fragments are read whole, titled by their first <h1>', () => {
    const read = readHtml('<h1>Hi</h1><p>One short line.</p><ul><li>a point</li></ul>');
    assert.equal(read.title, 'Hi');
    // Readability demotes an article's <h1> to <h2>; only the relative levels of headings matter.
    assert.deepEqual(read.blocks.map(({ kind, text }) => ({ kind, text })), [
      { kind: 'heading', text: 'Hi' },
      { kind: 'paragraph', text: 'One short line.' },
      { kind: 'item', text: 'a point' },
    ]);
  });

  test('HTML without any text is refused by the handler (422), not charged', async () => {
    await assert.rejects(distill({ content: '<div><img src="a.png"><script>var x = 1;</script></div>' }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.equal(error.status, 422);
      assert.equal(error.code, 'no_text_found');
      return true;
    });
  });
});

describe('facts (hand-checked)', () => {
  test('dates in the usual spellings, each counted once', () => {
    const { dates } = extractDates('Signed 29 June 2007. Support ends June 30, 2025; released 2026-11-21 and in Q3 2026, then December 2018 and 10/07/2025. Again 29 June 2007.');
    assert.deepEqual(texts(dates), ['2026-11-21', '29 June 2007', 'June 30, 2025', 'December 2018', 'Q3 2026', '10/07/2025']);
    assert.equal(dates.find((d) => d.text === '29 June 2007')?.count, 2);
  });

  test('numbers with currency, percent, units and versions; plain small numbers are not facts', () => {
    const numbers = texts(extractNumbers('Revenue rose 12% to $4.2 million, €300 and 5 USDC; the cache holds 500 MB for 30 seconds on 30,000 files. Version 3 of the licence, v2.6.30 and 1.2.3-beta.1, and 3 apples.'));
    for (const expected of ['$4.2 million', '€300', '5 USDC', '12%', '500 MB', '30 seconds', '30,000 files', 'Version 3', 'v2.6.30', '1.2.3-beta.1']) {
      assert.ok(numbers.includes(expected), `${expected} in ${JSON.stringify(numbers)}`);
    }
    assert.ok(!numbers.some((n) => n.includes('apples') || n === '3'));
  });

  test('named entities: multi-word names, acronyms, product names, identifiers; not sentence openers or shouting', () => {
    const entities = texts(extractEntities(
      'The Free Software Foundation publishes the GNU General Public License. Copies go to the Bank of England and to OpenSSH users over HTTP/1.1. ' +
      'See CVE-2022-24765 and RFC 3986. THE SOFTWARE IS PROVIDED AS IS. However the API works. We use PyPy in Europe. Z_BUF_ERROR and deflateInit are identifiers.',
    ));
    for (const expected of ['Free Software Foundation', 'GNU General Public License', 'Bank of England', 'OpenSSH', 'HTTP/1.1', 'CVE-2022-24765', 'RFC 3986', 'API', 'PyPy', 'Europe']) {
      assert.ok(entities.includes(expected), `${expected} in ${JSON.stringify(entities)}`);
    }
    for (const unexpected of ['The', 'However', 'We', 'THE SOFTWARE IS PROVIDED AS IS', 'SOFTWARE', 'ERROR', 'Init', 'See']) {
      assert.ok(!entities.includes(unexpected), `${unexpected} is not an entity`);
    }
  });

  test('sentences split at full stops, not after abbreviations, initials or inside numbers', () => {
    assert.deepEqual(splitSentences('Dr. Smith paid $4.2 million, e.g. for rent. J. R. Tolkien wrote it. Is it done? Yes!'), [
      'Dr. Smith paid $4.2 million, e.g. for rent.',
      'J. R. Tolkien wrote it.',
      'Is it done?',
      'Yes!',
    ]);
  });
});

describe('the token budget', () => {
  test(`a long document gets ~${Math.round(BUDGETS.normal.share * 100)}% of its text tokens and keeps its key facts`, async () => {
    const topics = ['solar panels', 'wind turbines', 'battery storage', 'grid upgrades', 'heat pumps', 'hydrogen pilots'];
    const sections = topics.map((topic, i) => [
      `## ${topic[0]!.toUpperCase()}${topic.slice(1)}`, '',
      `In ${2020 + i}, the Northwind Energy Agency invested $${i + 2}.5 million in ${topic} across ${10 + i} regions.`,
      ...Array.from({ length: 12 }, (_, j) => `Engineers measured ${topic} output ${j + 1} times and reported steady gains of ${j + 3}% per year, according to field notes number ${i * 20 + j}.`),
      '',
    ].join('\n'));
    const content = `# Annual energy review\n\nThe Northwind Energy Agency published this review on 14 February 2026.\n\n${sections.join('\n')}`;
    const answer = await distill({ content });
    const count = await tokenCounter();
    assert.equal(answer.tokens.output, count(JSON.stringify(withoutTokens(answer))));
    assert.ok(answer.tokens.output <= answer.tokens.budget, JSON.stringify(answer.tokens));
    assert.equal(answer.tokens.budget, outputBudget(answer.tokens.text, {}, answer.tokens.input));
    assert.ok(answer.tokens.savedPercent >= 100 * (1 - BUDGETS.normal.share) - 5, JSON.stringify(answer.tokens));
    assert.equal(answer.title, 'Annual energy review');
    assert.match(answer.summary, /^The Northwind Energy Agency published this review on 14 February 2026\./);
    // Every section is named: in the outline, or (the first, which the summary reads on into) in the summary.
    for (const topic of topics) assert.ok(answer.outline.some((entry) => entry.toLowerCase() === `## ${topic}`) || answer.summary.includes(topic), topic);
    assert.ok(answer.outline.includes('## Wind turbines'));
  });

  test('a 500,000-character document is distilled within the tool\'s time budget', async () => {
    const paragraph = 'Markets in Asia rose 2% on Tuesday as investors weighed new data from the Bank of Japan and the European Central Bank. ';
    const content = `Market wrap\n\n${`${paragraph.repeat(8)}\n\n`.repeat(Math.floor(500_000 / (paragraph.length * 8 + 2)))}`.slice(0, 500_000);
    const started = performance.now();
    const answer = await distill({ content });
    assert.ok(performance.now() - started < 15_000);
    assert.ok(answer.tokens.savedPercent > 98);
    assert.match(answer.summary, /Bank of Japan/);
  });

  test('an aborted call stops', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(distill({ content: '# T\n\nSome text here for the test.' }, { ...ctx, signal: controller.signal }));
  });
});

describe('real documents from the corpus (the whole corpus runs in distill-corpus.slow.test.ts)', () => {
  const corpus = new URL('../../../test/fixtures/distill-corpus/', import.meta.url);
  const facts = JSON.parse(readFileSync(new URL('facts.json', corpus), 'utf8')) as { documents: Record<string, string[]> };
  for (const file of ['license-apache-2.0.txt', 'man-tar.txt', 'fastify-migration-guide-v5.md', 'zlib-how-to.html']) {
    test(`${file}: saves at least 75% and keeps its facts`, async () => {
      const answer = await distill({ content: readFileSync(new URL(file, corpus), 'utf8') });
      assert.ok(answer.tokens.savedPercent >= 75, JSON.stringify(answer.tokens));
      const distilled = JSON.stringify(withoutTokens(answer)).replace(/\s+/g, ' ').toLowerCase();
      const expected = facts.documents[file]!;
      const kept = expected.filter((fact) => distilled.includes(fact.replace(/\s+/g, ' ').toLowerCase()));
      assert.ok(kept.length >= expected.length - 1, `kept ${JSON.stringify(kept)} of ${JSON.stringify(expected)}`);
    });
  }
});

describe('distill_document refuses bad input in the schema, naming the field', () => {
  const { issuesOf } = schemaIssues(distillTool.input);
  for (const [name, raw, field] of [
    ['content missing', {}, 'content'],
    ['content empty', { content: '' }, 'content'],
    ['content without letters or digits', { content: ' \n !!! -- ?? ' }, 'content'],
    ['content not a string', { content: { html: '<p>x</p>' } }, 'content'],
    ['content over 500,000 characters', { content: 'a'.repeat(500_001) }, 'content'],
    ['content with a lone surrogate', { content: 'text \udc00' }, 'content'],
    ['url not a URL', { content: 'text', url: 'not a url' }, 'url'],
    ['url not http(s)', { content: 'text', url: 'ftp://example.com/doc.txt' }, 'url'],
    ['url not a string', { content: 'text', url: 42 }, 'url'],
  ] as const) {
    test(name, () => assert.deepEqual(issuesOf(raw)[0]?.path, [field]));
  }
  test('the messages say what was expected', () => {
    assert.match(issuesOf({ content: '!!!' })[0]?.message ?? '', /letters or digits/);
    assert.match(issuesOf({ content: 'x', url: 'ftp://x.org' })[0]?.message ?? '', /http:\/\/ or https:\/\//);
  });
});
