import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeBody } from '../page/decode-text.ts';
import { extractMetadata } from './extract-metadata.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/pages/${name}`, import.meta.url));
const html = (name: string) => fixture(name).toString('utf8');

describe('extractMetadata on a fully tagged article', () => {
  const page = 'https://kitchen.example.com/articles/sourdough-winter?ref=home';
  const metadata = extractMetadata(html('article.html'), page);

  it('builds the preview from Open Graph, saying so', () => {
    assert.deepEqual(metadata.preview, {
      title: 'Tending a sourdough starter through winter',
      description: 'Warmth, feeding ratios and patience: a winter routine for your starter.',
      image: 'https://kitchen.example.com/images/starter-jar.jpg',
      siteName: 'The Field Kitchen',
      url: 'https://kitchen.example.com/articles/sourdough-winter',
      type: 'article',
      favicon: 'https://kitchen.example.com/favicon-32.png',
    });
    assert.deepEqual(metadata.from, { title: 'og:title', description: 'og:description', image: 'og:image', siteName: 'og:site_name', url: 'og:url', type: 'og:type', favicon: 'icon' });
  });

  it('keeps every og:image with its structured properties, absolute, the restated one once', () => {
    assert.deepEqual(metadata.openGraph.images, [
      { url: 'https://kitchen.example.com/images/starter-jar.jpg', secureUrl: 'https://kitchen.example.com/images/starter-jar.jpg', type: 'image/jpeg', width: 1200, height: 630, alt: 'A glass jar of bubbling starter' },
      { url: 'https://kitchen.example.com/articles/images/loaf.png', secureUrl: null, type: null, width: 800, height: null, alt: null },
      { url: 'https://cdn.example.org/crumb.webp', secureUrl: null, type: null, width: null, height: null, alt: null },
    ]);
    assert.deepEqual(metadata.openGraph.videos, [{ url: 'https://video.example.org/feeding.mp4', secureUrl: null, type: 'video/mp4', width: 1280, height: 720, alt: null }]);
    assert.deepEqual(metadata.openGraph.audios, [{ url: 'https://kitchen.example.com/audio/interview.mp3', secureUrl: null, type: 'audio/mpeg' }]);
  });

  it('lets the first of duplicate single-valued tags win', () => {
    assert.equal(metadata.openGraph.title, 'Tending a sourdough starter through winter');
    assert.equal(metadata.meta.themeColor, '#7a4b2a');
    assert.deepEqual([metadata.openGraph.locale, metadata.openGraph.localeAlternates], ['en_GB', ['fr_FR', 'de_DE']]);
  });

  it('reads the article, X card and standard tags', () => {
    assert.deepEqual(metadata.article, {
      publishedTime: '2024-01-15T08:30:00Z', modifiedTime: '2024-02-01T10:00:00Z', expirationTime: null, section: 'Baking',
      authors: ['https://kitchen.example.com/people/mara'], tags: ['sourdough', 'winter'],
    });
    assert.deepEqual(metadata.twitter, {
      card: 'summary_large_image', site: '@fieldkitchen', siteId: '1234567', creator: '@maraokafor', creatorId: null,
      title: 'Sourdough in winter', description: 'Keep your starter alive until spring.',
      image: 'https://kitchen.example.com/images/twitter-card.jpg', imageAlt: 'Starter jar on a windowsill', player: null,
    });
    assert.deepEqual(metadata.meta, {
      description: 'How to keep a sourdough starter lively when the kitchen is cold.', author: 'Mara Okafor',
      keywords: ['sourdough', 'baking', 'fermentation'], themeColor: '#7a4b2a', robots: 'index, follow, max-image-preview:large',
      generator: 'Handwritten 1.0', applicationName: null, contentLanguage: null,
    });
    assert.equal(metadata.lang, 'en-GB');
    assert.equal(metadata.title, 'Tending a sourdough starter through winter | The Field Kitchen');
  });

  it('summarizes JSON-LD items from @graph', () => {
    assert.deepEqual(metadata.jsonLd, [
      {
        types: ['NewsArticle'], name: null, headline: 'Tending a sourdough starter through winter', description: null,
        datePublished: '2024-01-15T08:30:00Z', dateModified: '2024-02-01T10:00:00Z', authors: ['Mara Okafor', 'Jon Reyes'],
        publisher: 'The Field Kitchen', image: 'https://kitchen.example.com/images/starter-jar.jpg', url: null,
      },
      {
        types: ['WebSite', 'Thing'], name: 'The Field Kitchen', headline: null, description: null, datePublished: null,
        dateModified: null, authors: [], publisher: null, image: null, url: 'https://kitchen.example.com/',
      },
    ]);
    assert.equal(metadata.invalidJsonLdBlocks, 0);
  });

  it('finds the canonical URL, icons, oEmbed endpoints and feeds', () => {
    assert.equal(metadata.canonical, 'https://kitchen.example.com/articles/sourdough-winter');
    assert.deepEqual(metadata.icons, [
      { url: 'https://kitchen.example.com/favicon-32.png', rel: 'icon', sizes: '32x32', type: 'image/png', fallback: false },
      { url: 'https://kitchen.example.com/favicon.ico', rel: 'shortcut icon', sizes: null, type: null, fallback: false },
      { url: 'https://kitchen.example.com/apple-touch-icon.png', rel: 'apple-touch-icon', sizes: '180x180', type: null, fallback: false },
    ]);
    assert.deepEqual(metadata.oembed, [
      { url: 'https://kitchen.example.com/oembed?url=https%3A%2F%2Fkitchen.example.com%2Farticles%2Fsourdough-winter&format=json', format: 'json', title: 'Tending a sourdough starter' },
      { url: 'https://kitchen.example.com/oembed?url=https%3A%2F%2Fkitchen.example.com%2Farticles%2Fsourdough-winter&format=xml', format: 'xml', title: null },
    ]);
    assert.deepEqual(metadata.feeds, [
      { url: 'https://kitchen.example.com/feed.rss', format: 'rss', title: 'The Field Kitchen (RSS)' },
      { url: 'https://kitchen.example.com/feed.atom', format: 'atom', title: 'The Field Kitchen (Atom)' },
    ]);
  });
});

describe('extractMetadata on faulty and sparse pages', () => {
  it('resolves every URL against <base href>, and keeps secure_url only when it is https', () => {
    const metadata = extractMetadata(html('base-href.html'), 'https://www.example.net/releases/');
    assert.equal(metadata.baseUrl, 'https://static.example.net/site/v3/');
    assert.deepEqual(metadata.openGraph.images, [{ url: 'https://static.example.net/site/v3/img/preview.png', secureUrl: null, type: null, width: null, height: null, alt: null }]);
    assert.equal(metadata.openGraph.url, 'https://static.example.net/notes/');
    assert.equal(metadata.canonical, 'https://static.example.net/site/v3/notes/current');
    assert.equal(metadata.preview.favicon, 'https://static.example.net/site/v3/icons/favicon.svg');
    assert.deepEqual(metadata.feeds, [{ url: 'https://static.example.net/site/v3/feed.json', format: 'json', title: 'JSON Feed' }]);
    assert.deepEqual([metadata.preview.siteName, metadata.from.siteName], ['example.net', 'hostname']);
  });

  it('falls back to the HTML title, meta description and /favicon.ico, flagged', () => {
    const metadata = extractMetadata(html('bare.html'), 'https://plain.example.org/a/b');
    assert.deepEqual(metadata.preview, {
      title: 'Plain page', description: 'A page with no Open Graph or card tags at all.', image: null, siteName: 'Plain Site',
      url: 'https://plain.example.org/a/b', type: 'website', favicon: 'https://plain.example.org/favicon.ico',
    });
    assert.deepEqual(metadata.from, { title: 'title', description: 'description', image: null, siteName: 'application-name', url: 'page', type: 'default', favicon: 'favicon.ico' });
    assert.deepEqual(metadata.icons, [{ url: 'https://plain.example.org/favicon.ico', rel: 'icon', sizes: null, type: null, fallback: true }]);
    assert.equal(metadata.h1, 'Welcome to the plain page');
  });

  it('takes the first <h1> when nothing else names the page', () => {
    const metadata = extractMetadata('<html><body><h1> Only a heading </h1></body></html>', 'https://h.example.com/');
    assert.deepEqual([metadata.preview.title, metadata.from.title], ['Only a heading', 'h1']);
  });

  it('accepts Open Graph written with name=, X cards with value= and the old twitter:image:src', () => {
    const metadata = extractMetadata(html('name-attributes.html'), 'https://n.example.com/post');
    assert.equal(metadata.openGraph.title, 'Written with name=');
    assert.equal(metadata.openGraph.description, 'Open Graph properties given with the name attribute.');
    assert.equal(metadata.openGraph.type, 'website');
    assert.equal(metadata.openGraph.images[0]?.url, 'https://n.example.com/share.jpg');
    assert.equal(metadata.twitter.card, 'summary');
    assert.equal(metadata.twitter.image, 'https://n.example.com/legacy-card.jpg');
    assert.deepEqual([metadata.openGraph.siteName, metadata.meta.description], ['Shared by name and property', 'Shared by name and property']);
    assert.equal(metadata.lang, 'pt-BR');
  });

  it('skips JSON-LD that is not JSON, unwraps comment-wrapped blocks and flattens arrays', () => {
    const metadata = extractMetadata(html('broken-json-ld.html'), 'https://j.example.com/recipes/loaf');
    assert.equal(metadata.invalidJsonLdBlocks, 2);
    assert.deepEqual(metadata.jsonLd.map((item) => [item.types, item.name, item.authors]), [
      [['Recipe'], 'Winter loaf', ['Jon Reyes']],
      [['BreadcrumbList'], null, []],
      [['Organization'], "Bakers' Guild", []],
      [['Thing'], 'Proto test', []],
    ]);
    assert.equal(metadata.jsonLd[0]?.image, 'https://j.example.com/loaf.jpg');
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual([metadata.preview.title, metadata.from.title], ['Winter loaf', 'json-ld']);
    assert.deepEqual([metadata.preview.image, metadata.from.image], ['https://j.example.com/loaf.jpg', 'json-ld']);
    assert.equal(metadata.title, null, 'an SVG <title> is not the page title');
  });

  it('reads a windows-1252 page once its bytes are decoded', () => {
    const decoded = decodeBody(fixture('windows-1252.html'), 'text/html');
    assert.deepEqual([decoded.charset, decoded.charsetSource], ['windows-1252', 'meta']);
    const metadata = extractMetadata(decoded.text, 'http://recettes.example.fr/desserts/');
    assert.equal(metadata.preview.title, 'Crème brûlée — « la vraie »');
    assert.equal(metadata.preview.description, 'Sucre caramélisé, vanille et 120 g de crème… Coût : 5 €.');
    assert.equal(metadata.preview.image, 'http://recettes.example.fr/desserts/images/cr%C3%A8me.jpg');
    assert.equal(metadata.title, 'Crème brûlée — la recette');
  });

  it('reads a Shift_JIS page once its bytes are decoded', () => {
    const decoded = decodeBody(fixture('shift_jis.html'), 'text/html');
    assert.deepEqual([decoded.charset, decoded.charsetSource], ['shift_jis', 'meta']);
    const metadata = extractMetadata(decoded.text, 'https://tenki.example.jp/tokyo');
    assert.deepEqual([metadata.preview.title, metadata.preview.siteName, metadata.preview.description], ['東京の天気：明日は晴れ', '気象ニュース', '明日の東京は一日中晴れるでしょう。']);
    assert.equal(metadata.preview.image, 'https://tenki.example.jp/%E7%94%BB%E5%83%8F/%E6%99%B4%E3%82%8C.png');
    assert.equal(metadata.lang, 'ja');
  });
});
