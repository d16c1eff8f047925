// One text through one provider: cut into pieces the provider takes, a few pieces in flight at
// once, the translations joined back in the text's own layout.
import type { ProviderCaller } from '../../../upstream/provider-call.ts';
import type { SourceNote } from '../../../upstream/provider.ts';
import { joinTranslated, splitForTranslation } from './chunk-text.ts';
import type { TranslationEngine } from './engines.ts';

/** Pieces asked for at once (the providers' own concurrency limits queue any more). */
const PIECES_IN_FLIGHT = 3;

export interface TextTranslation {
  translatedText: string;
  /** Requests made: pieces that had something to translate. */
  chunks: number;
  /** The weakest match quality among the pieces, when the provider gives one. */
  match: number | null;
  /** One note per piece, in order. */
  sources: SourceNote[];
}

export async function translateText(
  engine: TranslationEngine,
  caller: ProviderCaller,
  request: { text: string; source: string; target: string },
  signal: AbortSignal,
): Promise<TextTranslation> {
  const pieces = splitForTranslation(request.text, engine.maxPiece, engine.measure);
  const cores = pieces.filter((piece) => piece.core).map((piece) => piece.core);
  const answers = await mapInOrder(cores, PIECES_IN_FLIGHT, (core) => engine.translate(caller, core, request.source, request.target, signal));
  const matches = answers.map((answer) => answer.value.match).filter((match): match is number => match !== null);
  return {
    translatedText: joinTranslated(pieces, answers.map((answer) => answer.value.text)),
    chunks: cores.length,
    match: matches.length > 0 ? Math.min(...matches) : null,
    sources: answers.map((answer) => answer.source),
  };
}

/** `work` over `items` with at most `limit` running at once; results in the items' order. The first failure rejects and starts no more. */
async function mapInOrder<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
