import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import type { RawRequest, RawResponse } from '../../upstream/http/http-types.ts';
import { libretranslate } from '../../upstream/providers/libretranslate.ts';
import { mymemory } from '../../upstream/providers/mymemory.ts';
import { fixtureBytes } from '../../upstream/providers/recording-caller.ts';
import { Upstream, type UpstreamSettings } from '../../upstream/upstream.ts';
import { validateInput } from '../validate-input.ts';
import { canonicalCodes, translateTool } from './translate.ts';

type Reply = (request: RawRequest) => { status?: number; body: Buffer | string };

/** A context whose upstream layer is the real one, answering from `reply` instead of the network. */
function contextWith(reply: Reply, settings: Partial<UpstreamSettings> = {}) {
  const requests: RawRequest[] = [];
  const upstream = new Upstream([libretranslate, mymemory], { userAgent: 'toolgate-test', baseUrls: {}, apiKeys: {}, ...settings }, async (request): Promise<RawResponse> => {
    requests.push(request);
    const { status = 200, body } = reply(request);
    return { url: request.url, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), truncated: false, remoteAddress: undefined };
  });
  const deadline = Date.now() + 20_000;
  const ctx = { signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' }, deadline, upstream: upstream.forCall(deadline) } as unknown as ToolContext;
  return { ctx, requests };
}

function parsed(raw: Record<string, unknown>) {
  const verdict = validateInput(translateTool.input, raw);
  assert.ok(verdict.ok, JSON.stringify(verdict));
  return verdict.value;
}

async function run(raw: Record<string, unknown>, reply: Reply, settings: Partial<UpstreamSettings> = {}) {
  const input = parsed(raw);
  translateTool.precheck!(input, { web: { precheck: () => undefined } } as never);
  const { ctx, requests } = contextWith(reply, settings);
  return { answer: (await translateTool.handler!(input, ctx)) as Record<string, unknown>, requests };
}

async function refusal(run_: () => Promise<unknown>): Promise<ToolError> {
  try {
    await run_();
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return error;
  }
  assert.fail('expected a ToolError');
}

// Built in MyMemory's recorded envelope: each piece comes back marked, so joins are visible (not a provider capture).
const markingMyMemory: Reply = (request) => {
  const q = request.url.searchParams.get('q') ?? '';
  return { body: JSON.stringify({ responseData: { translatedText: `[${q}]`, match: q.length > 20 ? 0.75 : 0.9 }, responseStatus: 200 }) };
};

describe('translate_language input', () => {
  test('codes are checked in any letter case; the defaults are en and es', () => {
    assert.deepEqual(parsed({ text: 'Hi' }), { text: 'Hi', sourceLang: 'en', targetLang: 'es' });
    const anyCase = parsed({ text: 'Hi', sourceLang: 'AUTO', targetLang: 'pt-br' }) as Parameters<typeof canonicalCodes>[0];
    assert.deepEqual(canonicalCodes(anyCase), { text: 'Hi', sourceLang: 'auto', targetLang: 'pt-BR' });
  });

  test('an unsupported code, or "auto" as the target, is a 400 that lists the supported codes', () => {
    for (const raw of [{ text: 'Hi', targetLang: 'xx' }, { text: 'Hi', targetLang: 'auto' }, { text: 'Hi', sourceLang: 'klingon' }]) {
      const verdict = validateInput(translateTool.input, raw);
      assert.ok(!verdict.ok);
      assert.match(verdict.issues[0]!.message, /^(targetLang|sourceLang): expected .*one of the supported language codes: af, am, ar, /);
    }
  });

  test('the same language on both sides is refused before payment, naming the field', async () => {
    const error = await refusal(() => run({ text: 'Hello there', sourceLang: 'en', targetLang: 'en' }, markingMyMemory));
    assert.equal(error.status, 400);
    assert.match(error.message, /^targetLang: "en" is also the sourceLang/);
  });

  test('"auto" on a text too short to tell is refused before payment, asking for sourceLang', async () => {
    const error = await refusal(() => run({ text: 'Good morning, how are you?', sourceLang: 'auto', targetLang: 'de' }, markingMyMemory));
    assert.equal(error.status, 400);
    assert.match(error.message, /^sourceLang: the language of the text could not be detected reliably \(best guess "da", confidence 0\.019\)/);
  });
});

describe('translate_language with MyMemory', () => {
  test('translates through the layer: langpair, the contact email added and kept out of source.url, detection reported', async () => {
    const { answer, requests } = await run({ text: 'hello world', sourceLang: 'en', targetLang: 'pt-BR' }, () => ({ body: fixtureBytes('mymemory', 'get-en-pt-br.json') }), {
      apiKeys: { mymemory: 'ops@example.com' },
    });
    assert.equal(requests.length, 1);
    const url = requests[0]!.url;
    assert.equal(url.origin + url.pathname, 'https://api.mymemory.translated.net/get');
    assert.equal(url.searchParams.get('q'), 'hello world');
    assert.equal(url.searchParams.get('langpair'), 'en|pt-BR');
    assert.equal(url.searchParams.get('de'), 'ops@example.com');
    assert.equal(answer.translatedText, 'olá mundo');
    assert.equal(answer.sourceLang, 'en');
    assert.equal(answer.targetLang, 'pt-BR');
    assert.equal(answer.provider, 'mymemory');
    assert.equal(answer.chunks, 1);
    assert.equal(answer.match, 1);
    const source = answer.source as { provider: string; url: string; attribution: string };
    assert.equal(source.provider, 'mymemory');
    assert.ok(!source.url.includes('ops@example.com'), source.url);
    const detected = answer.detected as { language: string | null; reliable: boolean; agreesWithSourceLang: boolean | null };
    // "hello world" is too short for franc to call it English; the answer says so instead of pretending.
    assert.equal(detected.reliable, false);
    assert.equal(typeof detected.agreesWithSourceLang, 'boolean');
  });

  test('the quota notice is a 503 with Retry-After, never a sold translation', async () => {
    const error = await refusal(() => run({ text: 'hello world', targetLang: 'es' }, () => ({ body: fixtureBytes('mymemory', 'quota-warning.json') })));
    assert.equal(error.status, 503);
    assert.equal(error.retryAfterSeconds, 13 * 3600 + 31 * 60 + 45);
    assert.match(error.message, /^MyMemory: its free daily translation quota/);
  });

  test('"auto" translates from the detected language, and reports it with its confidence', async () => {
    const text = 'Guten Morgen! Ich hoffe, dass es dir heute gut geht und dass das Wetter bei euch schön ist.';
    const { answer, requests } = await run({ text, sourceLang: 'auto', targetLang: 'en' }, markingMyMemory);
    assert.equal(answer.sourceLang, 'de');
    assert.equal(requests[0]!.url.searchParams.get('langpair'), 'de|en');
    const detected = answer.detected as { language: string; reliable: boolean; confidence: number };
    assert.equal(detected.language, 'de');
    assert.equal(detected.reliable, true);
    assert.ok(detected.confidence >= 0.1);
    assert.equal(answer.translatedText, `[${text}]`);
  });

  test('a text detected to be in the target language comes back unchanged, with no provider asked', async () => {
    const text = 'Guten Morgen! Ich hoffe, dass es dir heute gut geht und dass das Wetter bei euch schön ist.';
    const { answer, requests } = await run({ text, sourceLang: 'auto', targetLang: 'de' }, markingMyMemory);
    assert.equal(requests.length, 0);
    assert.equal(answer.translatedText, text);
    assert.equal(answer.unchanged, true);
    assert.equal(answer.provider, null);
  });

  test('long text goes in pieces of at most 500 bytes, joined back with its own spaces and line breaks', async () => {
    const sentence = 'This sentence is about forty-five bytes long. ';
    const text = `${sentence.repeat(15).trim()}\n\n${sentence.repeat(2).trim()}\n`;
    const { answer, requests } = await run({ text, sourceLang: 'en', targetLang: 'fr' }, markingMyMemory);
    const sent = requests.map((request) => request.url.searchParams.get('q') ?? '');
    assert.ok(sent.every((q) => Buffer.byteLength(q) <= 500));
    // 15 sentences of 45 bytes + spaces: 10 fit in 500 bytes (10 * 46 - 1 = 459), then 5; the second paragraph is its own piece.
    assert.deepEqual(sent.map((q) => q.split('. ').length), [10, 5, 2]);
    assert.equal(answer.chunks, 3);
    assert.equal(answer.translatedText, `[${sent[0]}] [${sent[1]}]\n\n[${sent[2]}]\n`);
    assert.equal(answer.match, 0.75);
    assert.equal((answer.sources as unknown[]).length, 3);
  });
});

describe('translate_language with LibreTranslate configured', () => {
  const settings = { baseUrls: { libretranslate: 'https://lt.example.net' }, apiKeys: { libretranslate: 'lt-key' } };

  test('the operator\'s instance answers first; its key goes in the form body', async () => {
    const { answer, requests } = await run({ text: 'Hello!', sourceLang: 'en', targetLang: 'es' }, () => ({ body: fixtureBytes('libretranslate', 'translate.json') }), settings);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.method, 'POST');
    assert.equal(requests[0]!.url.href, 'https://lt.example.net/translate');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(String(requests[0]!.body))), { q: 'Hello!', source: 'en', target: 'es', format: 'text', api_key: 'lt-key' });
    assert.equal(answer.translatedText, '¡Hola!');
    assert.equal(answer.provider, 'libretranslate');
    assert.equal(answer.match, null);
  });

  test('when it refuses (a language it has no model for), MyMemory answers and the refusal is listed', async () => {
    const reply: Reply = (request) =>
      request.url.hostname === 'lt.example.net' ? { status: 400, body: fixtureBytes('libretranslate', 'error-not-supported.json') } : { body: fixtureBytes('mymemory', 'get-en-pt-br.json') };
    const { answer } = await run({ text: 'hello world', sourceLang: 'en', targetLang: 'pt-BR' }, reply, settings);
    assert.equal(answer.provider, 'mymemory');
    assert.deepEqual(answer.failedProviders, [{ name: 'LibreTranslate', error: 'LibreTranslate: it refused the translation (HTTP 400: zz is not supported). You were not charged.' }]);
  });
});
