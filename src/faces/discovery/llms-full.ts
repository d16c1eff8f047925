// GET /llms-full.txt: a plain-text guide for language models, derived from the catalogue.
import { exampleRequest } from '../http/http-example.ts';
import type { DocumentContext } from './openapi.ts';
import { serviceDescription } from './openapi.ts';
import { httpInputSchema } from './http-input-schema.ts';

function describeParameter(name: string, property: Record<string, unknown>, required: boolean): string {
  const facts: string[] = [];
  const type = property.type ?? (property.anyOf ? 'JSON array or string' : 'any');
  facts.push(String(type));
  facts.push(required ? 'required' : 'optional');
  if (Array.isArray(property.enum)) facts.push(`one of ${property.enum.join(', ')}`);
  if (property.default !== undefined) facts.push(`default ${JSON.stringify(property.default)}`);
  if (property.minimum !== undefined || property.maximum !== undefined) facts.push(`range ${String(property.minimum ?? '')}-${String(property.maximum ?? '')}`);
  if (property.maxLength !== undefined) facts.push(`at most ${String(property.maxLength)} characters`);
  const description = typeof property.description === 'string' ? ` ${property.description}` : '';
  return `    - ${name} (${facts.join(', ')}).${description}`;
}

export function llmsFullText(context: DocumentContext): string {
  const [sample] = context.requirements('0.001');
  const base = context.publicBaseUrl;
  const lines: string[] = [
    '# toolgate',
    '',
    serviceDescription,
    '',
    `Base URL: ${base}`,
    `Network: ${sample?.network ?? ''}   USDC: ${sample?.asset ?? ''}   Pay to: ${sample?.payTo ?? ''}`,
    `EIP-712 domain of USDC: name "${String(sample?.extra?.name ?? '')}", version "${String(sample?.extra?.version ?? '')}"`,
    '',
    '## How to pay (x402 version 2, HTTP)',
    '',
    '1. Call the endpoint. Invalid input answers 400 naming the fields (free). Otherwise the answer is 402 with header',
    '   PAYMENT-REQUIRED: base64 of JSON {x402Version: 2, error, resource, accepts: [{scheme: "exact", network, amount,',
    '   asset, payTo, maxTimeoutSeconds, extra: {name, version}}], extensions}. The same JSON is the body.',
    '2. Sign an EIP-712 TransferWithAuthorization (EIP-3009) of USDC: from = you, to = payTo, value = amount (atomic,',
    '   6 decimals, exactly), validAfter <= now, validBefore >= now + 6 s, nonce = 32 random bytes; domain = {name,',
    '   version} from extra, chainId from network, verifyingContract = asset. No ETH is needed to pay.',
    '3. Repeat the call with header PAYMENT-SIGNATURE: base64 of JSON {x402Version: 2, accepted: <the accepts entry>,',
    '   payload: {signature, authorization: {from, to, value, validAfter, validBefore, nonce}}} (X-PAYMENT also works).',
    '4. 200: the result, with header PAYMENT-RESPONSE: base64 of JSON {success: true, transaction, network, payer}.',
    '   A 402 on the paid retry gives the reason in "error" (a 400 with PAYMENT-REQUIRED if the header was not an x402 v2',
    '   payment at all); a failed settlement never delivers the result and never',
    '   charges. Every authorization is used once. The official client @x402/fetch does all of this.',
    '',
    '## The MCP way',
    '',
    `MCP server: ${base}/mcp (Streamable HTTP, JSON-RPC 2.0) or ${base}/mcp/sse (legacy SSE). Same tools, same prices.`,
    'tools/list is free. An unpaid tools/call returns isError with the PaymentRequired object in structuredContent;',
    'retry with the signed payment object in params._meta["x402/payment"]; the result carries',
    '_meta["x402/payment-response"].',
    '',
    '## Answers',
    '',
    '200 paid result; 400 invalid input (free); 402 payment required or refused; 501 tool not built yet (free);',
    '502/503/504 upstream, infrastructure or timeout failure (never charged). Error bodies: {error, message, issues?, charged: false}.',
    '',
    `## Tools (${context.catalog.length})`,
  ];
  for (const tool of context.catalog) {
    lines.push('', `### ${tool.name}: ${tool.title}`, '', tool.description, `Price: ${tool.price} USDC per call.${tool.handler || tool.http.some((r) => r.handler) ? '' : ' Not available yet (answers 501, free).'}`);
    for (const route of tool.http) {
      const schema = httpInputSchema(tool, route);
      const required = new Set(schema.required ?? []);
      const request = exampleRequest(tool, route);
      lines.push('', `${route.method} ${route.path}${route.summary ? ` (${route.summary})` : ''}`);
      const parameters = Object.entries(schema.properties);
      lines.push(parameters.length ? `  ${route.method === 'GET' ? 'Query parameters' : 'JSON body'}:` : '  No parameters.');
      for (const [name, property] of parameters) lines.push(describeParameter(name, property, required.has(name)));
      lines.push(
        '  Example request:',
        `    ${request.method} ${base}${request.pathWithQuery}${request.body ? `\n    Content-Type: application/json\n    ${JSON.stringify(request.body)}` : ''}`,
        '  Example response without payment: 402 with PAYMENT-REQUIRED (amount ' + (context.requirements(tool.price)[0]?.amount ?? '') + ' atomic USDC).',
      );
    }
    lines.push(`  MCP tool: ${tool.name}, arguments ${JSON.stringify(tool.example)}`);
  }
  return `${lines.join('\n')}\n`;
}
