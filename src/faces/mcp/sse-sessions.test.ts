import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SseSessionRegistry } from './sse-sessions.ts';
import { SseServerTransport } from './sse-transport.ts';

function streamStub(): { stream: ServerResponse; written: string[]; ended: () => boolean } {
  const written: string[] = [];
  let ended = false;
  const stream = {
    writeHead: () => stream,
    write: (chunk: string) => written.push(chunk),
    end: () => { ended = true; },
    once: () => stream,
  };
  return { stream: stream as unknown as ServerResponse, written, ended: () => ended };
}

test('a stream that owes its client an answer is not idle: it is closed only once answered and quiet', async () => {
  const sessions = new SseSessionRegistry({ maxSessions: 10, maxPerClient: 10, idleTimeoutMs: 50 });
  const { stream, written, ended } = streamStub();
  const transport = new SseServerTransport('/mcp/messages', stream);
  await transport.start();
  sessions.add(transport, '192.0.2.1');
  transport.receive({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } }, new Request('http://localhost/'));
  await sleep(200);
  assert.equal(ended(), false, 'a long tool call keeps its stream');
  assert.equal(sessions.size, 1);
  await transport.send({ jsonrpc: '2.0', id: 7, result: { content: [] } });
  await sleep(200);
  assert.equal(ended(), true, 'answered and quiet: closed');
  assert.equal(sessions.size, 0);
  assert.match(written.at(-1) ?? '', /^: closed: no message posted to this session/);
});

test('IPv6 callers are counted by /64', () => {
  const sessions = new SseSessionRegistry({ maxSessions: 10, maxPerClient: 1, idleTimeoutMs: 60_000 });
  sessions.add(new SseServerTransport('/mcp/messages', streamStub().stream), '2001:db8:0:1::a');
  assert.equal(sessions.refusal('2001:db8:0:1::b')?.status, 429);
  assert.equal(sessions.refusal('2001:db8:0:2::a'), undefined);
});
