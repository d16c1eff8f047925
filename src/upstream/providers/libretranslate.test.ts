import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { libreCode, libretranslate, parseLibre, translateLibre } from './libretranslate.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json' };

describe('parseLibre', () => {
  test('reads translatedText, as in the documented examples (with and without detectedLanguage)', () => {
    assert.deepEqual(parseLibre(fixtureResponse('libretranslate', 'translate.json', JSON_TYPE)), { text: '¡Hola!' });
    assert.deepEqual(parseLibre(fixtureResponse('libretranslate', 'translate-auto.json', JSON_TYPE)), { text: 'Bye!' });
  });

  test('an {"error"} refusal is a bad answer that quotes the reason and keeps the status', () => {
    const unsupported = failureOf(() => parseLibre(fixtureResponse('libretranslate', 'error-not-supported.json', { status: 400, ...JSON_TYPE })));
    assert.equal(unsupported.status, 502);
    assert.equal(unsupported.message, 'LibreTranslate: it refused the translation (HTTP 400: zz is not supported). You were not charged.');
    assert.deepEqual(unsupported.details, { provider: 'LibreTranslate', upstreamStatus: 400 });
    const keyNeeded = failureOf(() => parseLibre(fixtureResponse('libretranslate', 'error-api-key.json', { status: 403, ...JSON_TYPE })));
    assert.match(keyNeeded.message, /HTTP 403: You need to set an API key/);
  });

  test('a 200 without translatedText, or not JSON, is a bad answer', () => {
    assert.match(failureOf(() => parseLibre(rawResponse('{"detectedLanguage":{"confidence":83,"language":"it"}}', JSON_TYPE))).message, /no translatedText/);
    assert.match(failureOf(() => parseLibre(rawResponse('<html>502 Bad Gateway</html>', { contentType: 'text/html' }))).message, /not JSON/);
  });
});

describe('translateLibre', () => {
  test('posts the form fields q, source, target and format=text; the key is the layer\'s to add to the form', async () => {
    const caller = new RecordingCaller(fixtureResponse('libretranslate', 'translate.json', JSON_TYPE));
    const answer = await translateLibre(caller, 'Hello!', 'en', 'es', signal);
    const { provider, request } = caller.only();
    assert.equal(provider, libretranslate);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/translate');
    assert.deepEqual(request.form, { q: 'Hello!', source: 'en', target: 'es', format: 'text' });
    assert.deepEqual(request.acceptStatuses, [400, 403]);
    assert.deepEqual(libretranslate.apiKey, { env: 'TOOLGATE_LIBRETRANSLATE_API_KEY', in: 'form', name: 'api_key', optional: true });
    assert.equal(libretranslate.baseUrl.default, undefined);
    assert.equal(answer.value.text, '¡Hola!');
  });

  test('Traditional Chinese is zh-Hant to LibreTranslate', () => {
    assert.equal(libreCode('zh-TW'), 'zh-Hant');
    assert.equal(libreCode('pt-BR'), 'pt-BR');
    assert.equal(libreCode('de'), 'de');
  });
});
