// Loads what the local tools would otherwise load on their first paid call (math parser and workers,
// regex workers, GloVe vectors, IP databases, the gazetteer), after the server listens, so that no caller pays
// for a cold start and no first call runs into its tool time limit.
import { builtinEmbedder } from './catalog/ai/embeddings/builtin-model.ts';
import { gazetteer } from './geo/gazetteer.ts';
import { preloadIpData } from './catalog/security/ip-intelligence/describe-caller.ts';
import { warmUpMath } from './catalog/utility/math.ts';
import { warmUpRegex } from './catalog/utility/regex.ts';

export async function warmUpLocalTools(): Promise<number> {
  const started = performance.now();
  warmUpMath();
  warmUpRegex();
  gazetteer();
  await Promise.all([builtinEmbedder(), preloadIpData()]);
  return performance.now() - started;
}
