// A LibreTranslate instance (self-hosted, or a hosted one with a key): `POST /translate` with the
// form fields q, source, target, format (and api_key, added by the layer when set) answers
// `{"translatedText": "...", "detectedLanguage"?: {"confidence", "language"}}`; refusals are
// `{"error": "..."}` with 400 (bad input, unsupported language, a key is needed), 403 (invalid
// key, banned), 429 (slow down) or 500 (LibreTranslate/LibreTranslate, libretranslate/app.py).
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { isSuccessStatus, jsonObjectOf, stringMember } from './response-body.ts';

export const libretranslate = defineProvider({
  id: 'libretranslate',
  name: 'LibreTranslate',
  // No default: the public libretranslate.com needs a paid key, so the operator names an instance.
  baseUrl: { env: 'TOOLGATE_LIBRETRANSLATE_URL' },
  apiKey: { env: 'TOOLGATE_LIBRETRANSLATE_API_KEY', in: 'form', name: 'api_key', optional: true },
  timeoutMs: 20_000,
  maxBytes: 512 * 1024,
  // A self-hosted instance runs models on its own CPU; a few requests at once keep it responsive.
  rateLimit: { requests: 10, perMs: 1_000, concurrency: 3, maxQueueMs: 5_000 },
  cacheTtlMs: 24 * 60 * 60_000,
  cacheReason: 'A machine translation of the same text by the same models does not change; a day spares the instance repeats.',
  staleForMs: 7 * 24 * 60 * 60_000,
  attribution: 'Translated by LibreTranslate (Argos Translate models)',
  termsUrl: 'https://github.com/LibreTranslate/LibreTranslate/blob/main/LICENSE',
  docsUrl: 'https://docs.libretranslate.com/guides/api_usage/',
});

/**
 * Characters sent in one request. An instance's --char-limit is its own setting (unlimited by
 * default); 2,000 keeps each request well inside the limits hosted instances commonly set.
 */
export const LIBRETRANSLATE_MAX_CHARS = 2_000;

/** Refusals whose `{"error"}` body says why (429 and 5xx stay with the layer). */
const ERROR_STATUSES = [400, 403] as const;

export interface LibreTranslation {
  text: string;
}

/** `source` and `target` as LibreTranslate names them (see libreCode). */
export async function translateLibre(
  caller: ProviderCaller,
  text: string,
  source: string,
  target: string,
  signal: AbortSignal,
): Promise<ProviderAnswer<LibreTranslation>> {
  return caller.call(
    libretranslate,
    { path: '/translate', method: 'POST', form: { q: text, source, target, format: 'text' }, acceptStatuses: ERROR_STATUSES },
    parseLibre,
    signal,
  );
}

/** LibreTranslate names Traditional Chinese "zh-Hant"; every other code offered here it spells the same. */
export function libreCode(code: string): string {
  return code === 'zh-TW' ? 'zh-Hant' : code;
}

export function parseLibre(response: RawResponse): LibreTranslation {
  const body = jsonObjectOf(response, libretranslate.name);
  if (!isSuccessStatus(response.status)) {
    const reason = stringMember(body, 'error')?.slice(0, 200) ?? 'no reason given';
    throw badAnswer(libretranslate.name, `it refused the translation (HTTP ${response.status}: ${reason})`, response.status);
  }
  const text = stringMember(body, 'translatedText');
  if (text === undefined) throw badAnswer(libretranslate.name, 'its answer has no translatedText');
  return { text };
}
