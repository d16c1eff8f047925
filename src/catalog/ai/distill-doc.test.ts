// docs/tools/distill.md describes distill_document's input and answer: its tables are pinned here to
// the schema and to the answer, so that they cannot drift from the declaration again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import { testContext } from '../../../test/support/tool-context.ts';
import { distillTool } from './distill.ts';
import type { Distillation } from './distill/distill-document.ts';

const doc = readFileSync(new URL('../../../docs/tools/distill.md', import.meta.url), 'utf8');

/** Field names in the first column of the table under `heading`: "| `content` | …". */
function tableFields(heading: string): string[] {
  const section = doc.split(/^## /m).find((part) => part.startsWith(heading)) ?? '';
  return [...section.matchAll(/^\| `([\w.]+)` \|/gm)].map((match) => match[1]!);
}

test('the input table names exactly the fields of the input schema', () => {
  const properties = (z.toJSONSchema(distillTool.input) as { properties: Record<string, unknown> }).properties;
  assert.deepEqual(new Set(tableFields('Input')), new Set(Object.keys(properties)));
});

test('the answer table names exactly the fields of an answer (and fetched, there only when url is fetched)', async () => {
  assert.ok(distillTool.handler);
  const ctx = testContext({ signal: new AbortController().signal, now: () => new Date('2026-11-21T00:00:00Z'), caller: { ip: '127.0.0.1' } });
  const answer = (await distillTool.handler(distillTool.input.parse({ ...distillTool.example, url: 'https://example.com/report.html' }), ctx)) as Distillation;
  assert.deepEqual(new Set(tableFields('Answer')), new Set([...Object.keys(answer), 'fetched']));
});
