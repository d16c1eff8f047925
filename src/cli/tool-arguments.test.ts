import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GatewayTool } from '../client/gateway-tools.ts';
import { parseArgs, UsageError } from './args.ts';
import { toolInput } from './tool-arguments.ts';

const tool: GatewayTool = {
  name: 'demo',
  title: 'Demo',
  description: '',
  price: '0.001',
  atomicPrice: 1000n,
  network: 'eip155:31337',
  asset: '0x0000000000000000000000000000000000000001',
  payTo: '0x0000000000000000000000000000000000000002',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      limit: { type: 'integer' },
      ratio: { type: 'number' },
      flag: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      sizes: { type: 'array', items: { type: 'integer' } },
      options: { type: 'object' },
      either: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
    },
  },
};

test('name=value words are read as their schema types; --input comes first and words override it', () => {
  const input = toolInput(tool, ['text=5', 'limit=3', 'ratio=0.5', 'flag=false', 'tags=a,b', 'sizes=[1,2]', 'options={"k":1}', 'either=true', 'text=a=b'], '{"limit":1,"extra":"kept"}');
  assert.deepEqual(input, { limit: 3, extra: 'kept', text: 'a=b', ratio: 0.5, flag: false, tags: ['a', 'b'], sizes: [1, 2], options: { k: 1 }, either: true });
});

test('a value that does not fit its type, an unknown name, a word without = and non-object --input are usage errors naming the problem', () => {
  assert.throws(() => toolInput(tool, ['limit=2.5'], undefined), (e: unknown) => e instanceof UsageError && /limit=2\.5: expected integer/.test(e.message));
  assert.throws(() => toolInput(tool, ['flag=yes'], undefined), /flag=yes: expected boolean/);
  assert.throws(() => toolInput(tool, ['sizes=1,x'], undefined), /sizes=x: expected integer/);
  assert.throws(() => toolInput(tool, ['nope=1'], undefined), /demo takes no input named "nope"; it takes: text, limit/);
  assert.throws(() => toolInput(tool, ['text'], undefined), /expected name=value, got "text"/);
  assert.throws(() => toolInput(tool, [], '[1]'), /--input must be a JSON object/);
  assert.throws(() => toolInput(tool, [], '{oops'), /--input must be JSON/);
});

test('flags: --name value and --name=value, switches, -- ends the options, unknown or valueless flags are refused', () => {
  const parsed = parseArgs(['call', 'x', '--max-price', '0.01', '--url=http://h', '--json', 'a=1', '--', '--not-a-flag=1']);
  assert.equal(parsed.command, 'call');
  assert.deepEqual(parsed.positionals, ['x', 'a=1', '--not-a-flag=1']);
  assert.deepEqual(parsed.values, { 'max-price': '0.01', url: 'http://h' });
  assert.deepEqual(parsed.switches, { json: true });
  assert.throws(() => parseArgs(['call', '--max-prize', '1']), /unknown option --max-prize/);
  assert.throws(() => parseArgs(['call', '--max-price']), /--max-price needs a value/);
  assert.throws(() => parseArgs(['call', '--max-price', '--json']), /--max-price needs a value/);
  assert.throws(() => parseArgs(['call', '--json=1']), /--json takes no value/);
});
