// A ToolContext for calling a handler directly in a unit test: no provider is configured and
// caller URLs go through the real SSRF guard with the default policy, whose resolver refuses.
import type { ToolContext } from '../../src/catalog/tool.ts';
import type { HostResolver } from '../../src/upstream/http/http-types.ts';
import { RawFetchError } from '../../src/upstream/http/http-types.ts';
import { Upstream } from '../../src/upstream/upstream.ts';
import { WebPages } from '../../src/upstream/web-pages.ts';

const noResolver: HostResolver = async (hostname) => {
  throw new Error(`no DNS in unit tests (asked for ${hostname})`);
};

export function testContext(parts: Partial<ToolContext> & Pick<ToolContext, 'signal' | 'now' | 'caller'>): ToolContext {
  const deadline = parts.deadline ?? Date.now() + 15_000;
  const upstream = new Upstream([], { userAgent: 'toolgate-test', baseUrls: {}, apiKeys: {} }, async () => {
    throw new RawFetchError('connect_failed', 'no network in unit tests');
  });
  return {
    deadline,
    upstream: upstream.forCall(deadline),
    web: new WebPages({ policy: { allowedPorts: [80, 443], allow: [], resolve: noResolver }, pageMaxBytes: 5 * 1024 * 1024, renderer: undefined }),
    ...parts,
  };
}
