// The logging surface the core uses; Fastify's pino logger fits it, and tests can pass a silent one.
export interface Logger {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
  /** The same logger with `bindings` on every line (e.g. the request id). */
  child(bindings: Record<string, unknown>): Logger;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLogger };
