import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mymemory, parseMyMemory, translateMyMemory, waitFromNotice } from './mymemory.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json; charset=utf-8' };

describe('parseMyMemory', () => {
  test('reads the translation and its match quality (a 2017 capture that starts with CRLF)', () => {
    assert.deepEqual(parseMyMemory(fixtureResponse('mymemory', 'get-en-pt-br.json', JSON_TYPE)), { text: 'olá mundo', match: 1 });
    assert.deepEqual(parseMyMemory(fixtureResponse('mymemory', 'get-en-zh.json', JSON_TYPE)), { text: '是或否', match: 0.98 });
  });

  test('the quota notice delivered as the "translation" is a rate limit (503) with the wait it names, never a result', () => {
    const failure = failureOf(() => parseMyMemory(fixtureResponse('mymemory', 'quota-warning.json', JSON_TYPE)));
    assert.equal(failure.status, 503);
    assert.equal(failure.failure, 'rate_limited');
    assert.equal(failure.retryAfterSeconds, 13 * 3600 + 31 * 60 + 45);
    assert.match(failure.message, /^MyMemory: its free daily translation quota/);
  });

  test('any one sign of the quota notice is enough: the warning text, quotaFinished, or responseStatus 429', () => {
    const onlyText = '{"responseData":{"translatedText":"MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS FOR TODAY."},"quotaFinished":null,"responseStatus":200}';
    const onlyFlag = '{"responseData":{"translatedText":"hola"},"quotaFinished":true,"responseStatus":200}';
    const onlyStatus = '{"responseData":{"translatedText":"hola"},"quotaFinished":null,"responseStatus":429}';
    for (const body of [onlyText, onlyFlag, onlyStatus]) {
      const failure = failureOf(() => parseMyMemory(rawResponse(body, JSON_TYPE)));
      assert.equal(failure.failure, 'rate_limited', body);
      assert.equal(failure.retryAfterSeconds, 3600, body);
    }
  });

  test('a refusal with a string status is a bad answer naming the reason, not a translation', () => {
    const sameLanguage = failureOf(() => parseMyMemory(fixtureResponse('mymemory', 'same-language.json', JSON_TYPE)));
    assert.equal(sameLanguage.status, 502);
    assert.match(sameLanguage.message, /status 403: PLEASE SELECT TWO DISTINCT LANGUAGES/);
    assert.match(failureOf(() => parseMyMemory(fixtureResponse('mymemory', 'invalid-target-language.json', JSON_TYPE))).message, /'IL' IS AN INVALID TARGET LANGUAGE/);
    assert.match(failureOf(() => parseMyMemory(fixtureResponse('mymemory', 'invalid-email.json', JSON_TYPE))).message, /INVALID EMAIL PROVIDED/);
  });

  test('an HTML page or an empty translation is a bad answer', () => {
    assert.match(failureOf(() => parseMyMemory(fixtureResponse('mymemory', 'not-found.html', { contentType: 'text/html' }))).message, /not JSON/);
    assert.match(failureOf(() => parseMyMemory(rawResponse('{"responseData":{"translatedText":" "},"responseStatus":200}', JSON_TYPE))).message, /no translatedText/);
  });

  // Entities as translation-memory segments carry them (get-en-zh.json's matches hold "`Yes&apos; or `No&apos;.").
  test('HTML entities in the translation become characters', () => {
    const body = '{"responseData":{"translatedText":"l&apos;eau &amp; le vin &#233;t&#xE9;","match":0.85},"responseStatus":200}';
    assert.deepEqual(parseMyMemory(rawResponse(body, JSON_TYPE)), { text: "l'eau & le vin été", match: 0.85 });
  });
});

describe('waitFromNotice', () => {
  test('reads hours, minutes and seconds, with or without a space before VISIT', () => {
    assert.equal(waitFromNotice('NEXT AVAILABLE IN  19 HOURS 12 MINUTES 43 SECONDS VISIT https://mymemory.translated.net'), 19 * 3600 + 12 * 60 + 43);
    assert.equal(waitFromNotice('NEXT AVAILABLE IN  11 HOURS 29 MINUTES 04 SECONDSVISIT HTTPS://'), 11 * 3600 + 29 * 60 + 4);
    assert.equal(waitFromNotice('MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS FOR TODAY.'), undefined);
  });
});

describe('translateMyMemory', () => {
  test('asks GET /get with q and the langpair; the contact email is the layer\'s to add', async () => {
    const caller = new RecordingCaller(fixtureResponse('mymemory', 'get-en-pt-br.json', JSON_TYPE));
    const answer = await translateMyMemory(caller, 'hello world', 'en', 'pt-BR', signal);
    const { provider, request } = caller.only();
    assert.equal(provider, mymemory);
    assert.equal(request.path, '/get');
    assert.equal(request.method, undefined);
    assert.deepEqual(request.query, { q: 'hello world', langpair: 'en|pt-BR' });
    assert.deepEqual(mymemory.apiKey, { env: 'TOOLGATE_MYMEMORY_EMAIL', in: 'query', name: 'de', optional: true });
    assert.equal(answer.value.text, 'olá mundo');
    assert.equal(answer.source.provider, 'mymemory');
  });
});
