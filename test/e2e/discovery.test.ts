// The discovery documents are generated from the catalogue: every tool in every document with the
// same price and parameters; each document valid by an outside standard.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { catalog } from '../../src/catalog/index.ts';
import type { HttpRoute, Tool } from '../../src/catalog/tool.ts';
import { exampleRequest } from '../../src/faces/http/http-example.ts';
import { usdcToAtomic } from '../../src/payments/price.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { readPaymentRequired } from '../support/payments.ts';

interface OpenApiParameter { name: string; in: string; required: boolean; schema: Record<string, unknown> }
interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content: { 'application/json': { schema: { properties: Record<string, Record<string, unknown>>; required?: string[] } } } };
  responses: Record<string, { headers?: Record<string, unknown> }>;
  'x-payment-info': { price: string; amount: string; asset: string; network: string; payTo: string; scheme: string };
}
interface OpenApi { openapi: string; info: { version: string }; paths: Record<string, Record<string, OpenApiOperation>> }

let t: TestGateway;
let openapi: OpenApi;
before(async () => {
  t = await startTestGateway({ env: { TOOLGATE_PUBLIC_BASE_URL: 'https://tools.example.com' } });
  openapi = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as OpenApi;
});
after(() => t?.close());

const routes = catalog.flatMap((tool) => tool.http.map((route) => ({ tool, route })));
const httpNames = (tool: Tool, route: HttpRoute) =>
  Object.keys((route.input ?? tool.input).shape).map((name) => route.rename?.[name] ?? name).sort();
const operationOf = (route: HttpRoute) => openapi.paths[route.path]?.[route.method.toLowerCase()];
const operationInput = (operation: OpenApiOperation): Record<string, Record<string, unknown> & { required: boolean }> =>
  operation.parameters
    ? Object.fromEntries(operation.parameters.map((p) => [p.name, { ...p.schema, required: p.required }]))
    : Object.fromEntries(
        Object.entries(operation.requestBody?.content['application/json'].schema.properties ?? {}).map(([name, schema]) => [
          name,
          { ...schema, required: (operation.requestBody?.content['application/json'].schema.required ?? []).includes(name) },
        ]),
      );

describe('/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document (version 2.1.0), by an independent validator', async () => {
    assert.equal(openapi.openapi, '3.1.0');
    assert.equal(openapi.info.version, '2.1.0');
    const result = await new Validator().validate(openapi as unknown as Parameters<Validator['validate']>[0]);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  test('passes the Redocly linter\'s recommended rules without an error (a second, independent tool)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(openapi));
      const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
      const run = spawnSync(process.execPath, [cli, 'lint', file, '--format=json'], {
        encoding: 'utf8',
        timeout: 60_000,
        // No telemetry, no update check: the linter stays off the network.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(run.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
      const errors = report.problems.filter((p) => p.severity === 'error');
      assert.equal(report.totals.errors, 0, JSON.stringify(errors, null, 2));
      // The warnings left are by design: free documents have no 4xx answer, and local mode serves on localhost.
      const warned = new Set(report.problems.map((p) => p.ruleId));
      for (const rule of warned) assert.ok(['operation-4xx-response', 'no-server-example.com'].includes(rule), `unexpected Redocly warning ${rule}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('has every tool endpoint with its parameters and price, and the free endpoints', () => {
    for (const { tool, route } of routes) {
      const operation = operationOf(route);
      assert.ok(operation, `${route.method} ${route.path}`);
      assert.deepEqual(Object.keys(operationInput(operation)).sort(), httpNames(tool, route), `${route.path}: parameters`);
      const info = operation['x-payment-info'];
      assert.equal(info.price, tool.price);
      assert.equal(BigInt(info.amount), usdcToAtomic(tool.price));
      assert.equal(info.scheme, 'exact');
      assert.equal(info.network, t.gateway.network.caip2);
      assert.equal(info.payTo, t.gateway.terms.payTo);
      assert.equal(info.asset, t.gateway.network.usdc.address);
      assert.ok(operation.responses['402']?.headers?.['PAYMENT-REQUIRED'], `${route.path}: 402 documents PAYMENT-REQUIRED`);
      assert.ok(operation.responses['400'], `${route.path}: 400`);
    }
    for (const path of ['/health', '/openapi.json', '/llms-full.txt', '/sitemap.xml', '/.well-known/ai-plugin.json', '/.well-known/x402', '/dashboard']) {
      assert.ok(openapi.paths[path]?.get, path);
    }
  });

  test('defaults, enums and ranges come through from the schemas', () => {
    const search = operationInput(operationOf(catalog.find((t) => t.name === 'search_web')!.http[0]!)!);
    assert.deepEqual({ ...search.limit }, { type: 'integer', minimum: 1, maximum: 10, default: 5, required: false });
    assert.equal(search.q?.required, true);
    const qr = operationInput(operationOf(catalog.find((t) => t.name === 'generate_qr_code')!.http[0]!)!);
    assert.deepEqual(qr.format?.enum, ['svg', 'data_url']);
    assert.equal(qr.format?.default, 'svg');
  });
});

test('/llms-full.txt names every tool, endpoint, parameter and price, with an example request', async () => {
  const response = await fetch(`${t.baseUrl}/llms-full.txt`);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
  const text = await response.text();
  assert.match(text, /PAYMENT-SIGNATURE/);
  assert.match(text, /_meta\["x402\/payment"\]/);
  for (const { tool, route } of routes) {
    const section = text.slice(text.indexOf(`### ${tool.name}:`));
    assert.ok(text.includes(`### ${tool.name}: ${tool.title}`), tool.name);
    assert.ok(section.includes(`Price: ${tool.price} USDC per call.`), `${tool.name}: price`);
    assert.ok(section.includes(`${route.method} ${route.path}`), `${route.path}`);
    for (const name of httpNames(tool, route)) assert.ok(section.includes(`    - ${name} (`), `${route.path}: ${name}`);
    assert.ok(section.includes(`https://tools.example.com${exampleRequest(tool, route).pathWithQuery}`), `${route.path}: example`);
  }
});

test('/sitemap.xml is well-formed XML listing absolute URLs under the public base URL', async () => {
  const xml = await (await fetch(`${t.baseUrl}/sitemap.xml`)).text();
  assert.equal(XMLValidator.validate(xml), true);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { urlset: { '@_xmlns': string; url: { loc: string }[] } };
  assert.equal(parsed.urlset['@_xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9');
  const locations = parsed.urlset.url.map((u) => u.loc);
  assert.ok(locations.length >= 7);
  for (const loc of locations) assert.match(loc, /^https:\/\/tools\.example\.com\//);
  assert.ok(locations.includes('https://tools.example.com/openapi.json'));
});

test('/.well-known/ai-plugin.json has the manifest\'s required fields', async () => {
  const manifest = (await (await fetch(`${t.baseUrl}/.well-known/ai-plugin.json`)).json()) as Record<string, unknown>;
  for (const field of ['schema_version', 'name_for_human', 'name_for_model', 'description_for_human', 'description_for_model', 'auth', 'api', 'logo_url', 'contact_email', 'legal_info_url']) {
    assert.ok(manifest[field], field);
  }
  assert.deepEqual(manifest.auth, { type: 'none' });
  assert.deepEqual(manifest.api, { type: 'openapi', url: 'https://tools.example.com/openapi.json', is_user_authenticated: false });
  assert.equal((await fetch(`${t.baseUrl}/logo.svg`)).status, 200);
  assert.equal((await fetch(`${t.baseUrl}/legal`)).status, 200);
});

interface ListedResource {
  resource: string; type: string; lastUpdated: unknown; accepts: PaymentRequirements[];
  metadata: { method?: string; price: string; extensions?: { bazaar?: { info: { input: { body?: Record<string, unknown> } } } } };
}
const x402List = async () => (await (await fetch(`${t.baseUrl}/.well-known/x402`)).json()) as { x402Version: number; items: ListedResource[] };

test('/.well-known/x402 lists every paid resource with the requirements its 402 offers', async () => {
  const list = await x402List();
  assert.equal(list.x402Version, 2);
  for (const { tool, route } of routes) {
    const item = list.items.find((i) => i.type === 'http' && new URL(i.resource).pathname === route.path && i.metadata.method === route.method);
    assert.ok(item, route.path);
    assert.equal(item.type, 'http');
    assert.equal(item.metadata.price, tool.price);
    assert.deepEqual(item.accepts, t.gateway.gate.requirements(tool.price));
  }
  for (const tool of catalog) assert.ok(list.items.some((i) => i.resource === `mcp://tool/${tool.name}` && i.type === 'mcp'), tool.name);
});

test('/.well-known/x402: every HTTP resource answers 402 when fetched as listed (a GET with its example input in the URL)', async () => {
  const listed = (await x402List()).items.filter((i) => i.type === 'http');
  assert.equal(listed.length, routes.length);
  let gets = 0;
  for (const item of listed) {
    const url = item.resource.replace('https://tools.example.com', t.baseUrl);
    const body = item.metadata.extensions?.bazaar?.info.input.body;
    const response = item.metadata.method === 'GET'
      ? await fetch(url)
      : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(response.status, 402, `${item.metadata.method} ${item.resource}`);
    // The 402 names the URL as it was asked, query included (what a checker compares with its own).
    assert.equal(readPaymentRequired(response).resource.url, item.resource);
    if (item.metadata.method === 'GET') gets += 1;
  }
  assert.ok(gets >= 10, `${gets} GET resources`);
  // Validation before payment still holds for anything else: a listed GET without its input is refused free.
  const convert = listed.find((i) => new URL(i.resource).pathname === '/api/crypto/unit-convert')!;
  assert.match(convert.resource, /\?value=/);
  assert.equal((await fetch(`${t.baseUrl}/api/crypto/unit-convert`)).status, 400);
});

test('/.well-known/x402: lastUpdated is a Unix timestamp in seconds (x402 v2 §8.2), not a date string', async () => {
  const startedBy = Math.floor(Date.now() / 1000);
  for (const item of (await x402List()).items) {
    assert.equal(typeof item.lastUpdated, 'number', item.resource);
    assert.ok(Number.isInteger(item.lastUpdated) && (item.lastUpdated as number) <= startedBy && (item.lastUpdated as number) > startedBy - 600, `${item.resource}: ${String(item.lastUpdated)}`);
  }
});

test('the 402 of every built endpoint carries a valid bazaar extension matching its OpenAPI entry', async () => {
  let checked = 0;
  for (const { tool, route } of routes) {
    if (!(route.handler ?? tool.handler)) continue;
    const request = exampleRequest(tool, route);
    const response = await fetch(`${t.baseUrl}${request.pathWithQuery}`, {
      method: request.method,
      ...(request.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) } : {}),
    });
    assert.equal(response.status, 402, route.path);
    const required: PaymentRequired = readPaymentRequired(response);
    const bazaar = required.extensions?.bazaar as { info: { input: { method: string; queryParams?: object; body?: object } }; schema: { properties: { input: { properties: Record<string, { properties: Record<string, Record<string, unknown>>; required?: string[] }> } } } };
    assert.ok(bazaar, `${route.path}: bazaar`);
    assert.deepEqual(validateDiscoveryExtension(bazaar as never), { valid: true });
    assert.equal(bazaar.info.input.method, route.method);
    const declared = bazaar.schema.properties.input.properties[route.method === 'GET' ? 'queryParams' : 'body']!;
    const documented = operationInput(operationOf(route)!);
    assert.deepEqual(Object.keys(declared.properties).sort(), Object.keys(documented).sort(), `${route.path}: same parameters`);
    for (const [name, schema] of Object.entries(declared.properties)) {
      const { required: isRequired, description: _d, ...documentedSchema } = documented[name] as Record<string, unknown>;
      const { description: _e, ...declaredSchema } = schema;
      assert.deepEqual(declaredSchema, documentedSchema, `${route.path}: ${name}`);
      assert.equal((declared.required ?? []).includes(name), isRequired, `${route.path}: ${name} required`);
    }
    checked += 1;
  }
  assert.ok(checked >= 5);
});
