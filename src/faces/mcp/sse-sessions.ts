// The legacy SSE streams open on this instance, and the limits on them: each stream holds a socket
// and an MCP server, so a client may hold only a few, all clients together a bounded number, and a
// stream nobody posts to is closed after a while (one with a request still running is not idle).
import { clientKey } from '../../net/client-key.ts';
import type { SseServerTransport } from './sse-transport.ts';

export interface SseLimits {
  /** Streams open at once on this instance. */
  maxSessions: number;
  /** Streams open at once for one client (an IPv4 address or an IPv6 /64). */
  maxPerClient: number;
  /** A stream with no message posted to it (and no answer owed) for this long is closed. */
  idleTimeoutMs: number;
}

export interface SseRefusal {
  status: 429 | 503;
  limit: 'per-client' | 'global';
  retryAfterSeconds: number;
  message: string;
}

/** What the gateway exposes of the open sessions (leak checks). */
export interface SseSessions {
  readonly size: number;
  get(sessionId: string): SseServerTransport | undefined;
}

interface Session {
  transport: SseServerTransport;
  client: string;
  idle: NodeJS.Timeout;
  lastMessageAt: number;
}

// A global refusal frees up as soon as anyone closes a stream: there is no better guess than soon.
const GLOBAL_RETRY_AFTER_SECONDS = 5;

export class SseSessionRegistry implements SseSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #byClient = new Map<string, Set<Session>>();

  constructor(private readonly limits: SseLimits) {}

  get size(): number {
    return this.#sessions.size;
  }

  get(sessionId: string): SseServerTransport | undefined {
    return this.#sessions.get(sessionId)?.transport;
  }

  /** Why a new stream from `ip` is refused now, or undefined when it may open. */
  refusal(ip: string): SseRefusal | undefined {
    const client = clientKey(ip);
    const { maxPerClient, maxSessions } = this.limits;
    if ((this.#byClient.get(client)?.size ?? 0) >= maxPerClient) {
      return {
        status: 429,
        limit: 'per-client',
        retryAfterSeconds: this.#secondsUntilFreed(client),
        message: `Too many open SSE sessions from your address (${maxPerClient} per client); close one, retry later, or use Streamable HTTP on POST /mcp`,
      };
    }
    if (this.#sessions.size >= maxSessions) {
      return {
        status: 503,
        limit: 'global',
        retryAfterSeconds: GLOBAL_RETRY_AFTER_SECONDS,
        message: `Too many open SSE sessions (${maxSessions}); retry later or use Streamable HTTP on POST /mcp`,
      };
    }
    return undefined;
  }

  add(transport: SseServerTransport, ip: string): void {
    const client = clientKey(ip);
    const idle = setTimeout(() => this.#closeIfIdle(transport.sessionId), this.limits.idleTimeoutMs);
    idle.unref();
    const session: Session = { transport, client, idle, lastMessageAt: Date.now() };
    this.#sessions.set(transport.sessionId, session);
    const own = this.#byClient.get(client) ?? new Set<Session>();
    own.add(session);
    this.#byClient.set(client, own);
  }

  /** A message was posted to the session: its idle clock starts again. */
  touch(sessionId: string): void {
    const session = this.#sessions.get(sessionId);
    if (!session) return;
    session.lastMessageAt = Date.now();
    session.idle.refresh();
  }

  delete(sessionId: string): void {
    const session = this.#sessions.get(sessionId);
    if (!session) return;
    clearTimeout(session.idle);
    this.#sessions.delete(sessionId);
    const own = this.#byClient.get(session.client);
    own?.delete(session);
    if (own?.size === 0) this.#byClient.delete(session.client);
  }

  async closeAll(): Promise<void> {
    for (const session of [...this.#sessions.values()]) await session.transport.close();
  }

  #closeIfIdle(sessionId: string): void {
    const session = this.#sessions.get(sessionId);
    if (!session) return;
    if (session.transport.busy) {
      session.idle.refresh();
      return;
    }
    const seconds = Math.round(this.limits.idleTimeoutMs / 1000);
    void session.transport.close(`closed: no message posted to this session for ${seconds} s; open a new one with GET /mcp/sse`);
    this.delete(sessionId);
  }

  /** When the client's least recently used stream would be closed for idleness, in whole seconds. */
  #secondsUntilFreed(client: string): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const session of this.#byClient.get(client) ?? []) oldest = Math.min(oldest, session.lastMessageAt);
    const ms = Number.isFinite(oldest) ? oldest + this.limits.idleTimeoutMs - Date.now() : 0;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}
