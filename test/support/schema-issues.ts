// Assertions on what a tool's input schema refuses, and on which field it names.
import assert from 'node:assert/strict';
import type { z } from 'zod';

export function schemaIssues(schema: z.ZodType) {
  const issuesOf = (raw: unknown) => {
    const result = schema.safeParse(raw);
    assert.equal(result.success, false, `${JSON.stringify(raw).slice(0, 80)} is refused`);
    return result.error?.issues ?? [];
  };
  const expectIssue = (raw: unknown, field: string, message?: RegExp) => {
    const issues = issuesOf(raw);
    const issue = issues.find((i) => i.path.join('.') === field);
    assert.ok(issue, `${JSON.stringify(raw).slice(0, 80)}: an issue on ${field}; got ${JSON.stringify(issues)}`);
    if (message) assert.match(issue.message, message);
  };
  return { issuesOf, expectIssue };
}
