// How many essential facts an answer of the same size could hold if it knew them: for each document, each fact's
// cheapest unit (scoring-units.ts: a sentence, heading, table row or code line holding it; the fact alone when it spans
// units), priced as the answer prices a key point, taken cheapest first while the answer's own output tokens last. The
// gap between this and the facts kept is what choosing costs, not room (docs/tools/distill.md, Figures).
// Run: node --import tsx scripts/distill-room.ts
import { readFileSync } from 'node:fs';
import { distill, readDocument } from '../src/catalog/ai/distill/distill-document.ts';
import { scoringUnits } from '../src/catalog/ai/distill/scoring-units.ts';
import { tokenCounter } from '../src/catalog/ai/distill/token-count.ts';
import { CORPUS_DIRS, loadCorpus, normalise, spellings, type CorpusName } from './measure-distill.ts';

const countTokens = await tokenCounter();
const price = (text: string) => countTokens(JSON.stringify(text)) + 1;

let [facts, room] = [0, 0];
for (const set of Object.keys(CORPUS_DIRS) as CorpusName[]) {
  let [setFacts, setRoom] = [0, 0];
  for (const entry of loadCorpus(set)) {
    const content = readFileSync(`${CORPUS_DIRS[set]}${entry.file}`, 'utf8');
    const answer = await distill(content, undefined);
    const read = readDocument(content);
    const units = scoringUnits(read.blocks, answer.title, read.codeTerms, answer.kind).map((unit) => ({ text: normalise(unit.text), price: price(unit.text) }));
    // The answer's frame (title, format, kind, empty fields) is paid first.
    const frame = countTokens(JSON.stringify({ title: answer.title, format: answer.format, kind: answer.kind, summary: '', keyPoints: [], outline: [], releases: [], facts: [], entities: [], keywords: [], numbers: [], dates: [] }));
    const costs = entry.facts.map((fact) => {
      const forms = spellings(fact).map(normalise);
      const holding = units.filter((unit) => forms.some((form) => unit.text.includes(form)));
      return holding.length ? Math.min(...holding.map((unit) => unit.price)) : price(spellings(fact)[0]!);
    });
    let left = answer.tokens.output - frame;
    for (const cost of costs.sort((a, b) => a - b)) if (cost <= left) [left, setRoom] = [left - cost, setRoom + 1];
    setFacts += entry.facts.length;
  }
  [facts, room] = [facts + setFacts, room + setRoom];
  console.log(`${set.padEnd(8)} ${setRoom}/${setFacts} facts fit in the answer's tokens with their units`);
}
console.log(`all      ${room}/${facts}`);
