// Health, webhook endpoint configuration, search across customers, cards and transactions, account postings and
// card authorizations: all through the public API and the audit endpoints.
import { ApiError, get, post, api, q } from './api.js';
import { cells, code, esc, minor, money, status, table, when, formatMoney } from './format.js';

const $ = (id) => document.getElementById(id);

/** Log head, projection lag, the platform's queue depth and counts (GET /audit/overview). */
export async function loadHealth() {
  const o = await get('/audit/overview');
  const queues = Object.entries(o.queues).map(
    ([name, d]) => `<tr>${cells(esc(name), esc(d.waiting), esc(d.delayed), esc(d.active), esc(d.dead))}</tr>`,
  );
  $('health-body').innerHTML =
    `<p>Log head <strong id="log-head">${esc(o.eventLog.headPosition)}</strong>, ` +
    `read models at ${esc(o.projections.position)}, lag <strong ` +
    `id="projection-lag">${esc(o.projections.lag)}</strong> ` +
    `events; ${esc(o.counts.customers)} customers, ${esc(o.counts.internalAccounts)} accounts, ` +
    `${esc(o.counts.pendingApprovals)} agent actions pending.</p>` +
    `<div id="queue-depth">${table(['queue', 'waiting', 'delayed', 'running', 'dead'], queues)}</div>`;
}

/** Events a shared processor could not handle and stepped over, with the failure (GET /audit/set-aside-events). */
export async function loadSetAside() {
  const page = await get('/audit/set-aside-events?limit=50');
  if (page.data.length === 0) {
    $('set-aside-body').innerHTML = '<span class="muted">No event was set aside.</span>';
    return;
  }
  const head = ['set aside', 'processor', 'position', 'event', 'stream', 'error', 'attempts'];
  const rows = page.data.map(
    (e) =>
      `<tr data-position="${esc(e.position)}">${cells(
        when(e.setAsideAt),
        esc(e.processor),
        esc(e.position),
        `${esc(e.eventType)}<br>${code(e.eventId)}`,
        code(e.stream),
        `<span class="error">${esc(e.error)}</span>`,
        esc(e.attempts),
      )}</tr>`,
  );
  const more = page.hasMore ? '<p class="muted">Showing the newest 50.</p>' : '';
  $('set-aside-body').innerHTML = table(head, rows) + more;
}

/** The webhook endpoint (PATCH /config) and the sandbox test send. */
export async function loadWebhookConfig(onChange) {
  const config = await get('/config');
  $('endpoint-body').innerHTML =
    '<form id="endpoint-form"><input name="url" size="48" placeholder="https://hooks.example.com/in" ' +
    `value="${esc(config.webhookEndpoint ?? '')}"> <button>Save</button></form>` +
    '<p><button id="test-send">Send test webhook</button> <span id="test-result" class="muted"></span></p>';
  $('endpoint-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const url = e.target.elements.url.value.trim();
    await guarded('test-result', async () => {
      await api('PATCH', '/config', { webhookEndpoint: url === '' ? null : url });
      $('test-result').textContent = url === '' ? 'Webhooks turned off.' : `Endpoint set to ${url}.`;
    });
  });
  $('endpoint-body').insertAdjacentHTML('beforeend', '<div id="decision-endpoints"></div>');
  renderDecisionEndpoints(config.decisionEndpoints ?? []);
  $('test-send').addEventListener('click', () =>
    guarded('test-result', async () => {
      const answer = await post('/sandbox/webhooks/test');
      $('test-result').textContent = answer.response_status
        ? `The receiver answered ${answer.response_status}.`
        : `No answer: ${answer.error ?? 'the delivery failed'}.`;
      await onChange?.();
    }),
  );
}

/** The decision endpoints (PATCH /config decisionEndpoints): one per type, set or removed here. */
function renderDecisionEndpoints(endpoints) {
  const rows = endpoints.map(
    (e) =>
      `<tr data-decision-type="${esc(e.type)}">${cells(
        code(e.type),
        esc(e.url),
        `${esc(e.deadlineMs)} ms`,
        esc(e.defaultDecision),
      )}<td><button data-remove="${esc(e.type)}">Remove</button></td></tr>`,
  );
  $('decision-endpoints').innerHTML =
    '<h3>Decision endpoints</h3>' +
    (rows.length ? table(['type', 'url', 'deadline', 'default', ''], rows) : '<p class="muted">None.</p>') +
    '<form id="decision-form"><select name="type"><option>CARD_AUTHORIZATION.REQUEST</option>' +
    '<option>AGENT_ACTION.REQUEST</option></select> <input name="url" size="36" placeholder="https://…"> ' +
    '<input name="deadlineMs" type="number" min="50" max="2000" placeholder="2000"> <select name="defaultDecision">' +
    '<option value="">default</option><option>APPROVE</option><option>DECLINE</option><option>REJECT</option>' +
    '<option>WAIT</option></select> <button>Set</button> <span id="decision-result" class="muted"></span></form>';
  const save = (list) =>
    guarded('decision-result', async () => {
      const config = await api('PATCH', '/config', { decisionEndpoints: list });
      $('endpoint-body')
        .querySelectorAll('h3, table, #decision-form, p.muted')
        .forEach((n) => n.remove());
      renderDecisionEndpoints(config.decisionEndpoints ?? []);
    });
  const kept = (type) => endpoints.filter((e) => e.type !== type);
  $('decision-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const endpoint = { type: f.type.value, url: f.url.value.trim() };
    if (f.deadlineMs.value) endpoint.deadlineMs = Number(f.deadlineMs.value);
    if (f.defaultDecision.value) endpoint.defaultDecision = f.defaultDecision.value;
    return save([...kept(endpoint.type), endpoint]);
  });
  $('decision-endpoints')
    .querySelectorAll('button[data-remove]')
    .forEach((b) => b.addEventListener('click', () => save(kept(b.dataset.remove))));
}

async function guarded(id, work) {
  try {
    await work();
  } catch (e) {
    $(id).innerHTML = `<span class="error">${esc(e instanceof ApiError ? e.message : String(e))}</span>`;
  }
}

/** Customers matching an id, a platformCustomerId, a UMA address or an email. */
export async function findCustomers(text) {
  const term = text.trim();
  if (/^Customer:/.test(term)) {
    try {
      return [await get(`/customers/${q(term)}`)];
    } catch (e) {
      if (e.status === 404) return [];
      throw e;
    }
  }
  if (term.startsWith('$')) return (await get(`/customers?umaAddress=${q(term)}&limit=50`)).data;
  if (term.includes('@')) {
    // GET /customers has no email filter: walk the platform's customers page by page (bounded).
    const found = [];
    let cursor;
    for (let page = 0; page < 20; page++) {
      const res = await get(`/customers?limit=100${cursor ? `&cursor=${q(cursor)}` : ''}`);
      found.push(...res.data.filter((c) => (c.email ?? '').toLowerCase() === term.toLowerCase()));
      cursor = res.nextCursor;
      if (!res.hasMore || !cursor) break;
    }
    return found;
  }
  return (await get(`/customers?platformCustomerId=${q(term)}&limit=50`)).data;
}

/** Pages of a list until `keep` found `limit` items or the list ends (bounded: at most 20 pages). */
async function scan(path, keep, limit = 50) {
  const found = [];
  let cursor;
  for (let page = 0; page < 20 && found.length < limit; page++) {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${q(cursor)}` : ''}`);
    found.push(...res.data.filter(keep));
    cursor = res.nextCursor;
    if (!res.hasMore || !cursor) break;
  }
  return found.slice(0, limit);
}

const one = async (path) => {
  try {
    return [await get(path)];
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 400)) return [];
    throw e;
  }
};

/**
 * What a search term names: a customer (id, platformCustomerId, UMA address, email), a card (id or last four
 * digits) or a transaction (id or reconciliation reference).
 */
export async function search(text) {
  const term = text.trim();
  if (/^Card:/.test(term)) return { customers: [], cards: await one(`/cards/${q(term)}`), transactions: [] };
  if (/^Transaction:/.test(term))
    return { customers: [], cards: [], transactions: await one(`/transactions/${q(term)}`) };
  if (/^\d{4}$/.test(term))
    return { customers: [], cards: await scan('/cards', (c) => c.last4 === term), transactions: [] };
  const customers = await findCustomers(term);
  const byReference =
    term.startsWith('$') || term.includes('@') ? [] : (await get(`/transactions?reference=${q(term)}&limit=50`)).data;
  return { customers, cards: [], transactions: byReference };
}

export function renderCards(cards) {
  return table(
    ['card', 'customer', 'last four', 'state'],
    cards.map(
      (c) =>
        `<tr class="pick" ` +
        `data-card="${esc(c.id)}">${cells(code(c.id), code(c.customerId), esc(c.last4), status(c.state))}</tr>`,
    ),
  );
}

/** A transaction's row (id, type, status, then `more` cells); picking it opens the transaction. */
export const transactionRow = (t, ...more) =>
  `<tr class="pick" data-tx="${esc(t.id)}">` + cells(code(t.id), esc(t.type), status(t.status), ...more) + '</tr>';

export function renderTransactions(transactions) {
  return table(
    ['transaction', 'type', 'status', 'sent', 'reference'],
    transactions.map((t) => transactionRow(t, esc(money(t.sentAmount)), esc(t.reconciliationInstructions?.reference))),
  );
}

/** Ledger postings of an internal account with the running balance (GET /audit/internal-accounts/{id}/history). */
export async function showPostings(account, target) {
  const history = await get(`/audit/internal-accounts/${q(account.id)}/history?limit=100`);
  const currency = account.balance?.currency ?? {};
  const amount = (n) => formatMoney(n, currency);
  $(target).innerHTML =
    `<h3>Ledger postings of <code>${esc(account.id)}</code></h3><div id="postings">` +
    table(
      ['at', 'transfer', 'direction', 'kind', 'amount', 'balance', 'code'],
      history.data.map((e) => {
        const p = e.posting;
        return (
          `<tr>${cells(when(e.occurredAt ?? e.recordedAt), code(p.transferId), esc(p.direction), esc(p.kind))}` +
          `<td class="num">${esc(amount(p.amount))}</td><td class="num">${esc(amount(e.balance))}</td>` +
          `${cells(esc(p.code))}</tr>`
        );
      }),
    ) +
    '</div>';
}

/**
 * A card's spend from its transactions (GET /cards/{id}/transactions): what is held, settled and
 * refunded, and the net the holder paid, per currency.
 */
export function cardSpend(transactions) {
  const totals = new Map();
  for (const t of transactions) {
    const currency = t.authorizedAmount.currency;
    const sum = totals.get(currency.code) ?? { currency, held: 0, settled: 0, refunded: 0 };
    if (t.status === 'AUTHORIZED' || t.status === 'PARTIALLY_SETTLED') sum.held += t.authorizedAmount.amount;
    sum.settled += t.settledAmount?.amount ?? 0;
    sum.refunded += t.refundedAmount?.amount ?? 0;
    totals.set(currency.code, sum);
  }
  return [...totals.values()].map((s) => ({ ...s, net: s.settled - s.refunded }));
}

const pulls = (t) => `${t.pullSummary.count} · ${formatMoney(t.pullSummary.totalAmount, t.authorizedAmount.currency)}`;

export function renderCardTransactions(page) {
  const m = (x) => esc(money(x));
  const spend = cardSpend(page.data)
    .map(
      (s) =>
        `<span class="spend">spent <b>${esc(formatMoney(s.net, s.currency))}</b> net ` +
        `(settled ${esc(formatMoney(s.settled, s.currency))}, refunded ${esc(formatMoney(s.refunded, s.currency))}, ` +
        `held ${esc(formatMoney(s.held, s.currency))})</span>`,
    )
    .join(' ');
  return (
    `<div id="card-transactions"><p>${esc(page.totalCount)} transaction(s)${page.hasMore ? ' (first page)' : ''}` +
    `${spend ? ': ' + spend : ''}</p>` +
    table(
      ['transaction', 'merchant', 'authorized', 'settled', 'refunded', 'pulls', 'status', 'authorized at'],
      page.data.map(
        (t) =>
          `<tr data-card-transaction="${esc(t.id)}">${cells(code(t.id), esc(t.merchant?.descriptor))}` +
          `<td class="num">${m(t.authorizedAmount)}</td><td class="num">${m(t.settledAmount)}</td>` +
          `<td class="num">${m(t.refundedAmount)}</td>` +
          `${cells(esc(pulls(t)))}` +
          `${cells(status(t.status), when(t.authorizedAt))}</tr>`,
      ),
    ) +
    '</div>'
  );
}

/** A card's authorizations (declined ones included) as its history last recorded each of them. */
export function authorizationsOf(history) {
  const latest = new Map();
  for (const e of history)
    if (e.changes?.authorization) latest.set(e.changes.authorization.id, e.changes.authorization);
  return [...latest.values()];
}

/** Who decided an authorization: `PLATFORM · 120 ms · reason`, `DEFAULT (TIMEOUT) · 501 ms`, `RULES · 3 ms`. */
export function decidedBy(decision) {
  if (!decision) return '';
  const who = decision.fallback ? `${decision.decidedBy} (${decision.fallback})` : decision.decidedBy;
  return [who, `${decision.elapsedMs} ms`, decision.reason].filter(Boolean).join(' · ');
}

/** Why an authorization was declined, in words. */
const DECLINE_REASONS = {
  CARD_PAUSED: 'the card is frozen',
  CARD_CLOSED: 'the card is closed',
  CARD_NOT_ACTIVE: 'the card is not active yet',
  CURRENCY_MISMATCH: 'no funding source in the currency',
  INSUFFICIENT_FUNDS: 'insufficient funds',
  PLATFORM_DECLINED: 'the platform declined it',
  STAND_IN: 'no decision in time: the stand-in declined',
  NETWORK_DECLINED: 'the network declined it in stand-in',
};

/** An authorization's status, with the decline reason (code and words) under a declined one. */
function authorizationStatus(a) {
  if (a.status !== 'DECLINED' || !a.declineReason) return status(a.status);
  const words = DECLINE_REASONS[a.declineReason];
  return (
    `${status(a.status)}<br><span class="decline-reason">${code(a.declineReason)}` +
    `${words ? ` ${esc(words)}` : ''}</span>`
  );
}

export function renderAuthorizations(authorizations) {
  return (
    `<div id="authorizations">` +
    table(
      ['authorization', 'merchant', 'amount', 'status', 'decided by', 'cleared', 'returned', 'at'],
      authorizations.map((a) => {
        const m = (n) => `<span class="num money">${esc(minor(n, a.currency))}</span>`;
        return `<tr data-authorization="${esc(a.id)}">${cells(
          code(a.id),
          esc(a.merchant?.descriptor),
          m(a.amount),
          authorizationStatus(a),
          esc(decidedBy(a.decision)),
          m(a.clearedAmount),
          m(a.returnedAmount),
          when(a.createdAt),
        )}</tr>`;
      }),
    ) +
    '</div>'
  );
}
