// A fenced Markdown code block whose fence is longer than any backtick run inside the code.

export function fencedCode(code: string, language = ''): string {
  const longestRun = Math.max(0, ...Array.from(code.matchAll(/`+/g), (run) => run[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}
