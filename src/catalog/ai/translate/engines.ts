// The translation providers, in the order they are asked: the operator's LibreTranslate instance
// when one is configured, then the keyless MyMemory. Each says how large a piece it takes.
import type { ProviderAnswer, ProviderCaller } from '../../../upstream/provider-call.ts';
import type { ProviderDefinition } from '../../../upstream/provider.ts';
import { LIBRETRANSLATE_MAX_CHARS, libreCode, libretranslate, translateLibre } from '../../../upstream/providers/libretranslate.ts';
import { MYMEMORY_MAX_QUERY_BYTES, mymemory, translateMyMemory } from '../../../upstream/providers/mymemory.ts';
import { codePoints, type Measure, utf8Bytes } from './chunk-text.ts';

export interface PieceTranslation {
  text: string;
  /** The provider's match quality, 0 to 1, when it gives one (MyMemory). */
  match: number | null;
}

export interface TranslationEngine {
  provider: ProviderDefinition;
  /** Largest piece one request takes, in `measure` units. */
  maxPiece: number;
  measure: Measure;
  translate(caller: ProviderCaller, text: string, source: string, target: string, signal: AbortSignal): Promise<ProviderAnswer<PieceTranslation>>;
}

export const translationEngines: readonly TranslationEngine[] = [
  {
    provider: libretranslate,
    maxPiece: LIBRETRANSLATE_MAX_CHARS,
    measure: codePoints,
    async translate(caller, text, source, target, signal) {
      const answer = await translateLibre(caller, text, libreCode(source), libreCode(target), signal);
      return { ...answer, value: { text: answer.value.text, match: null } };
    },
  },
  {
    provider: mymemory,
    maxPiece: MYMEMORY_MAX_QUERY_BYTES,
    measure: utf8Bytes,
    translate: translateMyMemory,
  },
];
