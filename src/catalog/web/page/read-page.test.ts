import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ToolError } from '../../tool.ts';
import { readHtmlPage, readPdfPage, readTextPage } from './read-page.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/pages/${name}`, import.meta.url), 'utf8');

describe('readHtmlPage', () => {
  const read = readHtmlPage(fixture('article.html'), 'https://kitchen.example.com/articles/sourdough-winter');

  it('reads the article Readability finds, as Markdown, without the page around it', () => {
    assert.equal(read.readability, true);
    assert.match(read.markdown, /^By Mara Okafor\n\nA sourdough starter is a small colony/);
    assert.match(read.markdown, /\n## Feeding ratios\n/);
    assert.match(read.markdown, /\| Starter \| Flour \| Water \| Rest \|\n\| --- \| --- \| --- \| --- \|\n\| 1 part \| 5 parts \| 5 parts \| 12 hours \|/);
    assert.match(read.markdown, /```python\ndef ready\(height_before, height_after\):\n {4}return height_after >= 2 \* height_before\n```/);
    assert.match(read.markdown, /!\[A finished loaf\]\(https:\/\/kitchen\.example\.com\/images\/loaf\.png\)/);
    for (const chrome of ['Newsletter', 'Privacy', 'Recipes', '© 2024']) assert.ok(!read.markdown.includes(chrome), chrome);
    assert.ok(read.wordCount > 200 && read.wordCount < 300, String(read.wordCount));
  });

  it('takes its metadata from the page', () => {
    assert.deepEqual(
      { ...read, markdown: undefined, wordCount: undefined, links: undefined },
      {
        title: 'Tending a sourdough starter through winter',
        byline: 'Mara Okafor, Jon Reyes',
        siteName: 'The Field Kitchen',
        language: 'en-GB',
        description: 'Warmth, feeding ratios and patience: a winter routine for your starter.',
        publishedTime: '2024-01-15T08:30:00Z',
        canonicalUrl: 'https://kitchen.example.com/articles/sourdough-winter',
        excerpt: 'Warmth, feeding ratios and patience: a winter routine for your starter.',
        readability: true,
        pages: null,
        markdown: undefined,
        wordCount: undefined,
        links: undefined,
      },
    );
  });

  it('lists the content links once each, absolute, without in-page anchors or navigation', () => {
    assert.deepEqual(read.links, [
      { text: 'our proofing box guide', url: 'https://kitchen.example.com/articles/proofing-box' },
      { text: 'the science of fermentation', url: 'https://bread.example.org/science' },
    ]);
  });

  it('falls back to the body without navigation, header, footer and aside when there is no article', () => {
    const page = `<!doctype html><html lang="de"><head><title>Links</title></head><body>
      <header><a href="/">Home</a></header><nav><a href="/a">A</a><a href="/b">B</a></nav>
      <main><h1>Useful links</h1><ul><li><a href="https://one.example.org/">One</a></li><li><a href="two.html">Two</a></li></ul></main>
      <aside>Sidebar</aside><footer>Footer text</footer><script>var tracking = 1;</script></body></html>`;
    const read = readHtmlPage(page, 'https://links.example.com/list/');
    assert.equal(read.readability, false);
    assert.equal(read.markdown, '# Useful links\n\n-   [One](https://one.example.org/)\n-   [Two](https://links.example.com/list/two.html)');
    assert.deepEqual(read.links.map((link) => link.url), ['https://one.example.org/', 'https://links.example.com/list/two.html']);
    assert.deepEqual([read.title, read.language, read.wordCount], ['Links', 'de', 4]);
    assert.equal(read.excerpt, 'Useful links One Two');
  });

  it('uses the first <h1> as the title of a page with no title at all', () => {
    const read = readHtmlPage('<body><h1>Notes</h1><p>Short.</p></body>', 'https://n.example.com/');
    assert.equal(read.title, 'Notes');
    // Readability demotes <h1> to <h2> in the article it returns, as Firefox's Reader View does.
    assert.equal(read.markdown, '## Notes\n\nShort.');
  });

  it('counts words in text without spaces', () => {
    const read = readHtmlPage('<html lang="ja"><body><p>明日の東京は一日中晴れるでしょう。</p></body></html>', 'https://tenki.example.jp/');
    assert.ok(read.wordCount >= 5, String(read.wordCount));
  });
});

describe('readTextPage', () => {
  it('keeps plain text as it is, with its bare links', () => {
    const text = 'Release 2.1\n\nDownload from https://dl.example.org/2.1/tool.tgz. Docs: https://docs.example.org/.\n';
    const read = readTextPage(text, 'https://dl.example.org/notes.txt', 'text/plain; charset=utf-8');
    assert.equal(read.markdown, text);
    assert.equal(read.title, null);
    assert.deepEqual(read.links, [
      { text: 'https://dl.example.org/2.1/tool.tgz', url: 'https://dl.example.org/2.1/tool.tgz' },
      { text: 'https://docs.example.org/', url: 'https://docs.example.org/' },
    ]);
    assert.equal(read.wordCount, 7);
    assert.equal(read.readability, false);
  });

  it('keeps Markdown as it is, titled by its first heading, with its links absolute', () => {
    const text = '# Install guide\n\nSee [the FAQ](../faq.md "FAQ") and ![logo](logo.png).\n\n## Steps\n\nRun it.';
    const read = readTextPage(text, 'https://docs.example.org/guide/install.md', 'text/markdown');
    assert.equal(read.markdown, text);
    assert.equal(read.title, 'Install guide');
    assert.deepEqual(read.links, [{ text: 'the FAQ', url: 'https://docs.example.org/faq.md' }]);
    assert.equal(read.excerpt, 'See [the FAQ](../faq.md "FAQ") and ![logo](logo.png). Run it.');
    assert.equal(readTextPage(text, 'https://raw.example.org/README.md', 'text/plain').title, 'Install guide');
  });

  it('pretty-prints JSON in a json fence', () => {
    const read = readTextPage('{"name":"tool","tags":["a","b"],"note":"has ``` in it"}', 'https://api.example.org/x', 'application/json');
    assert.equal(read.markdown, '````json\n{\n  "name": "tool",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "note": "has ``` in it"\n}\n````');
    assert.equal(readTextPage('{broken', 'https://api.example.org/x', 'application/ld+json').markdown, '```json\n{broken\n```');
  });
});

/** A PDF written by hand: one Helvetica text line per page, an Info dictionary, optional link annotations. */
function minimalPdf(pages: { text: string; link?: string }[], info: string): Uint8Array {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', info];
  const kids: string[] = [];
  for (const page of pages) {
    const stream = `BT /F1 12 Tf 72 720 Td (${page.text}) Tj ET`;
    const contents = objects.length + 2;
    const annotation = page.link ? objects.length + 3 : null;
    kids.push(`${objects.length + 1} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R${annotation ? ` /Annots [${annotation} 0 R]` : ''} >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    if (page.link) objects.push(`<< /Type /Annot /Subtype /Link /Rect [72 700 300 732] /Border [0 0 0] /A << /S /URI /URI (${page.link}) >> >>`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = out.length;
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

describe('readPdfPage', () => {
  it('reads the text of every page, the title and author, and the links', async () => {
    const pdf = minimalPdf(
      [{ text: 'Quarterly report on tea prices', link: 'https://tea.example.org/data' }, { text: 'Second page with the summary' }],
      '<< /Title (Tea prices 2024) /Author (Ana Lima) /Subject (Market notes) /CreationDate (D:20240115083000Z) >>',
    );
    const read = await readPdfPage(pdf, 'https://tea.example.org/report.pdf');
    assert.deepEqual(read, {
      title: 'Tea prices 2024',
      byline: 'Ana Lima',
      siteName: null,
      language: null,
      description: 'Market notes',
      publishedTime: '2024-01-15T08:30:00.000Z',
      canonicalUrl: null,
      markdown: 'Quarterly report on tea prices\n\n---\n\nSecond page with the summary',
      wordCount: 10,
      links: [{ text: 'https://tea.example.org/data', url: 'https://tea.example.org/data' }],
      excerpt: 'Quarterly report on tea prices Second page with the summary',
      readability: false,
      pages: 2,
    });
    assert.equal(pdf[0], 0x25, 'the caller keeps its bytes');
  });

  it('refuses bytes that are not a PDF with a 422', async () => {
    await assert.rejects(readPdfPage(new TextEncoder().encode('%PDF-1.4 nothing else'), 'https://x.example.org/a.pdf'), (error: unknown) => error instanceof ToolError && error.status === 422 && error.code === 'unreadable_pdf');
  });
});
