// Issue 24, round 15: the last share of the budget goes to units a learned scorer picks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distill } from './distill/distill-document.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { learnedPoints, unitProbability } from './distill/learned-points.ts';
import { scoringUnits } from './distill/scoring-units.ts';
import { tokenCounter } from './distill/token-count.ts';
import { UNIT_WEIGHTS } from './distill/unit-weights.ts';

const readme = [
  '# widget',
  '',
  'A tiny widget maker for Node.js. It makes widgets from JSON.',
  '',
  '## Installation',
  '',
  '```sh',
  'npm install widget',
  '```',
  '',
  '## Usage',
  '',
  'Widgets are made with one call.',
  '',
  '| Option | Default |',
  '| --- | --- |',
  '| size | 3 |',
].join('\n');

test('units are a paragraph\'s sentences, a heading, a code block\'s lines and a table row, each with its block and features', () => {
  const document = readMarkdown(readme);
  const units = scoringUnits(document.blocks, 'widget', document.codeTerms, 'article');
  assert.deepEqual(
    units.map((unit) => unit.text),
    ['widget', 'A tiny widget maker for Node.js.', 'It makes widgets from JSON.', 'Installation', 'npm install widget', 'Usage', 'Widgets are made with one call.', 'Option | Default', 'size | 3'],
  );
  const install = units.find((unit) => unit.text === 'npm install widget')!;
  assert.equal(document.blocks[install.block]?.kind, 'code');
  // What it is, per document kind, under which section, and what it holds.
  for (const name of ['bias', 'k:article', 'b:code', 'article|b:code', 'h:installation', 'h:installation:code', 'article|h:installation:code', 'shell', 'titlew']) assert.ok(install.features.has(name), name);
  assert.ok(!install.features.has('b:paragraph'));
  assert.ok(units.find((unit) => unit.text === 'A tiny widget maker for Node.js.')!.features.has('b:paragraph:part0'));
  assert.ok(!units.find((unit) => unit.text === 'It makes widgets from JSON.')!.features.has('b:paragraph:part0'));
  // Features of value 0 are not listed: an absent feature weighs nothing.
  assert.ok([...install.features.values()].every((value) => value !== 0));
});

test('a code block gives its first 12 lines as units', () => {
  const code = Array.from({ length: 20 }, (_, i) => `call(${i})`).join('\n');
  const document = readMarkdown(`# x\n\n\`\`\`js\n${code}\n\`\`\`\n`);
  const lines = scoringUnits(document.blocks, 'x', [], 'article').filter((unit) => unit.features.has('b:code'));
  assert.deepEqual(lines.map((unit) => unit.text), Array.from({ length: 12 }, (_, i) => `call(${i})`));
});

test("a unit's probability is the logistic of its features' weighted sum", () => {
  const [unit] = scoringUnits(readMarkdown('Some words here.').blocks, 'x', [], 'article');
  assert.equal(unitProbability(unit!, {}), 0.5);
  const bias = unitProbability(unit!, { bias: 2 });
  assert.ok(Math.abs(bias - 1 / (1 + Math.exp(-2))) < 1e-12);
  assert.ok(unitProbability(unit!, { bias: 2, 'b:paragraph': -4 }) < 0.5);
});

test('picks go by probability per token within the tokens given, in document order, and skip what the answer says', async () => {
  const countTokens = await tokenCounter();
  const document = readMarkdown(readme);
  const units = scoringUnits(document.blocks, 'widget', document.codeTerms, 'article');
  const weights = { shell: 6, 'b:row': 3, digit: 1, bias: -3 };
  const price = (text: string) => countTokens(JSON.stringify(text)) + 1;
  // Room for the command alone: the likeliest unit per token.
  assert.deepEqual(learnedPoints(units, weights, '', price('npm install widget'), countTokens).map((unit) => unit.text), ['npm install widget']);
  // More room: the table's rows too, all in the document's order.
  const more = learnedPoints(units, weights, '', price('npm install widget') + price('Option | Default') + price('size | 3'), countTokens);
  assert.deepEqual(more.map((unit) => unit.text), ['npm install widget', 'Option | Default', 'size | 3']);
  // A unit the answer already holds is not picked again.
  assert.deepEqual(learnedPoints(units, weights, 'run "npm install widget" first', price('size | 3'), countTokens).map((unit) => unit.text), ['size | 3']);
  assert.deepEqual(learnedPoints(units, weights, '', 0, countTokens), []);
});

/** An article whose table sits deep in a long text, below what the rules serve. */
const longArticle = [
  '# Telescope guide',
  '',
  'The telescope guide explains how to set up a small telescope at home.',
  '',
  ...Array.from({ length: 40 }, (_, i) => [`## Step ${i + 1}`, '', `Step ${i + 1} asks you to check the mount, the lens and the tripod once more before going on, in good light.`, '']).flat(),
  '## Lenses',
  '',
  '| Lens | Focal length |',
  '| --- | --- |',
  '| wide | 700 mm focal length |',
].join('\n');

test("a document's answer holds what the weights favour, within its budget; the shipped weights are used by default", async () => {
  const favoured = await distill(longArticle, undefined, {}, undefined, { ...UNIT_WEIGHTS, 'b:row': 30 });
  assert.ok(favoured.keyPoints.includes('wide | 700 mm focal length'), JSON.stringify(favoured.keyPoints));
  assert.ok(favoured.tokens.output <= favoured.tokens.budget);
  const against = await distill(longArticle, undefined, {}, undefined, { ...UNIT_WEIGHTS, 'b:row': -30 });
  assert.ok(!JSON.stringify(against).includes('700 mm focal length'));
  assert.ok(against.tokens.output <= against.tokens.budget);
  assert.deepEqual(await distill(longArticle, undefined), await distill(longArticle, undefined, {}, undefined, UNIT_WEIGHTS));
});

test('a heading the scorer picks joins the outline in the document\'s order, not the key points', async () => {
  const answer = await distill(longArticle, undefined, {}, undefined, { 'b:heading': 30, bias: -30 });
  assert.ok(answer.keyPoints.every((point) => !/^Step \d+$/.test(point)));
  const steps = answer.outline.map((entry) => Number(/^## Step (\d+)$/.exec(entry)?.[1])).filter(Boolean);
  assert.ok(steps.length > 5, JSON.stringify(answer.outline));
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b));
  assert.ok(answer.tokens.output <= answer.tokens.budget);
});

test("a changelog's budget stays with its releases: the weights do not change its answer", async () => {
  const changelog = ['# Changelog', '', ...Array.from({ length: 8 }, (_, i) => [`## ${8 - i}.0.0 - 2024-0${(i % 9) + 1}-01`, '', `- Fixed the ${i} thing in the parser.`, `- Added the ${i} option.`, '']).flat()].join('\n');
  const shipped = await distill(changelog, undefined);
  assert.equal(shipped.kind, 'changelog');
  assert.deepEqual(await distill(changelog, undefined, {}, undefined, { bias: 30 }), shipped);
});
