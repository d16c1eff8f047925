// Prints facts kept (answer and truncation) and median saving per corpus, for comparing changes across all sets.
// Run: node --import tsx scripts/distill-totals.ts [out.json]
import { writeFileSync } from 'node:fs';
import { CORPUS_DIRS, figures, measureCorpus, type CorpusName, type DocumentMeasure } from './measure-distill.ts';

const all: Record<string, DocumentMeasure[]> = {};
let [kept, truncation, facts] = [0, 0, 0];
for (const name of Object.keys(CORPUS_DIRS) as CorpusName[]) {
  const measures = await measureCorpus(name);
  all[name] = measures;
  const f = figures(measures);
  [kept, truncation, facts] = [kept + f.kept, truncation + f.truncationKept, facts + f.facts];
  console.log(`${name.padEnd(8)} ${f.kept}/${f.facts} trunc ${f.truncationKept} median saved ${f.medianSaved.toFixed(1)}%`);
}
const saved = Object.values(all).flat().map((m) => m.savedPercent).sort((a, b) => a - b);
console.log(`total    ${kept}/${facts} trunc ${truncation} median saved ${saved[Math.floor(saved.length / 2)]!.toFixed(1)}%`);
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(all, null, 1));
