import { z } from 'zod';
import { combinedFailure, UpstreamError } from '../../upstream/upstream-errors.ts';
import { text } from '../fields.ts';
import { defineTool, ToolError } from '../tool.ts';
import { detectLanguage, type Detection } from './translate/detect.ts';
import { translationEngines } from './translate/engines.ts';
import { AUTO, baseCode, languageOf, SUPPORTED_CODES } from './translate/languages.ts';
import { translateText } from './translate/translate-text.ts';

const codeList = SUPPORTED_CODES.join(', ');

const targetLang = z
  .string()
  .trim()
  .refine((code) => languageOf(code) !== undefined, { message: `expected one of the supported language codes: ${codeList}` })
  .default('es')
  .describe(`ISO 639-1 code of the language to translate into (${SUPPORTED_CODES.length} supported, e.g. "es", "de", "zh-TW").`);

const sourceLang = z
  .string()
  .trim()
  .refine((code) => code.toLowerCase() === AUTO || languageOf(code) !== undefined, { message: `expected "auto" or one of the supported language codes: ${codeList}` })
  .default('en')
  .describe('ISO 639-1 code of the text\'s language, or "auto" to detect it (offline).');

const input = z.object({
  text: text('The text to translate (up to 5,000 characters; long text is translated sentence by sentence).', 5_000),
  sourceLang,
  targetLang,
});

type TranslateInput = z.output<typeof input>;

/**
 * The codes as the catalogue spells them ("PT-br" is "pt-BR"). Done here, not in the schema: a
 * transform there would hide the spec's defaults from the published input schema.
 */
export function canonicalCodes(request: TranslateInput): TranslateInput {
  const spelled = (code: string) => languageOf(code)?.code ?? code;
  return {
    ...request,
    sourceLang: request.sourceLang.toLowerCase() === AUTO ? AUTO : spelled(request.sourceLang),
    targetLang: spelled(request.targetLang),
  };
}

export const translateTool = defineTool({
  name: 'translate_language',
  title: 'Translate text',
  description:
    `Translates text between ${SUPPORTED_CODES.length} languages (ISO 639-1 codes) and reports the language the text appears to be in, with a confidence, detected offline. ` +
    'sourceLang "auto" translates from the detected language. Long text is cut at sentence boundaries to the provider\'s limits and joined back with its own spacing and line breaks. ' +
    "Translated by the operator's LibreTranslate instance when one is configured, else by MyMemory (match quality reported).",
  price: '0.005',
  http: [{ method: 'POST', path: '/api/ai/translate' }],
  input,
  example: { text: 'Good morning, how are you?', sourceLang: 'en', targetLang: 'es' },
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 30_000,
  precheck(raw) {
    const request = canonicalCodes(raw);
    sourceOf(request, detectLanguage(request.text));
  },
  async handler(raw, ctx) {
    const request = canonicalCodes(raw);
    const detection = detectLanguage(request.text);
    const source = sourceOf(request, detection);
    const detected = detectionNote(request, detection);
    const answerBase = { sourceLang: source, targetLang: request.targetLang, detected };
    if (source === request.targetLang) {
      return { translatedText: request.text, ...answerBase, unchanged: true, provider: null, chunks: 0, match: null };
    }
    const engines = translationEngines.filter((engine) => ctx.upstream.isConfigured(engine.provider));
    const failures: UpstreamError[] = [];
    for (const engine of engines) {
      try {
        const result = await translateText(engine, ctx.upstream, { text: request.text, source, target: request.targetLang }, ctx.signal);
        const [first, ...more] = result.sources;
        return {
          translatedText: result.translatedText,
          ...answerBase,
          provider: engine.provider.id,
          chunks: result.chunks,
          match: result.match,
          source: more.some((note) => note.stale) ? { ...first!, stale: true as const } : first,
          ...(more.length > 0 ? { sources: result.sources } : {}),
          ...(failures.length > 0 ? { failedProviders: failures.map((f) => ({ name: f.provider, error: f.message })) } : {}),
        };
      } catch (error) {
        if (!(error instanceof UpstreamError) || ctx.signal.aborted) throw error;
        failures.push(error);
      }
    }
    if (failures.length === 0) throw new ToolError(503, 'upstream_unavailable', 'No translation provider is configured on this gateway. You were not charged.');
    throw combinedFailure('No translation provider answered', failures);
  },
});

/**
 * The language to translate from: the given one, or with "auto" the detected one when detection
 * is reliable (else 400, before payment). The same code on both sides is refused when given; when
 * detected, the text is already in the target language and comes back unchanged.
 */
function sourceOf(request: TranslateInput, detection: Detection): string {
  if (request.sourceLang !== AUTO) {
    if (request.sourceLang === request.targetLang) {
      throw new ToolError(400, 'invalid_input', `targetLang: "${request.targetLang}" is also the sourceLang; give two different languages`, { field: 'targetLang' });
    }
    return request.sourceLang;
  }
  if (detection.language === null || !detection.reliable) {
    const guess = detection.language ? ` (best guess "${detection.language}", confidence ${detection.confidence})` : '';
    throw new ToolError(
      400,
      'invalid_input',
      `sourceLang: the language of the text could not be detected reliably${guess}; give sourceLang as a language code`,
      { field: 'sourceLang', detected: detection },
    );
  }
  return detection.language;
}

/** What detection saw, and whether it agrees with a given sourceLang (null when detection cannot recognise that language). */
function detectionNote(request: TranslateInput, detection: Detection) {
  const note = { ...detection, method: 'franc (offline trigram detection)' };
  if (request.sourceLang === AUTO) return note;
  const recognisable = languageOf(baseCode(request.sourceLang))?.franc !== undefined;
  const agrees = detection.language === null || !recognisable ? null : baseCode(detection.language) === baseCode(request.sourceLang);
  return { ...note, agreesWithSourceLang: agrees };
}
