// Turns what node:http, node:tls, node:dns and node:zlib throw into the few failures callers act on.
import { RawFetchError, type RawFetchFailure } from './http-types.ts';
import { UnsupportedEncodingError } from './body-decoding.ts';

const failureOfCode: Readonly<Record<string, RawFetchFailure>> = {
  ENOTFOUND: 'dns_failed',
  EAI_AGAIN: 'dns_failed',
  EAI_FAIL: 'dns_failed',
  EAI_NODATA: 'dns_failed',
  EAI_NONAME: 'dns_failed',
  ECONNREFUSED: 'connect_failed',
  EHOSTUNREACH: 'connect_failed',
  EHOSTDOWN: 'connect_failed',
  ENETUNREACH: 'connect_failed',
  ENETDOWN: 'connect_failed',
  EADDRNOTAVAIL: 'connect_failed',
  ETIMEDOUT: 'connect_failed',
  EACCES: 'connect_failed',
  EPERM: 'connect_failed',
  ECONNRESET: 'reset',
  ECONNABORTED: 'reset',
  EPIPE: 'reset',
  ERR_STREAM_PREMATURE_CLOSE: 'reset',
  ERR_INVALID_HTTP_TOKEN: 'protocol_error',
  ERR_INVALID_CHAR: 'protocol_error',
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

function codeOf(error: unknown): string | undefined {
  if (error instanceof AggregateError) return codeOf(error.errors[0]);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The RawFetchError for an error of one exchange. `target` names the request without its query
 * string (queries may hold API keys); `answered` tells whether the response headers had arrived.
 */
export function toRawFetchError(error: unknown, target: string, answered: boolean): RawFetchError {
  if (error instanceof RawFetchError) return error;
  if (error instanceof UnsupportedEncodingError) return new RawFetchError('protocol_error', `${target}: ${error.message}`);
  const code = codeOf(error);
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  if (code?.startsWith('HPE_')) return new RawFetchError('protocol_error', `${target}: malformed HTTP response (${code})`);
  // zlib codes are Z_*, brotli's are ERR__ERROR_* (node names them after the decoder's enum).
  if (code?.startsWith('Z_') || code?.startsWith('ERR__')) return new RawFetchError('protocol_error', `${target}: the body could not be decompressed (${code})`);
  if (code && TLS_CODE.test(code)) return new RawFetchError('connect_failed', `${target}: TLS handshake failed (${code})`);
  const failure = (code && failureOfCode[code]) || (answered ? 'reset' : 'connect_failed');
  return new RawFetchError(failure, `${target}: ${phrases[failure]} (${detail})`);
}

const phrases: Readonly<Record<RawFetchFailure, string>> = {
  timeout: 'timed out',
  aborted: 'aborted',
  connect_failed: 'could not connect',
  reset: 'the connection was closed before the answer was complete',
  dns_failed: 'the host name could not be resolved',
  protocol_error: 'malformed HTTP response',
};
