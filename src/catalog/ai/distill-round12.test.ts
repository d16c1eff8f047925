// Issue 24, round 12: failure classes read in fresh set 10's losses and in the tuned sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTroff } from './distill/read-troff.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import { sentenceCandidates } from './distill/rank-sentences.ts';

test("a string a conditional defines is read: DocBook's apostrophe, `.ie \\n(.g .ds Aq \\(aq`", () => {
  const page = [
    '.TH "SYSTEMD\\-MEASURE" "1" "" "systemd 252" "systemd-measure"',
    '.ie \\n(.g .ds Aq \\(aq',
    ".el       .ds Aq '",
    '.SH "DESCRIPTION"',
    '.PP',
    'This queries the local system\\*(Aqs TPM2 PCR 11+12+13 values\\&.',
  ].join('\n');
  const text = readTroff(page).blocks.map((block) => block.text).join('\n');
  assert.match(text, /the local system's TPM2 PCR 11\+12\+13 values/);
});

test("the first branch of a conditional string wins; an unconditional .ds still redefines it", () => {
  const page = ['.TH "X" "1"', '.ie n .ds Q ""', '.el .ds Q \\(lq', '.SH NAME', 'say \\*Qhi\\*Q', '.ds Q *', 'and \\*Qthen\\*Q'].join('\n');
  const text = readTroff(page).blocks.map((block) => block.text).join('\n');
  assert.match(text, /say "hi"/);
  assert.match(text, /and \*then\*/);
});

test('a shell block standing first under a heading of its own is a command, a backslash-continued line read as one', () => {
  const markdown = [
    '## Google Cloud Functions',
    '',
    'Functions run your handler.',
    '',
    '### Deploy',
    '```bash',
    'gcloud functions deploy fastifyFunction \\',
    '--runtime nodejs14 --trigger-http --region $GOOGLE_REGION --allow-unauthenticated',
    '```',
    '',
    '### Example',
    '```js',
    "const app = require('fastify')()",
    '```',
  ].join('\n');
  const commands = keyFactsOf(readMarkdown(markdown).blocks, [], '').filter((fact) => fact.kind === 'command');
  assert.deepEqual(commands.map((fact) => [fact.fact, fact.sentence]), [
    ['gcloud functions deploy fastifyFunction --runtime nodejs14 --trigger-http --region $GOOGLE_REGION --allow-unauthenticated', 'Deploy'],
  ]);
});

test("a sentence saying again what its heading advises is the section's rule, not only the section's first sentence", () => {
  const markdown = [
    '### Avoid using contractions',
    '',
    'Contractions are the shortened version of a word. Avoid contractions to provide a more formal tone.',
    '',
    '### Hyperlinks',
    '',
    'Hyperlinks should have a clear title. Avoid bare links in the text.',
  ].join('\n');
  const rules = sentenceCandidates(readMarkdown(markdown).blocks).filter((candidate) => candidate.restatesHeading);
  // The second section's heading advises nothing: its "Avoid" sentence is not a restatement.
  assert.deepEqual(rules.map((candidate) => candidate.text), ['Avoid contractions to provide a more formal tone.']);
});
