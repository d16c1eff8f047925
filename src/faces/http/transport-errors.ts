// Errors Fastify raises before a route runs (body too large, wrong content type, broken JSON),
// answered as clear 400s that name what was wrong. They are never charged: no payment was asked.
import type { FastifyError } from 'fastify';

export interface TransportErrorAnswer {
  status: number;
  body: { error: string; message: string; issues?: { field: string; message: string }[]; charged: false };
}

export function transportErrorAnswer(error: FastifyError, maxBodyBytes: number): TransportErrorAnswer {
  const invalid = (field: string, message: string): TransportErrorAnswer => ({
    status: 400,
    body: { error: 'invalid_input', message: `${message}. Nothing was charged.`, issues: [{ field, message }], charged: false },
  });
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return invalid('body', `body: larger than the ${maxBodyBytes} bytes this gateway accepts`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalid('content-type', 'content-type: expected application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalid('body', 'body: empty; expected a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalid('body', 'body: not valid JSON');
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return invalid('body', `body: not valid JSON (${error.message})`);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { error: error.code ?? 'bad_request', message: error.message, charged: false } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side. Nothing was charged.', charged: false } };
}
