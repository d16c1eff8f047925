// Offline language detection with franc (trigram profiles of the 187 languages with a million
// speakers or more, and unique scripts such as Han, Hangul or Thai), narrowed to the languages
// translate_language offers. Welsh, Basque, Irish and Icelandic have no profile in it.
//
// franc scores every candidate relative to the best one (the best is always 1), so its top score
// says nothing about certainty. The confidence reported here is the margin between the best and
// the runner-up (1 when the script alone decides); a short or mixed text has a small margin.
import { francAll } from 'franc';
import { FRANC_CODES, languageOfFranc } from './languages.ts';

/** Shorter texts are not detected at all: a few letters fit many languages. */
export const MIN_DETECT_LENGTH = 10;
/** Below this margin the best guess is reported but not relied on (measured on short greetings, where wrong guesses sit near 0.02). */
export const RELIABLE_CONFIDENCE = 0.1;

export interface Detection {
  /** ISO 639-1 code of the best guess; null when the text is too short or has no letters. */
  language: string | null;
  name: string | null;
  /** Margin of the best guess over the runner-up, 0 to 1 (rounded to 3 decimals). */
  confidence: number;
  /** Whether the guess is clear enough to translate from. */
  reliable: boolean;
  /** The closest guesses, best first, with franc's relative scores. */
  candidates: { language: string; score: number }[];
}

const CANDIDATES_SHOWN = 3;

export function detectLanguage(text: string): Detection {
  const scored = francAll(text, { only: [...FRANC_CODES], minLength: MIN_DETECT_LENGTH })
    .map(([code3, score]) => ({ language: languageOfFranc(code3), score }))
    .filter((entry): entry is { language: NonNullable<typeof entry.language>; score: number } => entry.language !== undefined);
  const [best, runnerUp] = scored;
  if (!best) return { language: null, name: null, confidence: 0, reliable: false, candidates: [] };
  const confidence = round(runnerUp ? best.score - runnerUp.score : 1);
  return {
    language: best.language.code,
    name: best.language.name,
    confidence,
    reliable: confidence >= RELIABLE_CONFIDENCE,
    candidates: scored.slice(0, CANDIDATES_SHOWN).map((entry) => ({ language: entry.language.code, score: round(entry.score) })),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
