import assert from 'node:assert/strict';
import { test } from 'node:test';
import { originPolicy, refuseOrigin } from './origin-guard.ts';

const policy = originPolicy('https://tools.example', ['https://app.example'], ['gateway.internal']);

test('localhost, the public base URL and configured origins pass; others are refused', () => {
  assert.equal(refuseOrigin(policy, undefined, 'localhost:4021'), undefined);
  assert.equal(refuseOrigin(policy, 'http://localhost:3000', '127.0.0.1:4021'), undefined);
  assert.equal(refuseOrigin(policy, 'http://[::1]:5173', '[::1]:4021'), undefined);
  assert.equal(refuseOrigin(policy, 'https://tools.example', 'tools.example'), undefined);
  assert.equal(refuseOrigin(policy, 'https://app.example', 'gateway.internal:8080'), undefined);
  assert.match(refuseOrigin(policy, 'http://evil.example', 'localhost:4021') ?? '', /Origin "http:\/\/evil.example"/);
  assert.match(refuseOrigin(policy, 'null', 'localhost:4021') ?? '', /Origin "null"/);
});

test('a rebinding Host is refused even without an Origin', () => {
  assert.match(refuseOrigin(policy, undefined, 'evil.example:4021') ?? '', /Host "evil.example:4021"/);
  assert.match(refuseOrigin(policy, undefined, undefined) ?? '', /Host/);
});

test('"*" opens either check', () => {
  const open = originPolicy('http://localhost:4021', ['*'], ['*']);
  assert.equal(refuseOrigin(open, 'http://evil.example', 'evil.example'), undefined);
});
