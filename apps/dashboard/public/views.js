// Customer search and drill-down: customer → accounts → transactions → detail; card → history.
import { get, q } from './api.js';
import { breakable, cells, code, esc, formatMoney, minor, money, num, status, table, when } from './format.js';
import { authorizationsOf, renderAuthorizations, renderCardTransactions, showPostings, transactionRow } from './ops.js';

const $ = (id) => document.getElementById(id);

export function renderResults(customers, onPick) {
  $('results').innerHTML = table(
    ['customer', 'platformCustomerId', 'name', 'email', 'UMA address'],
    customers.map(
      (c) =>
        `<tr class="pick" data-id="${esc(c.id)}">` +
        cells(
          code(c.id),
          esc(c.platformCustomerId),
          esc(c.fullName ?? c.businessInfo?.legalName),
          esc(c.email),
          esc(c.umaAddress),
        ) +
        '</tr>',
    ),
  );
  for (const row of $('results').querySelectorAll('tr.pick')) {
    row.addEventListener('click', () => onPick(row.dataset.id));
  }
}

/** A customer's accounts with formatted balances, its cards and its transactions. */
export async function showCustomer(customerId) {
  const body = $('detail-body');
  body.innerHTML = 'Loading…';
  const [customer, accounts, cards, transactions] = await Promise.all([
    get(`/customers/${q(customerId)}`),
    get(`/customers/internal-accounts?customerId=${q(customerId)}&limit=100`),
    get(`/cards?customerId=${q(customerId)}&limit=100`),
    get(`/transactions?customerId=${q(customerId)}&limit=50`),
  ]);
  body.innerHTML =
    `<h3>${esc(customer.fullName ?? customer.platformCustomerId)} <code>${esc(customer.id)}</code></h3>` +
    `<h3>Accounts</h3>` +
    table(
      ['account', 'type', 'balance'],
      accounts.data.map(
        (a) =>
          `<tr class="pick" data-account="${esc(a.id)}">${cells(code(a.id), esc(a.type))}` +
          `<td class="num balance">${esc(money(a.balance))}</td></tr>`,
      ),
    ) +
    `<h3>Cards</h3>` +
    table(
      ['card', 'last four', 'state', ''],
      cards.data.map(
        (c) =>
          `<tr><td><code>${esc(c.id)}</code></td><td>${esc(c.last4)}</td><td>${status(c.state)}</td>` +
          `<td><a data-card="${esc(c.id)}">history</a></td></tr>`,
      ),
    ) +
    `<h3>Transactions</h3>` +
    table(
      ['transaction', 'type', 'status', 'sent', 'received', 'created'],
      transactions.data.map((t) =>
        transactionRow(t, num(money(t.sentAmount)), num(money(t.receivedAmount)), when(t.createdAt)),
      ),
    ) +
    `<div id="subdetail"></div>`;
  for (const r of body.querySelectorAll('tr[data-account]')) {
    const account = accounts.data.find((a) => a.id === r.dataset.account);
    r.addEventListener('click', () => showPostings(account, 'subdetail'));
  }
  for (const a of body.querySelectorAll('a[data-card]')) {
    a.addEventListener('click', () => showCardHistory(a.dataset.card));
  }
  for (const r of body.querySelectorAll('tr[data-tx]')) {
    r.addEventListener('click', () => showTransaction(r.dataset.tx));
  }
}

export async function showTransaction(id, target = 'subdetail') {
  const [tx, history, ledger] = await Promise.all([
    get(`/transactions/${q(id)}`),
    get(`/audit/transactions/${q(id)}/history?limit=100`),
    get(`/audit/transactions/${q(id)}/ledger?limit=100`),
  ]);
  $(target).innerHTML =
    `<h3>Transaction <code>${esc(tx.id)}</code></h3>` +
    table(
      ['status', 'failure reason', 'sent', 'received', 'fees', 'reference'],
      [
        `<tr><td id="tx-status">${status(tx.status)}</td><td id="tx-failure">${esc(tx.failureReason ?? '—')}</td>` +
          `<td class="num">${esc(money(tx.sentAmount))}</td><td class="num">${esc(money(tx.receivedAmount))}</td>` +
          `<td class="num" id="tx-fees">${esc(formatMoney(tx.fees, tx.receivedAmount?.currency))}</td>` +
          `<td>${esc(tx.reconciliationInstructions?.reference)}</td></tr>`,
      ],
    ) +
    historyTable(history.data) +
    `<h3>Ledger legs</h3><div id="ledger-legs">` +
    table(
      ['at', 'transfer', 'kind', 'debit', 'credit', 'amount', 'code'],
      ledger.data.map(
        (e) =>
          `<tr>${cells(
            when(e.occurredAt ?? e.recordedAt),
            code(e.leg.transferId),
            breakable(e.leg.kind),
            code(e.leg.debitAccountId),
            code(e.leg.creditAccountId),
          )}<td class="num">${esc(minor(e.leg.amount, e.leg.currency))}</td>${cells(breakable(e.leg.code))}</tr>`,
      ),
    ) +
    '</div>';
}

const CONTROLS = [
  ['perAuthorizationLimit', 'per authorization'],
  ['dailyLimit', 'daily (UTC day)'],
  ['monthlyLimit', 'monthly (UTC month)'],
  ['allowedMerchantCategories', 'allowed merchant categories'],
  ['blockedMerchantCategories', 'blocked merchant categories'],
  ['allowedMerchantCountries', 'allowed merchant countries'],
];

/** The card's spending controls: its own, else the platform's default (cardSpendingControls), else none. */
function renderSpendingControls(card, config) {
  const controls = card.spendingControls ?? config.cardSpendingControls;
  const source = card.spendingControls ? 'the card’s own' : controls ? 'the platform’s default' : 'none';
  // Limits in the smallest unit of the card's currency, as the API states them.
  const value = (v) => (Array.isArray(v) ? esc(v.join(', ')) : `${num(v)} ${esc(card.currency)} (smallest unit)`);
  const rows = CONTROLS.filter(([key]) => controls?.[key] !== undefined && controls?.[key] !== null).map(
    ([key, label]) => `<tr>${cells(esc(label))}<td>${value(controls[key])}</td></tr>`,
  );
  const shown = table(['control', 'value'], rows);
  return `<div id="card-spending-controls"><p>Spending controls: ${source}</p>${shown}</div>`;
}

export async function showCardHistory(cardId, target = 'subdetail') {
  const [history, transactions, card, config] = await Promise.all([
    get(`/audit/cards/${q(cardId)}/history?limit=100`),
    get(`/cards/${q(cardId)}/transactions?limit=100`),
    get(`/cards/${q(cardId)}`),
    get('/config'),
  ]);
  $(target).innerHTML =
    `<h3>Card <code>${esc(cardId)}</code> spending controls</h3>` +
    renderSpendingControls(card, config) +
    `<h3>Card <code>${esc(cardId)}</code> transactions (spend)</h3>` +
    renderCardTransactions(transactions) +
    `<h3>Card <code>${esc(cardId)}</code> history</h3>` +
    historyTable(history.data) +
    `<h3>Authorizations, declined ones included</h3>` +
    renderAuthorizations(authorizationsOf(history.data));
}

function historyTable(events) {
  return (
    `<div class="history">` +
    table(
      ['#', 'at', 'event', 'state', 'actor', 'correlation'],
      events.map((e) => {
        const state = e.changes?.card?.state ?? e.changes?.transaction?.status ?? e.changes?.status ?? '';
        const shown = state ? status(state) : '';
        const row = cells(
          esc(e.revision),
          when(e.occurredAt),
          esc(e.type),
          shown,
          code(e.actor),
          code(e.correlationId),
        );
        return `<tr>${row}</tr>`;
      }),
    ) +
    `</div>`
  );
}
