// Reading a provider's answer: its body as text, and as the JSON object a JSON API promises.
import type { RawResponse } from '../http/http-types.ts';
import { badAnswer } from '../upstream-errors.ts';

export type JsonObject = Readonly<Record<string, unknown>>;

export function bodyText(response: RawResponse): string {
  return response.body.toString('utf8');
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string member, or undefined when it is missing or not a string. */
export function stringMember(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** An HTML page where a JSON API should have answered (an error page, a proxy, a disabled format). */
export function looksLikeHtml(response: RawResponse): boolean {
  const contentType = response.headers['content-type'] ?? '';
  return contentType.includes('text/html') || bodyText(response).trimStart().startsWith('<');
}

/** The body parsed as a JSON object, or a bad answer saying what came instead. */
export function jsonObjectOf(response: RawResponse, provider: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(bodyText(response));
  } catch {
    const contentType = response.headers['content-type'] ?? 'no content type';
    throw badAnswer(provider, `its answer is not JSON (${contentType}, HTTP ${response.status})`, response.status);
  }
  if (!isJsonObject(value)) throw badAnswer(provider, 'its answer is JSON but not an object', response.status);
  return value;
}
