// Loads what the local tools would otherwise load on their first paid call (math parser and workers,
// regex workers, GloVe vectors, IP databases, the gazetteer), after the server listens, so that no caller pays
// for a cold start and no first call runs into its tool time limit.
import { builtinEmbedder } from './catalog/ai/embeddings/builtin-model.ts';
import { gazetteer } from './geo/gazetteer.ts';
import { preloadIpData } from './catalog/security/ip-intelligence/describe-caller.ts';
import { warmUpMath } from './catalog/utility/math.ts';
import { warmUpRegex } from './catalog/utility/regex.ts';

/**
 * `light`: what is quick and small (the math parser and its workers, the regex workers).
 * `all`: also the datasets: the gazetteer (~1.2 s, ~180 MB), the GloVe vectors (~2 s, ~90 MB) and the
 * IP databases (~0.7 s, ~140 MB); otherwise each loads on the first call of a tool that needs it.
 */
export type Preload = 'light' | 'all';

export async function warmUpLocalTools(preload: Preload = 'all'): Promise<number> {
  const started = performance.now();
  warmUpMath();
  warmUpRegex();
  if (preload === 'all') {
    gazetteer();
    await Promise.all([builtinEmbedder(), preloadIpData()]);
  }
  return performance.now() - started;
}
