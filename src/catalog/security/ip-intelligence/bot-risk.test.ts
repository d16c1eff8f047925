// Scores are checked against hand sums of the documented points (docs/tools/ip-intelligence.md),
// and user agents against real strings those clients send.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assessBotRisk, levelOf, type NetworkSignal } from './bot-risk.ts';

const browsers = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
];
const automation = ['curl/8.5.0', 'python-requests/2.32.3', 'Go-http-client/1.1', 'node', 'axios/1.7.9', 'Wget/1.21.4', 'okhttp/4.12.0', 'Python-urllib/3.12', 'PostmanRuntime/7.42.0'];
const headless = ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'];
const bots = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
];
const ordinary: NetworkSignal = { kind: 'ordinary' };

describe('assessBotRisk: the user agent', () => {
  for (const ua of browsers) test(`a browser scores 0: ${ua.slice(0, 50)}`, () => assert.deepEqual(assessBotRisk(ordinary, ua), { score: 0, level: 'low', reasons: [] }));
  for (const ua of automation) {
    test(`an HTTP client scores 35: ${ua}`, () => {
      const risk = assessBotRisk(ordinary, ua);
      assert.deepEqual([risk.score, risk.level, risk.reasons[0]?.code], [35, 'medium', 'automation-client']);
    });
  }
  for (const ua of headless) test('a headless browser scores 40', () => assert.deepEqual(assessBotRisk(ordinary, ua).reasons.map((r) => r.code), ['headless-browser']));
  for (const ua of bots) test(`a declared bot scores 30: ${ua.slice(0, 60)}`, () => assert.equal(assessBotRisk(ordinary, ua).score, 30));
  test('no user agent, or only spaces, scores 30', () => {
    assert.equal(assessBotRisk(ordinary, undefined).reasons[0]?.code, 'missing-user-agent');
    assert.equal(assessBotRisk(ordinary, '   ').score, 30);
  });
  test('an unknown non-browser client scores 20', () => assert.deepEqual(assessBotRisk(ordinary, 'MyAgent/0.1').reasons.map((r) => [r.code, r.points]), [['non-browser-client', 20]]));
  test('a long user agent is shortened in the reason', () => {
    const detail = assessBotRisk(ordinary, `curl/${'9'.repeat(300)}`).reasons[0]?.detail ?? '';
    assert.ok(detail.length < 200 && detail.endsWith('…'));
  });
});

describe('assessBotRisk: the network, and the sum', () => {
  const aws: NetworkSignal = { kind: 'known-hosting', provider: 'Amazon Web Services', hostingKind: 'cloud' };
  const cloudflare: NetworkSignal = { kind: 'known-hosting', provider: 'Cloudflare', hostingKind: 'cdn' };
  const cases: ReadonlyArray<[string, NetworkSignal, string | undefined, number, string]> = [
    ['cloud + browser', aws, browsers[0], 45, 'medium'],
    ['cloud + curl', aws, 'curl/8.5.0', 80, 'high'],
    ['cloud + headless', aws, headless[0], 85, 'high'],
    ['cloud + no user agent', aws, undefined, 75, 'high'],
    ['cdn/relay + browser', cloudflare, browsers[1], 30, 'medium'],
    ['hosting-like name + curl', { kind: 'hosting-like-name', organization: 'Example Hosting Ltd' }, 'curl/8.5.0', 60, 'high'],
    ['no ASN + browser', { kind: 'no-asn' }, browsers[2], 10, 'low'],
    ['residential + curl', ordinary, 'curl/8.5.0', 35, 'medium'],
    ['not looked up + browser', null, browsers[0], 0, 'low'],
  ];
  for (const [name, network, ua, score, level] of cases) {
    test(`${name}: ${score} (${level})`, () => {
      const risk = assessBotRisk(network, ua);
      assert.deepEqual([risk.score, risk.level], [score, level]);
      assert.equal(risk.reasons.reduce((sum, r) => sum + r.points, 0), score, 'the reasons add up to the score');
    });
  }
  test('levels: 0-29 low, 30-59 medium, 60-100 high', () => {
    assert.deepEqual([0, 29, 30, 59, 60, 100].map(levelOf), ['low', 'low', 'medium', 'medium', 'high', 'high']);
  });
});
