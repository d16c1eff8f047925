// The merchant dashboard's page script: polls /dashboard/api/* and redraws in place, no reload.
// No framework, no build step; charts are inline SVG. Everything shown comes from the JSON API,
// which derives names and prices from the catalogue.
//
// The token: taken once from `#token=…` (never sent to the server) or `?token=…`, or typed into the
// form; kept in sessionStorage (this tab only) and sent as `Authorization: Bearer …`; removed from
// the address bar at once so it is not bookmarked, shared or leaked in a Referer.
'use strict';

(() => {
  const POLL_MS = 2000;
  const HEALTH_POLL_MS = 10000;
  const TOKEN_KEY = 'toolgate.dashboardToken';
  const SVG = 'http://www.w3.org/2000/svg';

  // ---------- DOM helpers ----------
  const byId = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttributes(node, attrs);
    append(node, children);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    setAttributes(node, attrs);
    append(node, children);
    return node;
  }

  function setAttributes(node, attrs) {
    for (const [key, value] of Object.entries(attrs ?? {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  const fill = (id, ...children) => {
    const node = byId(id);
    node.replaceChildren();
    append(node, children);
  };

  /** Links only to http(s) addresses the API built (explorer links). */
  function link(href, text, title) {
    return /^https?:\/\//.test(href ?? '') ? el('a', { href, target: '_blank', rel: 'noopener noreferrer', title }, text) : el('span', { title }, text);
  }

  const shortHex = (hex) => (hex && hex.length > 14 ? `${hex.slice(0, 6)}…${hex.slice(-4)}` : hex ?? '');
  const usdc = (money) => `${money.usdc} USDC`;
  const count = (n) => Number(n).toLocaleString('en-US');
  const ms = (value) =>
    value === null || value === undefined ? '–' : value >= 1000 ? `${Number((value / 1000).toFixed(value >= 10000 ? 0 : 2))} s` : `${Math.round(value)} ms`;
  const time = (iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const dateTime = (iso) => new Date(iso).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const dayLabel = (day) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const codeKey = (code) => code.trim().toLowerCase().replace(/\s+/g, '_');
  /** Axis numbers: at most 6 decimals, no trailing zeros. */
  const axisNumber = (value) => String(Number(value.toFixed(6)));

  function table(headers, rows, emptyText) {
    if (rows.length === 0) return el('p', { class: 'empty', text: emptyText });
    return el(
      'table',
      {},
      el('thead', {}, el('tr', {}, headers.map((h) => el('th', { class: h.num ? 'num' : undefined, text: h.label })))),
      el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((cell, i) => el('td', { class: headers[i]?.num ? 'num' : undefined }, cell))))),
    );
  }

  // ---------- charts (inline SVG) ----------
  /** A round upper bound for an axis; for counts, one whose half is a whole number too. */
  function niceMax(value, integer = false) {
    if (!(value > 0)) return integer ? 2 : 1;
    if (integer && value <= 2) return 2;
    const magnitude = 10 ** Math.floor(Math.log10(value));
    const steps = integer ? [1, 2, 4, 6, 8, 10] : [1, 2, 2.5, 5, 10];
    for (const step of steps) if (value <= step * magnitude) return step * magnitude;
    return 10 * magnitude;
  }

  /** Vertical bars with a y axis; items: { label, value, tip, className }. */
  function columnChart(items, { height = 190, format = axisNumber, labelEvery = 1, integer = false, emptyText } = {}) {
    if (emptyText && items.every((item) => item.value === 0)) return el('p', { class: 'empty', text: emptyText });
    const width = 640;
    const left = 52;
    const right = 8;
    const top = 12;
    const bottom = 26;
    const plotW = width - left - right;
    const plotH = height - top - bottom;
    const max = niceMax(Math.max(0, ...items.map((item) => item.value)), integer);
    const slot = plotW / Math.max(1, items.length);
    const barW = Math.max(2, Math.min(48, slot * 0.72));
    const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img' });
    for (const fraction of [0, 0.5, 1]) {
      const y = top + plotH - fraction * plotH;
      root.append(svg('line', { class: 'grid-line', x1: left, x2: width - right, y1: y, y2: y }));
      root.append(svg('text', { class: 'axis', x: left - 6, y: y + 4, 'text-anchor': 'end', text: format(max * fraction) }));
    }
    items.forEach((item, i) => {
      const h = max > 0 ? (item.value / max) * plotH : 0;
      const x = left + i * slot + (slot - barW) / 2;
      const bar = svg('rect', { class: `bar ${item.className ?? ''}`, x, y: top + plotH - h, width: barW, height: Math.max(h, item.value > 0 ? 1.5 : 0), rx: 2 });
      bar.append(svg('title', { text: item.tip ?? `${item.label}: ${item.value}` }));
      root.append(bar);
      // Labels counted back from the last bar, so the newest always has one.
      if ((items.length - 1 - i) % labelEvery === 0) {
        root.append(svg('text', { class: 'axis', x: x + barW / 2, y: height - 8, 'text-anchor': 'middle', text: item.label }));
      }
    });
    return root;
  }

  /** Horizontal stacked bars, one row per tool: segments { value, className }. */
  function stackedRows(rows, { emptyText }) {
    if (rows.length === 0) return el('p', { class: 'empty', text: emptyText });
    const width = 640;
    const labelW = 210;
    const valueW = 70;
    const rowH = 24;
    const plotW = width - labelW - valueW;
    const max = niceMax(Math.max(...rows.map((row) => row.total)), true);
    const root = svg('svg', { viewBox: `0 0 ${width} ${rows.length * rowH + 4}`, role: 'img' });
    rows.forEach((row, i) => {
      const y = i * rowH + 4;
      const label = row.label.length > 30 ? `${row.label.slice(0, 29)}…` : row.label;
      root.append(svg('text', { class: 'label', x: labelW - 8, y: y + 13, 'text-anchor': 'end' }, label, svg('title', { text: row.label })));
      let x = labelW;
      for (const segment of row.segments) {
        const w = (segment.value / max) * plotW;
        if (w <= 0) continue;
        const rect = svg('rect', { class: `bar ${segment.className}`, x, y: y + 2, width: w, height: rowH - 8, rx: 2 });
        rect.append(svg('title', { text: segment.tip }));
        root.append(rect);
        x += w;
      }
      root.append(svg('text', { class: 'value-label', x: x + 6, y: y + 13, text: row.valueText }));
    });
    return root;
  }

  // ---------- state and fetching ----------
  let token = null;
  let refusedNote = null;
  let access = null;
  let lastRevenue = null;
  let lastCalls = null;

  function takeTokenFromAddress() {
    const url = new URL(window.location.href);
    const fragment = new URLSearchParams(url.hash.slice(1));
    const found = fragment.get('token') || url.searchParams.get('token');
    if (!found) return;
    fragment.delete('token');
    url.searchParams.delete('token');
    const hash = fragment.toString();
    window.history.replaceState(null, '', `${url.pathname}${url.search}${hash ? `#${hash}` : ''}`);
    saveToken(found);
  }

  function saveToken(value) {
    token = value;
    refusedNote = null;
    try {
      sessionStorage.setItem(TOKEN_KEY, value);
    } catch {
      // storage disabled: keep it in memory for this page only
    }
  }

  function forgetToken() {
    token = null;
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // nothing stored
    }
  }

  async function api(path) {
    const response = await fetch(`/dashboard/api/${path}`, {
      headers: token ? { authorization: `Bearer ${token}`, accept: 'application/json' } : { accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    const body = await response.json().catch(() => ({}));
    if (response.status === 401) {
      const error = new Error(body.message || 'token refused');
      error.refused = true;
      throw error;
    }
    if (!response.ok) throw new Error(body.message || `HTTP ${response.status}`);
    return body;
  }

  function setLive(ok, text) {
    const live = byId('live');
    live.classList.toggle('ok', ok);
    live.classList.toggle('down', !ok);
    byId('live-text').textContent = text;
    if (ok) {
      live.classList.add('tick');
      setTimeout(() => live.classList.remove('tick'), 400);
    }
  }

  function renderAccess(state, note) {
    const badge = byId('access');
    badge.className = `access ${state === 'public' && refusedNote ? 'refused' : state}`;
    badge.textContent =
      state === 'detailed'
        ? `Detailed view (${note})`
        : state === 'refused' || refusedNote
          ? `Token refused: ${refusedNote ?? note}`
          : 'Public view: aggregates only';
    badge.title = state === 'public' ? note : '';
    byId('token-form').hidden = state === 'detailed';
    byId('lock').hidden = !token;
  }

  // ---------- sections ----------
  function kpi(label, value, sub, options = {}) {
    return el(
      'div',
      { class: `kpi ${options.className ?? ''}`, 'data-kpi': options.id },
      el('div', { class: 'label', text: label }),
      el('div', { class: 'value', 'data-testid': options.id ? `${options.id}` : undefined }, value),
      sub ? el('div', { class: 'sub', text: sub }) : null,
    );
  }

  /**
   * An amount a merchant reads at a glance: gas in gwei below a thousandth of an ETH (a settlement's
   * share is tens of thousands of gwei, not 18 decimals of ETH), three significant digits.
   */
  const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
  function ethAmount(eth) {
    const value = Number(eth);
    if (value === 0) return '0 ETH';
    return value < 0.001 ? `${significant.format(value * 1e9)} gwei` : `${significant.format(value)} ETH`;
  }
  /** Dollars: cents from a dollar up, else two significant digits ($0.00021). */
  function usdAmount(usd) {
    const size = Math.abs(usd);
    const text = size >= 1 || size === 0 ? size.toFixed(2) : new Intl.NumberFormat('en-US', { maximumSignificantDigits: 2 }).format(size);
    return `${usd < 0 ? '−' : ''}$${text}`;
  }

  /** A fee already in gwei: three significant digits. */
  const gweiAmount = (gwei) => `${significant.format(gwei)} gwei`;
  /** A fee in USD when the gateway knows an ETH price, else in gwei. */
  const feeText = (usd, gwei) => (usd === null ? gweiAmount(gwei) : usdAmount(usd));
  /** How long until a Unix deadline, roughly: "in 3 h 20 min", "passed". */
  function timeUntil(seconds) {
    if (seconds <= 0) return 'passed';
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    return hours > 0 ? `in ${hours} h ${minutes} min` : `in ${minutes} min`;
  }

  /** Gas as USD when the gateway knows an ETH price, else in ETH (gwei when small). */
  function gasCost(collection) {
    if (collection.payments === 0) return '–';
    return collection.usd === null ? ethAmount(collection.eth) : usdAmount(collection.usd);
  }

  function collectionKpi(collection) {
    const sub = collection.payments === 0
      ? 'no settlement gas recorded yet'
      : collection.usd === null
        ? `${count(collection.payments)} payments · no ETH price (set TOOLGATE_ETH_PRICE_USD)`
        : `net of gas ${usdAmount(collection.netUsd)} · ETH at ${usdAmount(collection.ethPriceUsd)}`;
    return kpi('Collection cost (gas)', gasCost(collection), sub, {
      id: 'collection-cost',
      className: collection.netUsd !== null && collection.netUsd < 0 ? 'alert' : '',
    });
  }

  function renderOverview(data) {
    const { service, revenue, calls, settlement } = data;
    const network = service.network;
    fill(
      'service',
      el('span', { class: 'badge info', text: `${network.name} · ${network.id}` }),
      el('span', { class: 'badge', text: `facilitator: ${service.facilitator}` }),
      'pay-to ',
      link(service.payToUrl, shortHex(service.payTo), service.payTo),
    );

    const today = revenue.perDay[revenue.perDay.length - 1];
    const states = settlement.states;
    const latency = settlement.latency;
    const troubled = states.pending.count + states.failed.count;
    // Earned: exact payments settled, channel calls charged; collected: what reached payTo.
    const revenueCard = kpi('Revenue', [revenue.total.usdc, ' ', el('small', { text: 'USDC' })], `${count(revenue.settledPayments)} paid calls · ${revenue.collected.usdc} USDC collected`, {
      id: 'revenue-total',
    });
    const callsCard = kpi('Calls since start', count(calls.total), `${count(calls.paid)} paid · since ${time(service.metricsSince)}`, { id: 'calls-total' });
    byId('kpis').replaceChildren(
      revenueCard,
      kpi('Revenue today (UTC)', [today ? today.revenue.usdc : '0', ' ', el('small', { text: 'USDC' })], today ? `${count(today.payments)} payments` : '', { id: 'revenue-today' }),
      callsCard,
      kpi('Paid calls', count(calls.paid), calls.total ? `${Math.round((calls.paid / calls.total) * 100)}% of calls` : 'no calls yet', { id: 'calls-paid' }),
      kpi('Not charged', count(calls.notCharged), 'refused, failed or asked to pay', { id: 'calls-unpaid' }),
      kpi('Settlement time (p50)', ms(latency.p50Ms), `p90 ${ms(latency.p90Ms)} · ${count(latency.sample)} settlements`, { id: 'latency' }),
      collectionKpi(data.collection),
      kpi('Pending / failed', `${count(states.pending.count)} / ${count(states.failed.count)}`, 'settlements', {
        id: 'settlement-trouble',
        className: troubled > 0 ? 'alert' : '',
      }),
    );
    if (lastRevenue !== null && lastRevenue !== revenue.total.atomic) flash(revenueCard);
    if (lastCalls !== null && lastCalls !== calls.total) flash(callsCard);
    lastRevenue = revenue.total.atomic;
    lastCalls = calls.total;

    byId('revenue-days').textContent = `last ${revenue.perDay.length} days, UTC`;
    fill(
      'chart-revenue-day',
      columnChart(
        revenue.perDay.map((d, i) => ({
          label: dayLabel(d.day),
          value: Number(d.revenue.usdc),
          tip: `${d.day}: ${usdc(d.revenue)} from ${count(d.payments)} payments`,
          className: i === revenue.perDay.length - 1 ? 'today' : '',
        })),
        { labelEvery: revenue.perDay.length > 16 ? 4 : 2 },
      ),
    );

    const busiest = data.tools.filter((t) => t.calls > 0).sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)).slice(0, 10);
    fill(
      'chart-calls-tool',
      stackedRows(
        busiest.map((t) => ({
          label: t.title,
          total: t.calls,
          valueText: `${count(t.paid)} / ${count(t.calls)}`,
          segments: [
            { value: t.paid, className: 'paid', tip: `${t.title}: ${count(t.paid)} paid` },
            { value: t.notCharged, className: 'unpaid', tip: `${t.title}: ${count(t.notCharged)} not charged` },
          ],
        })),
        { emptyText: 'No calls since the gateway started.' },
      ),
    );

    byId('latency-sample').textContent = `last ${count(latency.sample)} settlements`;
    fill(
      'latency-figures',
      ['p50', 'p90', 'p99', 'max', 'mean'].map((name) => el('span', {}, `${name} `, el('b', { text: ms(latency[`${name}Ms`]) }))),
    );
    fill(
      'chart-latency',
      columnChart(
        latency.histogram.map((bucket) => ({
          label: bucket.toMs === null ? `≥${ms(bucket.fromMs)}` : `<${ms(bucket.toMs)}`,
          value: bucket.count,
          className: 'latency',
          tip: `${bucket.toMs === null ? `${ms(bucket.fromMs)} or more` : `${ms(bucket.fromMs)} to ${ms(bucket.toMs)}`}: ${count(bucket.count)} settlements`,
        })),
        { height: 170, integer: true, emptyText: 'No settlements yet.' },
      ),
    );

    const kinds = Object.entries(calls.byKind).filter(([kind]) => kind !== 'paid');
    // Codes that only repeat their outcome's name (invalid_input, "Payment required") add nothing.
    const codes = Object.entries(calls.byCode)
      .filter(([code]) => !(codeKey(code) in calls.byKind))
      .sort((a, b) => b[1] - a[1]);
    fill(
      'outcomes',
      table(
        [{ label: 'Outcome' }, { label: 'Meaning' }, { label: 'Calls', num: true }],
        kinds.map(([kind, entry]) => [el('span', { class: `badge ${entry.count > 0 ? (kind === 'payment_required' ? 'info' : 'warn') : ''}`, text: kind }), entry.meaning, count(entry.count)]),
        'No calls yet.',
      ),
      codes.length > 0 ? el('p', { class: 'subhead', text: 'By code' }) : null,
      codes.length > 0 ? el('p', {}, codes.map(([code, n]) => el('span', { class: 'badge', text: `${code}: ${count(n)}` })).flatMap((b) => [b, ' '])) : null,
    );

    const earned = data.tools.filter((t) => t.calls > 0 || t.settledPayments > 0).slice(0, 10);
    const topRevenue = earned.reduce((max, t) => Math.max(max, Number(t.revenue.usdc)), 0);
    fill(
      'top-tools',
      table(
        [
          { label: '#' }, { label: 'Tool' }, { label: 'Price', num: true }, { label: 'Calls', num: true }, { label: 'Paid', num: true },
          { label: 'Not charged', num: true }, { label: 'Mean time', num: true }, { label: 'Revenue', num: true },
          { label: 'Gas per payment', num: true }, { label: 'Net of gas', num: true }, { label: 'Channel calls', num: true },
        ],
        earned.map((t, i) => [
          String(i + 1),
          el('span', {}, t.title, ' ', el('span', { class: 'muted mono', text: t.name })),
          t.price ? t.price.usdc : '–',
          count(t.calls),
          count(t.paid),
          count(t.notCharged),
          ms(t.meanDurationMs),
          el('span', {}, el('span', { class: 'share' }), usdc(t.revenue)),
          t.collection.payments === 0 ? '–' : t.collection.perPaymentUsd === null ? ethAmount(t.collection.perPaymentEth) : usdAmount(t.collection.perPaymentUsd),
          t.collection.netUsd === null ? '–' : el('span', { class: t.collection.netUsd < 0 ? 'loss' : '', text: usdAmount(t.collection.netUsd) }),
          count(t.channelCalls),
        ]),
        'No paid calls yet.',
      ),
    );
    // Share bars: widths set through the CSSOM (allowed by the page's style-src).
    byId('top-tools').querySelectorAll('.share').forEach((bar, i) => {
      const value = Number(earned[i]?.revenue.usdc ?? 0);
      bar.style.width = `${value > 0 ? Math.max(2, (value / topRevenue) * 60) : 0}px`;
    });

    renderChannels(data.channels);
    renderSchemes(data.schemes);

    byId('settlement-counts').textContent = `${count(states.pending.count)} pending · ${count(states.failed.count)} failed · ${count(states.inFlight.count)} in flight`;

    fill(
      'recent-calls',
      table(
        [{ label: 'Time' }, { label: 'Tool' }, { label: 'Face' }, { label: 'Outcome' }, { label: 'Duration', num: true }],
        data.recentCalls.map((c) => [
          time(c.at),
          c.tool,
          c.face.toUpperCase(),
          el(
            'span',
            {},
            el('span', { class: `badge ${c.kind === 'paid' ? 'good' : c.kind === 'payment_required' ? 'info' : 'warn'}`, text: c.kind }),
            c.code && codeKey(c.code) !== c.kind ? el('span', { class: 'muted mono', text: ` ${c.code}` }) : null,
          ),
          ms(c.durationMs),
        ]),
        'No calls since the gateway started.',
      ),
    );
  }

  /** What the channels hold, what is owed and not yet claimed (at risk until claimed), and what collecting them cost. */
  function renderChannels(channels) {
    byId('channels-note').textContent = channels.offered ? `${count(channels.open)} open` : 'not offered';
    const atRisk = Number(channels.unclaimed.atomic) > 0;
    const deadline = channels.secondsToDeadline;
    const steps = [['Deposits (our key)', channels.collection.deposits], ['Claims', channels.collection.claims], ['Settles', channels.collection.settles], ['Refunds (to payers)', channels.collection.refunds]];
    fill(
      'channels',
      el('div', { class: 'kpis compact' },
        kpi('Open channels', count(channels.open), `${count(channels.deposited.count)} deposits in all`, { id: 'channels-open' }),
        kpi('Deposits held', [channels.depositsHeld.usdc, ' ', el('small', { text: 'USDC' })], 'the payers\' money in the channels', { id: 'channels-deposits' }),
        kpi('Not yet claimed', [channels.unclaimed.usdc, ' ', el('small', { text: 'USDC' })],
          deadline === null ? 'revenue at risk until claimed · no withdrawal pending' : `revenue at risk · nearest withdrawal deadline ${timeUntil(deadline)}`,
          { id: 'channels-unclaimed', className: atRisk && deadline !== null && deadline < 3600 ? 'alert' : '' }),
        kpi('Claimed, not settled', [channels.calls.claimed.amount.usdc, ' ', el('small', { text: 'USDC' })], `${count(channels.calls.claimed.count)} calls · held by the contract for payTo`, { id: 'channels-claimed' }),
      ),
      table(
        [{ label: 'Collection step' }, { label: 'Transactions', num: true }, { label: 'Moved', num: true }, { label: 'Gas', num: true }, { label: 'Cost', num: true }],
        steps.map(([name, step]) => [name, count(step.transactions), usdc(step.amount), count(step.gas), step.transactions === 0 ? '–' : feeText(step.feeUsd, step.feeGwei)]),
        'No channel activity yet.',
      ),
    );
  }

  /** Each scheme's calls, revenue and cost of collecting, in all and per call. */
  function renderSchemes(schemes) {
    fill(
      'schemes',
      table(
        [
          { label: 'Scheme' }, { label: 'Calls paid', num: true }, { label: 'Revenue', num: true }, { label: 'Collected', num: true },
          { label: 'Cost of collecting', num: true }, { label: 'Per call', num: true }, { label: 'Share of revenue', num: true }, { label: 'Net', num: true },
        ],
        schemes.map((s) => [
          el('span', { class: 'mono', text: s.scheme }),
          count(s.calls),
          usdc(s.earned),
          usdc(s.collected),
          s.cost.gwei === 0 ? '–' : feeText(s.cost.usd, s.cost.gwei),
          s.costPerCall === null || s.cost.gwei === 0 ? '–' : feeText(s.costPerCall.usd, s.costPerCall.gwei),
          s.costShare === null ? '–' : `${significant.format(s.costShare)}%`,
          s.netUsd === null ? '–' : el('span', { class: s.netUsd < 0 ? 'loss' : '', text: usdAmount(s.netUsd) }),
        ]),
        'No paid calls yet.',
      ),
    );
  }

  function flash(card) {
    card.classList.add('bump');
    setTimeout(() => card.classList.remove('bump'), 900);
  }

  function paymentRows(payments, { withError }) {
    return payments.map((p) => [
      dateTime(p.updatedAt),
      p.title,
      p.amount.usdc,
      link(p.payerUrl, shortHex(p.payer), p.payer),
      p.txHash ? link(p.txUrl, shortHex(p.txHash), p.txHash) : '–',
      withError ? el('span', { class: 'error-text', text: p.error ?? '' }) : ms(p.settlementMs),
    ]);
  }

  const paymentHeaders = (last) => [{ label: 'Updated' }, { label: 'Tool' }, { label: 'USDC', num: true }, { label: 'Payer' }, { label: 'Transaction' }, last];

  function renderPayments(data) {
    fill(
      'settlements',
      el('p', { class: 'subhead', text: `Pending (${data.pending.length}): sent, outcome unknown, being reconciled` }),
      table(paymentHeaders({ label: 'Error' }), paymentRows(data.pending, { withError: true }), 'None pending.'),
      el('p', { class: 'subhead', text: `Failed (${data.failed.length}): not charged, result withheld` }),
      table(paymentHeaders({ label: 'Error' }), paymentRows(data.failed, { withError: true }), 'None failed.'),
      data.inFlight.length > 0 ? el('p', { class: 'subhead', text: `In flight (${data.inFlight.length})` }) : null,
      data.inFlight.length > 0 ? table(paymentHeaders({ label: 'State' }), data.inFlight.map((p) => [...paymentRows([p], { withError: false })[0].slice(0, 5), p.state]), '') : null,
      data.explorerUrl ? null : el('p', { class: 'muted', text: 'This network has no block explorer: transactions are shown without links.' }),
    );
    fill(
      'recent-payments',
      table(paymentHeaders({ label: 'Settled in', num: true }), paymentRows(data.recent, { withError: false }), 'No settled payments yet.'),
    );
  }

  function renderLocked(note) {
    const message = `Payer addresses and transactions are shown with the dashboard token. ${note ?? ''}`;
    fill('settlements', el('p', { class: 'locked', text: message }));
    fill('recent-payments', el('p', { class: 'locked', text: message }));
  }

  function renderPrices(data) {
    byId('price-count').textContent = `${data.tools.length} tools`;
    fill(
      'prices',
      table(
        [{ label: 'Tool' }, { label: 'Endpoints' }, { label: 'USDC', num: true }],
        data.tools.map((t) => [
          el('span', {}, t.title, el('br'), el('span', { class: 'muted mono', text: t.name }), t.built ? null : [' ', el('span', { class: 'badge', text: 'not built yet' })]),
          el('span', { class: 'mono' }, t.routes.map((r, i) => [i > 0 ? el('br') : null, `${r.method} ${r.path}`])),
          t.price.usdc,
        ]),
        'No tools.',
      ),
    );
  }

  function renderHealth(data) {
    byId('health-checked').textContent = `checked ${time(data.checkedAt)}`;
    const badge = (ok) => el('span', { class: `badge ${ok === true ? 'good' : ok === false ? 'bad' : ''}`, text: ok === true ? 'ok' : ok === false ? 'down' : 'not probed' });
    fill(
      'health',
      el('ul', { class: 'health-list' }, data.components.map((c) => el('li', {}, el('span', { class: 'name', text: c.name }), badge(c.ok), el('span', { class: 'muted', text: `${c.kind} · ${c.detail}` })))),
      el('p', { class: 'subhead', text: 'Upstream providers' }),
      data.upstreams.length === 0
        ? el('p', { class: 'muted', text: 'No upstream provider is configured on this gateway.' })
        : el('ul', { class: 'health-list' }, data.upstreams.map((u) => el('li', {}, el('span', { class: 'name', text: u.name }), badge(u.ok), el('span', { class: 'muted', text: u.detail ?? '' })))),
    );
  }

  // ---------- loops ----------
  async function refresh() {
    try {
      const overview = await api('overview');
      access = overview.access;
      renderAccess(access.level, access.level === 'detailed' ? (access.via === 'token' ? 'token' : 'loopback') : access.note);
      renderOverview(overview);
      if (access.level === 'detailed') renderPayments(await api('payments'));
      else renderLocked(access.note);
      setLive(true, `live · updated ${time(overview.generatedAt)}`);
    } catch (error) {
      if (error.refused) {
        forgetToken();
        refusedNote = error.message;
        renderAccess('refused', error.message);
        setLive(false, 'token refused; showing the public view next');
      } else {
        setLive(false, `reconnecting… (${error.message})`);
      }
    }
  }

  async function refreshHealth() {
    try {
      renderHealth(await api('health'));
    } catch (error) {
      fill('health', el('p', { class: 'error-text', text: `Health unavailable: ${error.message}` }));
    }
  }

  function loop(task, everyMs) {
    const run = async () => {
      await task();
      setTimeout(run, everyMs);
    };
    void run();
  }

  function start() {
    takeTokenFromAddress();
    try {
      token ??= sessionStorage.getItem(TOKEN_KEY);
    } catch {
      // storage disabled
    }
    byId('token-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const input = byId('token-input');
      if (!input.value.trim()) return;
      saveToken(input.value.trim());
      input.value = '';
      void refresh();
      void refreshHealth();
    });
    byId('lock').addEventListener('click', () => {
      forgetToken();
      void refresh();
    });
    window.addEventListener('hashchange', () => {
      takeTokenFromAddress();
      void refresh();
    });
    api('prices').then(renderPrices, (error) => fill('prices', el('p', { class: 'error-text', text: error.message })));
    loop(refresh, POLL_MS);
    loop(refreshHealth, HEALTH_POLL_MS);
  }

  start();
})();
