import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gatewayAddress, isLoopback } from './gateway-address.ts';

test('--url may be the base URL or its /mcp endpoint; TOOLGATE_URL, then the local default, when absent', () => {
  assert.deepEqual(gatewayAddress('https://tools.example.com/'), { baseUrl: 'https://tools.example.com', mcpUrl: 'https://tools.example.com/mcp' });
  assert.deepEqual(gatewayAddress('https://tools.example.com/mcp'), { baseUrl: 'https://tools.example.com', mcpUrl: 'https://tools.example.com/mcp' });
  assert.deepEqual(gatewayAddress('https://example.com/toolgate/mcp/'), { baseUrl: 'https://example.com/toolgate', mcpUrl: 'https://example.com/toolgate/mcp' });
  assert.equal(gatewayAddress(undefined, { TOOLGATE_URL: 'http://10.0.0.2:9000' }).baseUrl, 'http://10.0.0.2:9000');
  assert.equal(gatewayAddress(undefined, {}).baseUrl, 'http://localhost:4021');
  assert.equal(isLoopback(gatewayAddress(undefined, {})), true);
  assert.equal(isLoopback(gatewayAddress('https://tools.example.com')), false);
  assert.throws(() => gatewayAddress('localhost:4021'), /--url must be http or https|--url must be an http\(s\) URL/);
  assert.throws(() => gatewayAddress('not a url'), /--url must be an http\(s\) URL/);
});
