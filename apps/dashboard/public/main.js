// The console's entry point: sign-in, then the panels (each loads on its own; one failing leaves the rest).
import { ApiError, credentials, get, post, q } from './api.js';
import { drawFailureRate, drawVolume, drawWebhookLatency, drawWebhookOutcomes } from './charts.js';
import {
  attemptsText,
  breakable,
  cells,
  esc,
  formatMoney,
  minor,
  money,
  shortId,
  status,
  table,
  when,
} from './format.js';
import { renderResults, showCardHistory, showCustomer, showTransaction } from './views.js';
import { loadHealth, loadSetAside, loadWebhookConfig, renderCards, renderTransactions, search } from './ops.js';
import { loadRails } from './rails.js';
import { loadReviews } from './reviews.js';

const $ = (id) => document.getElementById(id);

function toast(text) {
  $('toast').textContent = text;
  setTimeout(() => ($('toast').textContent === text ? ($('toast').textContent = '') : undefined), 4000);
}

/** Runs a panel loader, showing its error inside the panel instead of breaking the page. */
async function panel(id, load) {
  try {
    await load();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return signOut('Those credentials were refused.');
    $(id).innerHTML = `<span class="error">${esc(e.message)}</span>`;
  }
}

/** What an agent action would move: its amount, from where to where (a quote's or a transfer's). */
function actionSpend(a) {
  const quote = a.quote;
  if (quote) {
    const to = quote.destination ?? {};
    return {
      amount: formatMoney(quote.totalSendingAmount, quote.sendingCurrency),
      receives: formatMoney(quote.totalReceivingAmount, quote.receivingCurrency),
      source: quote.source?.accountId ?? quote.source?.sourceType,
      destination: to.accountId ?? to.umaAddress ?? to.destinationType,
    };
  }
  const d = a.transferDetails ?? {};
  return { amount: minor(d.amount, d.currency), source: d.sourceAccountId, destination: d.destinationAccountId };
}

/** What an id names, in words: `InternalAccount:…` → "internal account". */
const kindOf = (text) =>
  esc((/^([A-Za-z]+):/.exec(String(text ?? ''))?.[1] ?? '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());

/** Which rule of the agent's policy asked for approval, in words. */
function approvalWhy(a) {
  const words = (r) =>
    r.rule === 'approvalThresholds.amount'
      ? `above the approval threshold of ${minor(r.threshold?.amount, r.threshold?.currency)}`
      : r.rule === 'accountRules.executionMode'
        ? 'the account’s rule is APPROVAL_REQUIRED'
        : 'the policy’s default mode is APPROVAL_REQUIRED';
  if (!a.approvalReasons?.length) return '<span class="muted">not recorded</span>';
  return a.approvalReasons.map((r) => `<span data-rule="${esc(r.rule)}">${breakable(words(r))}</span>`).join('<br>');
}

function actionRow(a, agentNames) {
  const spend = actionSpend(a);
  const amount =
    `<span class="num money">${esc(spend.amount)}</span>` +
    (spend.receives
      ? `<br><span class="muted">receives <span class="money">${esc(spend.receives)}</span></span>`
      : '') +
    `<br><span class="muted">${esc(a.type)}</span>`;
  const end = (label, accountId) => `${label} ${kindOf(accountId)}${shortId(accountId)}`;
  const route = end('from', spend.source) + end('to', spend.destination);
  const who =
    `customer ${esc(a.platformCustomerId)} ${shortId(a.customerId)}` +
    `agent ${esc(agentNames.get(a.agentId) ?? '')} ${shortId(a.agentId)}` +
    `<span class="muted">requested ${when(a.createdAt)}</span>`;
  return (
    `<tr data-agent="${esc(a.agentId)}" data-action="${esc(a.id)}">` +
    cells(amount, route, who, approvalWhy(a)) +
    '<td><button data-act="approve">Approve</button> <button data-act="reject">Reject</button></td></tr>'
  );
}

/** The agents' names by id (an agent that cannot be read is shown by its id alone). */
async function agentNamesOf(actions) {
  const ids = [...new Set(actions.map((a) => a.agentId))];
  const named = await Promise.all(
    ids.map((i) =>
      get(`/agents/${q(i)}`).then(
        (x) => [i, x.name],
        () => [i, ''],
      ),
    ),
  );
  return new Map(named);
}

async function loadApprovals() {
  const [payments, actions] = await Promise.all([
    get('/transactions?status=PENDING&type=INCOMING&limit=50'),
    get('/agents/approvals?limit=50'),
  ]);
  const agentNames = await agentNamesOf(actions.data);
  $('approvals-body').innerHTML =
    `<h3>Incoming payments</h3>` +
    table(
      ['transaction', 'customer', 'amount', 'received', ''],
      payments.data.map(
        (t) =>
          `<tr data-payment="${esc(t.id)}">${cells(shortId(t.id), esc(t.platformCustomerId) + shortId(t.customerId))}` +
          `<td class="num money">${esc(money(t.receivedAmount))}</td><td>${when(t.createdAt)}</td>` +
          `<td><button data-act="approve">Approve</button> <button data-act="reject">Reject</button></td></tr>`,
      ),
      ['24%', '24%', '18%', '16%', '18%'],
    ) +
    `<h3>Agent actions</h3>` +
    table(
      ['amount', 'from → to', 'customer · agent', 'why approval', ''],
      actions.data.map((a) => actionRow(a, agentNames)),
      ['20%', '24%', '22%', '20%', '14%'],
    );
  for (const button of $('approvals-body').querySelectorAll('button')) {
    const row = button.closest('tr');
    const act = button.dataset.act;
    const path = row.dataset.payment
      ? `/transactions/${q(row.dataset.payment)}/${act}`
      : `/agents/${q(row.dataset.agent)}/actions/${q(row.dataset.action)}/${act}`;
    button.addEventListener('click', () =>
      panel('approvals-body', async () => {
        const done = await post(path);
        toast(`${act === 'approve' ? 'Approved' : 'Rejected'}: ${done.id} is ${done.status}`);
        await loadApprovals();
      }),
    );
  }
}

/** Deliveries shown per page of the webhook deliveries panel. */
const DELIVERIES_PAGE = 20;

function deliveryRow(d) {
  const redeliverable = d.status === 'FAILED' || d.status === 'DEAD';
  const state = status(d.status) + (redeliverable ? '<br><button>Redeliver</button>' : '');
  const answer = d.lastError ? ` title="${esc(d.lastError)}"` : '';
  const attempts = `<span class="attempts"${answer}>${esc(attemptsText(d))}</span>`;
  const row = cells(shortId(d.id), breakable(d.type), state, attempts, when(d.createdAt));
  return `<tr data-delivery="${esc(d.id)}">${row}</tr>`;
}

/**
 * The newest webhook deliveries, a page at a time (the API's cursor): "Load more" adds the next page under them.
 * Redeliver starts again from the newest page.
 */
async function loadWebhooks() {
  const body = $('webhooks-body');
  const head = ['delivery', 'type', 'status', 'attempts', 'created'];
  const shown = [];
  const showPage = async (cursor) => {
    const page = await get(
      `/webhooks/deliveries?sortOrder=desc&limit=${DELIVERIES_PAGE}${cursor ? `&cursor=${q(cursor)}` : ''}`,
    );
    shown.push(...page.data);
    const more = page.hasMore && page.nextCursor ? '<button id="deliveries-more">Load more</button>' : '';
    body.innerHTML =
      table(head, shown.map(deliveryRow), ['15%', '24%', '17%', '26%', '18%']) +
      `<p class="muted" id="deliveries-count">${esc(shown.length)} shown, newest first. ${more}</p>`;
    body
      .querySelector('#deliveries-more')
      ?.addEventListener('click', () => panel('webhooks-body', () => showPage(page.nextCursor)));
    for (const button of body.querySelectorAll('tr[data-delivery] button')) {
      const delivery = button.closest('tr').dataset.delivery;
      button.addEventListener('click', () =>
        panel('webhooks-body', async () => {
          const again = await post(`/webhooks/deliveries/${q(delivery)}/redeliver`);
          toast(`Redelivery of ${delivery}: ${again.status}`);
          await loadWebhooks();
        }),
      );
    }
  };
  await showPage();
}

/** The webhook charts look at the newest deliveries (bounded, see `all`). */
async function loadWebhookCharts() {
  const deliveries = await all('/webhooks/deliveries?sortOrder=desc');
  drawWebhookOutcomes(deliveries);
  drawWebhookLatency(deliveries);
}

async function loadClock() {
  let clock;
  try {
    clock = await get('/sandbox/clock');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status === 401) throw e;
    $('clock-body').innerHTML = '<span class="muted">Not a sandbox platform.</span>';
    return;
  }
  $('clock-body').innerHTML =
    `<p>Now <strong id="clock-now">${when(clock.now)}</strong>, ` +
    `offset <span id="clock-offset">${esc(clock.offsetMs)}</span> ms</p>` +
    '<form id="advance"><input name="seconds" type="number" min="1" value="3600" required> seconds ' +
    '<button>Advance</button></form>';
  $('advance').addEventListener('submit', (e) => {
    e.preventDefault();
    const seconds = Number(e.target.elements.seconds.value);
    panel('clock-body', async () => {
      await post('/sandbox/clock/advance', { seconds });
      toast(`Clock advanced by ${seconds} s`);
      await Promise.all([loadClock(), loadApprovals()]);
    });
  });
}

/** Every page of a list (bounded: the charts look at the newest 1,000 items at most). */
async function all(path) {
  const items = [];
  let cursor;
  for (let page = 0; page < 10; page++) {
    const res = await get(`${path}&limit=100${cursor ? `&cursor=${q(cursor)}` : ''}`);
    items.push(...res.data);
    cursor = res.nextCursor;
    if (!res.hasMore || !cursor) break;
  }
  return items;
}

async function loadVolume() {
  const transactions = await all('/transactions?sortOrder=desc');
  drawVolume(transactions);
  drawFailureRate(transactions);
  await loadWebhookCharts();
}

function signOut(message) {
  credentials.clear();
  $('console').hidden = true;
  $('signout').hidden = true;
  $('who').textContent = '';
  $('signin').hidden = false;
  $('signin-error').textContent = message ?? '';
}

async function start() {
  if (!credentials.get()) return signOut();
  try {
    await get('/config');
  } catch (e) {
    return signOut(e instanceof ApiError && e.status === 401 ? 'Those credentials were refused.' : e.message);
  }
  $('signin').hidden = true;
  $('console').hidden = false;
  $('signout').hidden = false;
  $('who').textContent = JSON.parse(credentials.get()).tokenId;
  await Promise.all([panel('charts-error', loadVolume), ...PANELS.map(([id, , load]) => panel(`${id}-body`, load))]);
}

/** The panels between the detail and the charts, in page order: id, title and the loader that fills `<id>-body`. */
const PANELS = [
  ['approvals', 'Pending approvals', loadApprovals],
  ['kyc-reviews', 'KYC reviews', () => loadReviews(toast)],
  ['webhooks', 'Webhook deliveries', loadWebhooks],
  ['clock', 'Sandbox clock', loadClock],
  ['endpoint', 'Webhook endpoint', () => loadWebhookConfig(() => panel('webhooks-body', loadWebhooks))],
  ['health', 'Health', loadHealth],
  ['set-aside', 'Set-aside events', loadSetAside],
  ['bank-rails', 'Bank rails', () => loadRails(toast)],
];

/** Each panel's section: its title over the body its loader fills. */
$('charts').before(
  ...PANELS.map(([id, title]) => {
    const section = document.createElement('section');
    section.id = id;
    section.append(Object.assign(document.createElement('h2'), { textContent: title }));
    section.append(Object.assign(document.createElement('div'), { id: `${id}-body` }));
    return section;
  }),
);

$('signin').addEventListener('submit', (e) => {
  e.preventDefault();
  const form = e.target.elements;
  credentials.set(form.tokenId.value.trim(), form.secret.value.trim());
  start();
});
$('signout').addEventListener('click', () => signOut());
$('search').addEventListener('submit', (e) => {
  e.preventDefault();
  const term = e.target.elements.q.value;
  panel('results', async () => {
    const found = await search(term);
    $('results').innerHTML = '';
    if (found.customers.length > 0)
      renderResults(found.customers, (id) => panel('detail-body', () => showCustomer(id)));
    if (found.cards.length > 0)
      $('results').insertAdjacentHTML('beforeend', '<h3>Cards</h3>' + renderCards(found.cards));
    if (found.transactions.length > 0) {
      $('results').insertAdjacentHTML('beforeend', '<h3>Transactions</h3>' + renderTransactions(found.transactions));
    }
    const show = (load) =>
      panel('detail-body', async () => {
        $('detail-body').innerHTML = '<div id="subdetail"></div>';
        await load();
      });
    for (const row of $('results').querySelectorAll('tr[data-card]'))
      row.addEventListener('click', () => show(() => showCardHistory(row.dataset.card)));
    for (const row of $('results').querySelectorAll('tr[data-tx]'))
      row.addEventListener('click', () => show(() => showTransaction(row.dataset.tx)));
    const total = found.customers.length + found.cards.length + found.transactions.length;
    if (total === 0) $('results').innerHTML = '<span class="muted">Nothing found.</span>';
    else if (found.customers.length === 1 && total === 1) await showCustomer(found.customers[0].id);
    else if (found.cards.length === 1 && total === 1) await show(() => showCardHistory(found.cards[0].id));
    else if (found.transactions.length === 1 && total === 1)
      await show(() => showTransaction(found.transactions[0].id));
  });
});
start();
