import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { baseChainField } from './chain-param.ts';

const input = z.object({ chain: baseChainField('base', 'The chain.') });

test('Base by name in any case, base-mainnet or 8453; the default is the spec\'s', () => {
  for (const chain of ['base', 'Base', 'BASE', ' base ', 'base-mainnet', '8453']) assert.equal(input.safeParse({ chain }).success, true, chain);
  assert.equal(input.parse({}).chain, 'base');
  assert.equal(z.toJSONSchema(input).properties?.chain && (z.toJSONSchema(input).properties!.chain as { default?: string }).default, 'base');
});

test('another chain is refused, naming the supported one', () => {
  const result = input.safeParse({ chain: 'ethereum' });
  assert.equal(result.success, false);
  assert.match(result.error!.issues[0]!.message, /supported: base \(Base mainnet, chain id 8453\)/);
});
