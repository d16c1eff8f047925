// Tools that exist only to exercise the payment gate: they count their runs, fail on purpose, or
// move the payer's money away mid-call.
import { z } from 'zod';
import type { Tool } from '../../src/catalog/tool.ts';
import { defineTool } from '../../src/catalog/tool.ts';
import { ToolError } from '../../src/errors/tool-error.ts';
import { UpstreamError } from '../../src/upstream/upstream-errors.ts';

/** A tool taking one word that counts its runs; `run` makes its answer (`count`: this run's number). */
function countingWordTool(
  declared: { name: string; title: string; description: string; path: string; price: string; openWorldHint: boolean },
  run: (word: string, count: number) => Promise<Record<string, unknown>>,
) {
  const runs = { count: 0 };
  const tool = defineTool({
    name: declared.name,
    title: declared.title,
    description: declared.description,
    price: declared.price,
    http: [{ method: 'GET', path: declared.path }],
    input: z.object({ word: z.string().min(1).max(50) }),
    example: { word: 'hello' },
    annotations: { readOnlyHint: true, openWorldHint: declared.openWorldHint },
    async handler(input) {
      runs.count += 1;
      return run(input.word, runs.count);
    },
  });
  return { tool: tool as Tool, runs };
}

export function countingEchoTool(price = '0.001') {
  return countingWordTool(
    { name: 'test_echo', title: 'Echo', description: 'Echoes a word back; counts its runs.', path: '/test/echo', price, openWorldHint: false },
    async (word) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { echo: word };
    },
  );
}

/**
 * Echoes a word and fails on "fail" (a provider failure: not charged), counting its runs; `numbered`
 * adds the run's number to the answer, so that a test can tell a stored result from a new run.
 */
export function flakyEchoTool(declared: { name: string; title: string; path: string }, options: { numbered?: boolean } = {}) {
  return countingWordTool(
    { ...declared, description: 'Echoes a word; fails on "fail".', price: '0.001', openWorldHint: false },
    async (word, count) => {
      if (word === 'fail') throw new ToolError(502, 'upstream_failed', 'failed on purpose');
      return options.numbered ? { echo: word, run: count } : { echo: word };
    },
  );
}

/** Like countingEchoTool, but declared as reaching the outside world (openWorldHint), as the web tools are. */
export function countingOutsideTool(price = '0.001') {
  return countingWordTool(
    { name: 'test_outside', title: 'Outside', description: 'Stands for a tool that calls an upstream provider; counts its runs.', path: '/test/outside', price, openWorldHint: true },
    async (word) => ({ fetched: word }),
  );
}

export function failingTool(price = '0.001'): Tool {
  return defineTool({
    name: 'test_failing',
    title: 'Always fails',
    description: 'Throws, as a broken tool would.',
    price,
    http: [{ method: 'GET', path: '/test/failing' }],
    input: z.object({}),
    example: {},
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler() {
      throw new Error('kaboom');
    },
  }) as Tool;
}

/** Runs `whileRunning` inside the handler: between verification and settlement. */
export function sideEffectTool(whileRunning: () => Promise<void>, price = '0.001'): Tool {
  return defineTool({
    name: 'test_side_effect',
    title: 'Side effect',
    description: 'Does something to the world while it runs.',
    price,
    http: [{ method: 'POST', path: '/test/side-effect' }],
    input: z.object({}),
    example: {},
    annotations: { readOnlyHint: false, openWorldHint: true },
    async handler() {
      await whileRunning();
      return { secret: 'a result that must not be delivered unpaid' };
    },
  }) as Tool;
}

/** Declared in the catalogue without a handler: what a tool looks like before it is built. */
export function unbuiltTool(price = '0.001'): Tool {
  return defineTool({
    name: 'test_unbuilt',
    title: 'Not built yet',
    description: 'Declared, priced, not built.',
    price,
    http: [{ method: 'GET', path: '/test/unbuilt' }],
    input: z.object({}),
    example: {},
    annotations: { readOnlyHint: true, openWorldHint: false },
  }) as Tool;
}

/** Holds every run until the test lets it go: `started` resolves once a run is inside the tool. */
export function heldTool(price = '0.001') {
  let letGo: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const gate = { released: new Promise<void>((resolve) => { letGo = resolve; }), started: new Promise<void>((resolve) => { entered = resolve; }) };
  const { tool, runs } = countingWordTool(
    { name: 'test_held', title: 'Held', description: 'Answers only once the test releases it; counts its runs.', path: '/test/held', price, openWorldHint: false },
    async (word) => {
      entered();
      await gate.released;
      return { held: word };
    },
  );
  return { tool, runs, started: gate.started, release: () => letGo() };
}

/** Fails as a tool whose provider cannot be reached does: an UpstreamError, whose message says nothing was charged. */
export function upstreamDownTool(price = '0.001'): Tool {
  return defineTool({
    name: 'test_upstream_down',
    title: 'Provider down',
    description: 'Its provider cannot be reached.',
    price,
    http: [{ method: 'GET', path: '/test/upstream-down' }],
    input: z.object({}),
    example: {},
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler() {
      throw new UpstreamError('unavailable', 'Example', 'could not be reached (dns failed)');
    },
  }) as Tool;
}
