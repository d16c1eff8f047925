// The legacy HTTP+SSE transport (MCP 2024-11-05), server side: the GET stream carries an `endpoint`
// event and then every message to the client; the client POSTs its messages to that endpoint and
// gets 202. The SDK's v2 line no longer ships it (only a deprecated package pinned to an older
// core), and it is a few lines over the SDK's Transport interface.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

export class SseServerTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #closed = false;
  /** Ids of requests the client posted that the server has not answered yet. */
  readonly #unanswered = new Set<string | number>();

  constructor(private readonly messagesPath: string, private readonly stream: ServerResponse) {}

  async start(): Promise<void> {
    this.stream.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.stream.write(`event: endpoint\ndata: ${this.messagesPath}?sessionId=${this.sessionId}\n\n`);
    this.stream.once('close', () => this.#finish());
  }

  /** One POSTed message: parsed and handed to the server. Throws (for a 400) when it is not JSON-RPC. */
  receive(body: unknown, request: Request): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(body);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    if ('method' in message && 'id' in message) this.#unanswered.add(message.id);
    this.onmessage?.(message, { request });
  }

  /** True while the server still owes the client an answer: such a stream is not idle. */
  get busy(): boolean {
    return this.#unanswered.size > 0;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('SSE stream closed');
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.#unanswered.delete(message.id);
    this.stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** Ends the stream; `reason` is sent first as an SSE comment, which clients ignore and people can read. */
  async close(reason?: string): Promise<void> {
    if (reason !== undefined && !this.#closed) this.stream.write(`: ${reason.replace(/[\r\n]+/g, ' ')}\n\n`);
    this.stream.end();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
