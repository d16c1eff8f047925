import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { needsRendering } from './needs-rendering.ts';
import { readHtmlPage } from './read-page.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/pages/${name}`, import.meta.url), 'utf8');
const decide = (html: string) => needsRendering(html, readHtmlPage(html, 'https://app.example.com/'));

describe('needsRendering', () => {
  it('renders a React shell: a bundle, an empty #root and a <noscript> asking for JavaScript', () => {
    const decision = decide(fixture('react-shell.html'));
    assert.equal(decision.render, true);
    assert.match(decision.reason, /empty mount point #root/);
    assert.match(decision.reason, /1 external script, 1 bundle and 0 words/);
  });

  it('renders a Vue/Vite shell whose mount point only says "Loading…"', () => {
    const decision = decide(fixture('vue-shell.html'));
    assert.equal(decision.render, true);
    assert.match(decision.reason, /#app/);
    assert.match(decision.reason, /module script/);
  });

  it('renders an Angular shell with an empty <app-root>', () => {
    const decision = decide(fixture('angular-shell.html'));
    assert.deepEqual([decision.render, /<app-root>/.test(decision.reason)], [true, true]);
  });

  it('renders a Next.js page whose __next mount point is empty', () => {
    const html = '<html><head><script src="/_next/static/chunks/main-abc.js" defer></script></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body></html>';
    assert.equal(decide(html).render, true);
  });

  it('renders a page that says in <noscript> that JavaScript is required, without a known mount point', () => {
    const html = '<html><body><noscript>This site requires JavaScript. Please enable it.</noscript><div class="shell"></div><script src="/js/site.js"></script></body></html>';
    const decision = decide(html);
    assert.deepEqual([decision.render, /needs JavaScript/.test(decision.reason)], [true, true]);
  });

  it('renders a page that is empty apart from a module script', () => {
    assert.equal(decide('<html><body><main></main><script type="module" src="/src/main.ts"></script></body></html>').render, true);
  });

  it('does not render a short static page without scripts', () => {
    const decision = decide('<html><head><title>Moved</title></head><body><div id="root"></div><p>This page has moved to the new site.</p></body></html>');
    assert.equal(decision.render, false);
    assert.match(decision.reason, /no scripts/);
  });

  it('does not render a short page whose only script is analytics', () => {
    const decision = decide(fixture('short-static.html'));
    assert.equal(decision.render, false);
    assert.match(decision.reason, /no scripts/);
  });

  it('does not render a short page with scripts when it shows its text and has no empty mount point', () => {
    const html = '<html><body><h1>Status</h1><p>All systems are operating normally. Last checked a minute ago by the monitor.</p><script src="/js/refresh.js"></script></body></html>';
    const decision = decide(html);
    assert.equal(decision.render, false);
    assert.match(decision.reason, /does not look like an application shell/);
  });

  it('does not render a page with enough text, whatever scripts it has', () => {
    const html = `<html><body><div id="root"></div><article><p>${'Plenty of server-rendered words here. '.repeat(20)}</p></article><script type="module" src="/assets/index-1.js"></script></body></html>`;
    const decision = decide(html);
    assert.equal(decision.render, false);
    assert.match(decision.reason, /words of text without rendering/);
  });
});
