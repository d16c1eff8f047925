// Assertions on what a tool's input schema refuses, and on which field it names.
import assert from 'node:assert/strict';
import type { z } from 'zod';

/** A short picture of an input for assertion messages (JSON.stringify(undefined) is undefined). */
const shown = (raw: unknown) => String(JSON.stringify(raw)).slice(0, 80);

export function schemaIssues(schema: z.ZodType) {
  const issuesOf = (raw: unknown) => {
    const result = schema.safeParse(raw);
    assert.equal(result.success, false, `${shown(raw)} is refused`);
    return result.error?.issues ?? [];
  };
  const expectIssue = (raw: unknown, field: string, message?: RegExp) => {
    const issues = issuesOf(raw);
    const issue = issues.find((i) => i.path.join('.') === field);
    assert.ok(issue, `${shown(raw)}: an issue on ${field}; got ${JSON.stringify(issues)}`);
    if (message) assert.match(issue.message, message);
  };
  return { issuesOf, expectIssue };
}
