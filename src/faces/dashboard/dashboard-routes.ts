// The merchant dashboard (GET /dashboard, its script and style), the JSON behind it
// (GET /dashboard/api/...), and the landing page (GET / and GET /api). All free.
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Tool } from '../../catalog/tool.ts';
import type { HealthReport } from '../../health.ts';
import type { CallMetrics } from '../../payments/call-metrics.ts';
import type { PaymentLedger } from '../../payments/ledger/payment-ledger.ts';
import type { PaymentTerms } from '../../payments/requirements.ts';
import type { DashboardAccess } from './dashboard-access.ts';
import { dashboardAccess } from './dashboard-access.ts';
import type { EthPrice, UpstreamHealth } from './dashboard-data.ts';
import type { ChannelSummary } from '../../payments/channels/channel-claims.ts';
import { DashboardData, DEFAULT_REVENUE_DAYS, MAX_REVENUE_DAYS, accessJson } from './dashboard-data.ts';
import { landingHtml, landingJson } from './landing-page.ts';

export interface DashboardDependencies {
  catalog: readonly Tool[];
  ledger: PaymentLedger;
  metrics: CallMetrics;
  terms: PaymentTerms;
  facilitatorKind: string;
  dashboardToken: string | undefined;
  publicBaseUrl: string;
  health: () => Promise<HealthReport>;
  upstreams?: () => Promise<UpstreamHealth[]>;
  ethPrice?: () => Promise<EthPrice | undefined>;
  /** What the payment channels hold, when they are offered. */
  channels?: () => Promise<ChannelSummary>;
  /** GET /metrics in Prometheus' text format, guarded like the detailed view. */
  prometheus?: { text(): Promise<string>; readonly contentType: string };
}

/** The JSON endpoints, and who may read them. */
export const dashboardApi: readonly { path: string; access: 'public' | 'detailed'; summary: string }[] = [
  { path: '/dashboard/api', access: 'public', summary: 'This list' },
  { path: '/dashboard/api/overview', access: 'public', summary: 'Revenue (total, per tool, per day, per scheme), calls and outcomes, settlement states and latency, payment channels, recent calls' },
  { path: '/dashboard/api/prices', access: 'public', summary: 'The price list, from the catalogue' },
  { path: '/dashboard/api/health', access: 'public', summary: 'Chain RPC, facilitator, ledger and upstream providers' },
  { path: '/dashboard/api/payments', access: 'detailed', summary: 'Pending, failed, in-flight and recent settled payments, and channel calls not yet collected, with payer addresses and transaction hashes' },
];

const pageFile = (name: string) => readFileSync(new URL(`./page/${name}`, import.meta.url), 'utf8');

/** Strict: the page loads only its own script and style and talks only to its own API. */
const dashboardPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The landing page has no script at all; its only style is inline. */
const landingPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HEALTH_CACHE_MS = 5_000;

function pageHeaders(reply: FastifyReply, policy: string): FastifyReply {
  return reply
    .header('content-security-policy', policy)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store');
}

/** Serves JSON to readers the access rules let through; a wrong token gets 401 and nothing else. */
function guarded(
  deps: DashboardDependencies,
  need: 'public' | 'detailed',
  answer: (access: DashboardAccess, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = dashboardAccess(
      { token: deps.dashboardToken, network: deps.terms.network.name },
      { authorization: request.headers.authorization, ip: request.ip, host: request.headers.host, origin: request.headers.origin },
    );
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('vary', 'Authorization, Origin');
    if (access.level === 'refused') {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="toolgate-dashboard"')
        .send({ error: 'invalid_token', message: `Dashboard token refused: ${access.reason}.` });
    }
    if (need === 'detailed' && access.level !== 'detailed') {
      return reply.code(403).send({
        error: 'token_required',
        message: `Payer addresses and transactions need the dashboard token: send "Authorization: Bearer <TOOLGATE_DASHBOARD_TOKEN>" (${access.reason}).`,
        access: accessJson(access),
      });
    }
    return answer(access, request, reply);
  };
}

export function registerDashboardRoutes(app: FastifyInstance, deps: DashboardDependencies): void {
  // One chain probe per few seconds however many dashboards are open.
  let healthProbe: { at: number; report: Promise<HealthReport> } | undefined;
  const cachedHealth = () => {
    if (!healthProbe || Date.now() - healthProbe.at > HEALTH_CACHE_MS) healthProbe = { at: Date.now(), report: deps.health() };
    return healthProbe.report;
  };
  const data = new DashboardData({
    catalog: deps.catalog,
    reports: deps.ledger.reports(),
    metrics: deps.metrics,
    terms: deps.terms,
    facilitatorKind: deps.facilitatorKind,
    health: cachedHealth,
    ...(deps.upstreams ? { upstreams: deps.upstreams } : {}),
    ...(deps.ethPrice ? { ethPrice: deps.ethPrice } : {}),
    ...(deps.channels ? { channels: deps.channels } : {}),
  });
  const page = { html: pageFile('dashboard.html'), script: pageFile('dashboard.js'), style: pageFile('dashboard.css') };
  const landing = { html: landingHtml(deps), json: JSON.stringify(landingJson(deps)) };

  app.get('/dashboard', async (_request, reply) => pageHeaders(reply, dashboardPolicy).type('text/html; charset=utf-8').send(page.html));
  app.get('/dashboard/', async (_request, reply) => reply.redirect('/dashboard', 301));
  app.get('/dashboard/dashboard.js', async (_request, reply) =>
    pageHeaders(reply, dashboardPolicy).type('text/javascript; charset=utf-8').send(page.script),
  );
  app.get('/dashboard/dashboard.css', async (_request, reply) => pageHeaders(reply, dashboardPolicy).type('text/css; charset=utf-8').send(page.style));

  app.get('/dashboard/api', guarded(deps, 'public', async (access) => ({ access: accessJson(access), endpoints: dashboardApi })));
  app.get(
    '/dashboard/api/overview',
    guarded(deps, 'public', async (access, request, reply) => {
      const raw = (request.query as Record<string, unknown>).days;
      const days = raw === undefined ? DEFAULT_REVENUE_DAYS : Number(raw);
      if (!Number.isInteger(days) || days < 1 || days > MAX_REVENUE_DAYS) {
        return reply.code(400).send({ error: 'invalid_input', message: `days must be a whole number from 1 to ${MAX_REVENUE_DAYS} (got "${String(raw)}")` });
      }
      return data.overview(access, days);
    }),
  );
  app.get('/dashboard/api/prices', guarded(deps, 'public', async () => data.prices()));
  app.get('/dashboard/api/health', guarded(deps, 'public', async (access) => data.health(access)));
  app.get('/dashboard/api/payments', guarded(deps, 'detailed', async () => data.payments()));
  const { prometheus } = deps;
  if (prometheus) {
    app.get('/metrics', guarded(deps, 'detailed', async (_access, _request, reply) => reply.type(prometheus.contentType).send(await prometheus.text())));
  }

  const sendLanding = async (request: FastifyRequest, reply: FastifyReply) => {
    const wantsJson = /application\/json/.test(request.headers.accept ?? '') && !/text\/html/.test(request.headers.accept ?? '');
    if (wantsJson) return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(landing.json);
    return pageHeaders(reply, landingPolicy).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(landing.html);
  };
  app.get('/', sendLanding);
  app.get('/api', sendLanding);
}
