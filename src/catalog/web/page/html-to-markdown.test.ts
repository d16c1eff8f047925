import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from './html-to-markdown.ts';

const PAGE = 'https://example.com/docs/guide/intro.html';
const md = (html: string, base = PAGE) => htmlToMarkdown(html, base);

describe('htmlToMarkdown', () => {
  it('writes ATX headings, emphasis, blockquotes and nested lists', () => {
    const out = md('<h1>Title</h1><h3>Sub</h3><p>Some <strong>bold</strong>, <em>soft</em> and <del>gone</del>.</p><blockquote><p>Quoted</p></blockquote><ul><li>one<ul><li>one.a</li></ul></li><li>two</li></ul><ol><li>first</li><li>second</li></ol>');
    assert.equal(
      out,
      [
        '# Title', '', '### Sub', '', 'Some **bold**, *soft* and ~~gone~~.', '', '> Quoted', '',
        '-   one', '    -   one.a', '-   two', '', '1.  first', '2.  second',
      ].join('\n'),
    );
  });

  it('writes GFM tables', () => {
    const out = md('<table><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody><tr><td>Tea</td><td>2 | 3</td></tr></tbody></table>');
    assert.equal(out, '| Name | Price |\n| --- | --- |\n| Tea | 2 \\| 3 |');
  });

  it('fences code blocks with the language from language-x or lang-x classes', () => {
    assert.equal(md('<pre><code class="hljs language-TypeScript">const a = 1;\nconst b = `x`;\n</code></pre>'), '```typescript\nconst a = 1;\nconst b = `x`;\n```');
    assert.equal(md('<pre class="lang-py"><code>print(1)</code></pre>'), '```py\nprint(1)\n```');
    assert.equal(md('<pre>no language<br>second line</pre>'), '```\nno language\nsecond line\n```');
    assert.equal(md('<pre><code>has ``` inside</code></pre>'), '````\nhas ``` inside\n````');
  });

  it('keeps blank lines inside code blocks while collapsing them elsewhere', () => {
    assert.equal(md('<p>a</p><div><br><br></div><p>b</p><pre><code>x\n\n\n\ny</code></pre>'), 'a\n\nb\n\n```\nx\n\n\n\ny\n```');
  });

  it('makes links and images absolute against the page', () => {
    const out = md('<p><a href="../api/">API</a> <a href="//cdn.example.org/x">cdn</a> <a href="#part">part</a></p><p><img src="img/a.png" alt="A chart"></p>');
    assert.equal(out, '[API](https://example.com/docs/api/) [cdn](https://cdn.example.org/x) [part](https://example.com/docs/guide/intro.html#part)\n\n![A chart](https://example.com/docs/guide/img/a.png)');
  });

  it('respects a <base href> in a whole page', () => {
    const out = md('<html><head><base href="/static/v2/"></head><body><a href="page">p</a><img src="i.png" alt=""></body></html>');
    assert.equal(out, '[p](https://example.com/static/v2/page)![](https://example.com/static/v2/i.png)');
  });

  it('turns javascript: links into text and drops empty links', () => {
    assert.equal(md('<p><a href="javascript:void(0)">Click</a> here <a href="/x"> </a><a href="/y"></a>now</p>'), 'Click here now');
    assert.equal(md('<p><a href="mailto:a@example.com">mail</a></p>'), '[mail](mailto:a@example.com)');
  });

  it('uses the real source of lazy images and drops images without one', () => {
    const out = md('<img src="data:image/gif;base64,R0lGOD" data-src="/big.jpg" alt="Big"><img alt="nothing">');
    assert.equal(out, '![Big](https://example.com/big.jpg)');
  });

  it('drops scripts, styles, forms controls and hidden parts', () => {
    assert.equal(md('<p>Shown</p><script>alert(1)</script><style>p{}</style><div hidden>secret</div><button>Buy</button><noscript>Enable JS</noscript>'), 'Shown');
  });
});
