// A production platform's bank rails, per currency: the credits held in suspense (assigned to an account here), each
// day's reconciliation of the bank statement with its breaks, and the files the bank delivered.
import { ApiError, get, post, q } from './api.js';
import { cells, code, currencyOf, esc, formatMoney, status, table, when } from './format.js';

const $ = (id) => document.getElementById(id);

/** The newest items of a rail's list (GET /bank-rails/{currency}/{what}), and whether there are more. */
const newest = (currency, what) => get(`/bank-rails/${q(currency)}/${what}?limit=50`);
const more = (page) => (page.hasMore ? '<p class="muted">Showing the newest 50.</p>' : '');

/** An amount of the rail lists (smallest unit, as a string) formatted; '' when absent. */
const minor = (amount, currency) =>
  amount === undefined || amount === null ? '' : formatMoney(amount, currencyOf(currency));
const amountCell = (amount, currency) => `<td class="num">${esc(minor(amount, currency))}</td>`;
/** A date or time kept on one line (`html` is escaped already). */
const nowrap = (html) => `<span class="nowrap">${html}</span>`;

/** The rail's bank account, its number shortened to the last four characters. */
function accountLabel(account) {
  const number = account?.iban ?? account?.accountNumber ?? '';
  return `${esc(account?.name)}${number ? ` · …${esc(String(number).slice(-4))}` : ''}`;
}

/** Every rail of the platform (GET /config rails), each with its three lists; a platform without rails says so. */
export async function loadRails(notify) {
  const config = await get('/config');
  const rails = config.rails ?? [];
  const body = $('bank-rails-body');
  if (rails.length === 0) {
    body.innerHTML =
      '<p class="muted" id="no-rails">This platform has no bank rail. Sandbox platforms have none; a production ' +
      'platform sets one per currency in its configuration (PATCH /config, rails).</p>';
    return;
  }
  body.innerHTML = rails
    .map(
      (r) =>
        `<div class="rail" data-currency="${esc(r.currency)}">` +
        `<h3>${esc(r.currency)} <span class="muted">${esc(r.type)} · ${accountLabel(r.account)}</span></h3>` +
        '<h4>Credits in suspense</h4><div class="rail-exceptions">Loading…</div>' +
        '<h4>Reconciliations</h4><div class="rail-reconciliations">Loading…</div>' +
        '<h4>Bank files</h4><div class="rail-inbox">Loading…</div></div>',
    )
    .join('');
  const blocks = body.querySelectorAll('.rail');
  await Promise.all(rails.map((rail, i) => loadRail(blocks[i], rail.currency, notify)));
}

/** One rail's lists; a list that fails shows its error in its place (a refused sign-in is left to the caller). */
async function loadRail(block, currency, notify) {
  const part = async (selector, load) => {
    try {
      await load(block.querySelector(selector));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) throw e;
      block.querySelector(selector).innerHTML = `<span class="error">${esc(e.message)}</span>`;
    }
  };
  await Promise.all([
    part('.rail-exceptions', (el) => loadExceptions(el, currency, notify)),
    part('.rail-reconciliations', async (el) => {
      el.innerHTML = renderReconciliations(await newest(currency, 'reconciliations'), currency);
    }),
    part('.rail-inbox', async (el) => {
      el.innerHTML = renderInbox(await newest(currency, 'inbox'));
    }),
  ]);
}

/** The credits held in suspense; an OPEN one has a form to assign it to an internal account. */
async function loadExceptions(el, currency, notify) {
  const page = await newest(currency, 'exceptions');
  el.innerHTML = renderExceptions(page) + more(page);
  for (const form of el.querySelectorAll('form.assign')) {
    const id = form.closest('tr').dataset.credit;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const accountId = form.elements.accountId.value.trim();
      const error = form.querySelector('.assign-error');
      error.textContent = '';
      form.elements.assign.disabled = true;
      try {
        const back = e.submitter?.name === 'return';
        const action = back ? 'return' : 'assign';
        const done = await post(`/bank-rails/${q(currency)}/exceptions/${q(id)}/${action}`, back ? {} : { accountId });
        notify?.(
          `${done.id} is ${done.status}${back ? ': sent back to its payer' : `: assigned to ${done.assignedTo}`}`,
        );
        await loadExceptions(el, currency, notify);
      } catch (err) {
        error.textContent = refusal(err);
        form.elements.assign.disabled = false;
      }
    });
  }
}

/** The API's answer to a refused request: its code and message, and what it says of each field. */
export function refusal(err) {
  const fields = (err.body?.details?.errors ?? []).map((f) => f.message).filter(Boolean);
  return fields.length > 0 ? `${err.message} (${fields.join('; ')})` : err.message;
}

const assignedCell = (c) =>
  `${code(c.assignedTo)}${c.assignedAt ? `<br><span class="muted nowrap">${when(c.assignedAt)}</span>` : ''}`;

export function renderExceptions(page) {
  return table(
    ['credit', 'status', 'amount', 'booked', 'bank reference', 'remittance', 'account'],
    page.data.map((c) => {
      const account =
        c.status === 'OPEN'
          ? '<form class="assign"><input name="accountId" size="30" placeholder="InternalAccount:…" required> ' +
            '<button name="assign">Assign</button> <button name="return" formnovalidate>Return to payer</button> ' +
            '<span class="error assign-error"></span></form>'
          : c.assignedTo
            ? assignedCell(c)
            : `<span class="muted">${c.status === 'RETURNED' ? 'returned to its payer' : 'sent back'}</span>`;
      return (
        `<tr data-credit="${esc(c.id)}">${cells(code(c.id), status(c.status))}` +
        amountCell(c.amount, c.currency) +
        cells(nowrap(esc(c.bookingDate)), code(c.entryReference), esc(c.remittanceInformation), account) +
        '</tr>'
      );
    }),
  );
}

/**
 * Each reconciled day: the statement's and the ledger's balances (amounts in the rail's `currency`), closed or with
 * its breaks listed under it.
 */
export function renderReconciliations(page, currency) {
  const rows = page.data.map((r) => {
    const result = r.closed
      ? status('CLOSED')
      : `<span class="status status-BREAKS">${esc(r.breaks.length)} break${r.breaks.length === 1 ? '' : 's'}</span>`;
    const day =
      `<tr data-date="${esc(r.date)}">${cells(esc(r.date), code(r.statementId))}` +
      amountCell(r.openingBalance, currency) +
      amountCell(r.closingBalance, currency) +
      amountCell(r.expectedOpeningBalance, currency) +
      amountCell(r.expectedClosingBalance, currency) +
      `${cells(result)}</tr>`;
    if (r.breaks.length === 0) return day;
    const items = r.breaks.map(
      (b) =>
        `<li><span class="status status-BREAKS">${esc(b.kind)}</span> ${code(b.reference)}` +
        (b.statementAmount !== undefined ? ` statement ${esc(minor(b.statementAmount, currency))}` : '') +
        (b.ledgerAmount !== undefined ? ` ledger ${esc(minor(b.ledgerAmount, currency))}` : '') +
        ` <span class="muted">${esc(b.detail)}</span></li>`,
    );
    return `${day}<tr class="breaks" data-breaks="${esc(r.date)}"><td colspan="7"><ul>${items.join('')}</ul></td></tr>`;
  });
  const head = ['day', 'statement', 'opening', 'closing', 'ledger opening', 'ledger closing', 'result'];
  return table(head, rows) + more(page);
}

/** The files the bank delivered: what each did, what it could not take, and why a quarantined one was refused. */
export function renderInbox(page) {
  const rows = page.data.map((f) => {
    const counts = {};
    for (const e of f.effects ?? []) counts[e.action] = (counts[e.action] ?? 0) + 1;
    const effects = Object.entries(counts)
      .map(([action, n]) => `${esc(n)} ${esc(action)}`)
      .join(', ');
    const notes = [
      f.quarantineReason ? `<span class="error quarantine-reason">${esc(f.quarantineReason)}</span>` : '',
      ...(f.problems ?? []).map((p) => `<span class="muted">${esc(p.entry)}: ${esc(p.reason)}</span>`),
    ].filter(Boolean);
    return (
      `<tr data-file="${esc(f.fileName)}">` +
      cells(
        code(f.fileName),
        esc(f.messageType),
        status(f.status),
        nowrap(when(f.receivedAt)),
        effects,
        notes.join('<br>'),
      ) +
      '</tr>'
    );
  });
  return table(['file', 'kind', 'status', 'received', 'effects', 'problems'], rows) + more(page);
}
