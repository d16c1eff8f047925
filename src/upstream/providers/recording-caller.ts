// For provider client tests: a ProviderCaller that answers with one response built from fixture
// bytes and records each request, so a test sees what the client asked for and runs the real
// parser on the provider's real format. Like the upstream layer, it only hands a non-2xx status to
// the parser when the request accepted that status.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller, ProviderRequest, ResponseParser } from '../provider-call.ts';
import type { ProviderDefinition } from '../provider.ts';
import { UpstreamError } from '../upstream-errors.ts';

const FIXTURES = new URL('../../../test/fixtures/upstream/', import.meta.url);

export function fixtureBytes(provider: string, file: string): Buffer {
  return readFileSync(new URL(`${provider}/${file}`, FIXTURES));
}

/** A response as the raw HTTP layer would hand it over: the fixture's bytes, untouched. */
export function fixtureResponse(provider: string, file: string, init: { status?: number; contentType?: string } = {}): RawResponse {
  return rawResponse(fixtureBytes(provider, file), init);
}

export function rawResponse(body: Buffer | string, init: { status?: number; contentType?: string } = {}): RawResponse {
  return {
    url: new URL('https://provider.test/'),
    status: init.status ?? 200,
    headers: init.contentType ? { 'content-type': init.contentType } : {},
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
    truncated: false,
    remoteAddress: undefined,
  };
}

export interface RecordedCall {
  provider: ProviderDefinition;
  request: ProviderRequest;
}

export class RecordingCaller implements ProviderCaller {
  readonly calls: RecordedCall[] = [];

  constructor(private readonly response: RawResponse) {}

  isConfigured(): boolean {
    return true;
  }

  async call<T>(provider: ProviderDefinition, request: ProviderRequest, parse: ResponseParser<T>): Promise<ProviderAnswer<T>> {
    this.calls.push({ provider, request });
    const { status } = this.response;
    if ((status < 200 || status > 299) && !(request.acceptStatuses ?? []).includes(status)) {
      throw new Error(`HTTP ${status} would not reach the parser: the request does not accept it`);
    }
    return {
      value: parse(this.response),
      source: { provider: provider.id, name: provider.name, url: `${provider.baseUrl.default ?? 'https://provider.test'}${request.path}`, fetchedAt: new Date(0).toISOString(), attribution: provider.attribution },
    };
  }

  /** The one request made; fails the test when there was not exactly one. */
  only(): RecordedCall {
    const [call, ...others] = this.calls;
    if (!call || others.length > 0) throw new Error(`expected exactly one request, saw ${this.calls.length}`);
    return call;
  }
}

/** The UpstreamError a parser throws on a failure fixture (fails the test when it throws anything else, or nothing). */
export function failureOf(run: () => unknown): UpstreamError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof UpstreamError, `expected an UpstreamError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the parser to throw');
}
