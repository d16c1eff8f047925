// GET / and GET /api: what this service is, how to pay, its tools and prices, and links to its
// documents. HTML for people, JSON for `Accept: application/json`. Built once at start from the
// catalogue and the list of free documents; nothing here holds a name, price or parameter of its own.
import type { Tool } from '../../catalog/tool.ts';
import { freeEndpoints } from '../discovery/openapi.ts';
import { usdcToAtomic } from '../../payments/price.ts';
import type { PaymentTerms } from '../../payments/requirements.ts';
import { money } from './dashboard-data.ts';

export interface LandingContext {
  catalog: readonly Tool[];
  publicBaseUrl: string;
  terms: PaymentTerms;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const mcpEndpoints = [
  { method: 'POST', path: '/mcp', summary: 'MCP over Streamable HTTP (JSON-RPC 2.0); pay in params._meta["x402/payment"]' },
  { method: 'GET', path: '/mcp/sse', summary: 'MCP over the legacy SSE transport (messages to POST /mcp/messages)' },
] as const;

function summary(context: LandingContext): string {
  const { network } = context.terms;
  return (
    `toolgate sells ${context.catalog.length} tools for autonomous agents, each an HTTP endpoint and an MCP tool, ` +
    `paid per call in USDC through x402 version 2 on ${network.name} (${network.caip2}). No account and no API key: ` +
    'the payment is the authentication, and a call that fails is never charged.'
  );
}

export function landingJson(context: LandingContext) {
  const { terms, publicBaseUrl } = context;
  return {
    name: 'toolgate',
    description: summary(context),
    network: { name: terms.network.name, id: terms.network.caip2, asset: terms.network.usdc.address, payTo: terms.payTo },
    howToPay: [
      'Call a tool endpoint; it answers 402 with a PAYMENT-REQUIRED header (base64 JSON, x402 v2) naming the amount, asset, network and pay-to address.',
      'Sign an EIP-3009 TransferWithAuthorization for exactly that amount with the payer wallet (EIP-712 domain from the requirements\' extra).',
      'Repeat the call with the PAYMENT-SIGNATURE header; the answer is 200 with the result and a PAYMENT-RESPONSE header carrying the settlement transaction.',
    ],
    documents: freeEndpoints
      .filter((d) => d.path !== '/')
      .map((d) => ({ path: d.path, url: `${publicBaseUrl}${d.path}`, summary: d.summary, contentType: d.contentType })),
    mcp: mcpEndpoints.map((e) => ({ ...e, url: `${publicBaseUrl}${e.path}` })),
    tools: context.catalog.map((tool) => ({
      name: tool.name,
      title: tool.title,
      price: money(usdcToAtomic(tool.price)),
      http: tool.http.map((route) => ({ method: route.method, path: route.path })),
    })),
  };
}

export function landingHtml(context: LandingContext): string {
  const data = landingJson(context);
  const documents = data.documents
    .map((d) => `<li><a href="${escapeHtml(d.path)}">${escapeHtml(d.path)}</a> <span>${escapeHtml(d.summary)}</span></li>`)
    .join('\n');
  const mcp = data.mcp
    .map((e) => `<li><code>${escapeHtml(`${e.method} ${e.url}`)}</code> <span>${escapeHtml(e.summary)}</span></li>`)
    .join('\n');
  const tools = data.tools
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.title)}<br><code class="muted">${escapeHtml(t.name)}</code></td>` +
        `<td><code>${t.http.map((r) => escapeHtml(`${r.method} ${r.path}`)).join('<br>')}</code></td>` +
        `<td class="num">${escapeHtml(t.price.usdc)}</td></tr>`,
    )
    .join('\n');
  const steps = data.howToPay.map((step) => `<li>${escapeHtml(step)}</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolgate: pay-per-call tools for agents</title>
<meta name="description" content="${escapeHtml(data.description)}">
<link rel="icon" href="/logo.svg" type="image/svg+xml">
<style>
  body { margin: 0; background: #f5f7fb; color: #16202f; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 920px; margin: 0 auto; padding: 32px 22px 48px; }
  h1 { margin: 0 0 6px; font-size: 28px; } h2 { font-size: 18px; margin: 28px 0 8px; }
  a { color: #0b5cff; text-decoration: none; } a:hover { text-decoration: underline; }
  code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  .lead { font-size: 16.5px; color: #344054; }
  .muted, li span { color: #667085; }
  .card { background: #fff; border: 1px solid #e4e8f0; border-radius: 12px; padding: 14px 20px; }
  ol.card { padding-left: 42px; } ol.card li { padding: 3px 0; }
  ul.docs { list-style: none; padding: 4px 20px; margin: 0; } ul.docs li { padding: 6px 0; border-bottom: 1px solid #e4e8f0; } ul.docs li:last-child { border: none; }
  table { width: 100%; border-collapse: collapse; } th, td { text-align: left; padding: 7px 8px; border-bottom: 1px solid #e4e8f0; vertical-align: top; }
  th { color: #667085; font-weight: 500; font-size: 13px; } .num { text-align: right; white-space: nowrap; }
  .meta { display: flex; flex-wrap: wrap; gap: 8px 18px; font-size: 13.5px; color: #667085; }
</style>
</head>
<body>
<main>
<h1>toolgate</h1>
<p class="lead">${escapeHtml(data.description)}</p>
<p class="meta"><span>network <code>${escapeHtml(data.network.id)}</code></span><span>USDC <code>${escapeHtml(data.network.asset)}</code></span><span>pay-to <code>${escapeHtml(data.network.payTo)}</code></span></p>

<h2>How to pay</h2>
<ol class="card">
${steps}
</ol>

<h2>Documents</h2>
<ul class="docs card">
${documents}
</ul>

<h2>MCP</h2>
<ul class="docs card">
${mcp}
</ul>

<h2>Tools and prices</h2>
<div class="card">
<table>
<thead><tr><th>Tool</th><th>HTTP</th><th class="num">USDC per call</th></tr></thead>
<tbody>
${tools}
</tbody>
</table>
</div>
</main>
</body>
</html>
`;
}
