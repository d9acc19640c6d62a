// Pure formatting helpers (no DOM, no fetch).

/** Escapes text for HTML. */
export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * An amount in the currency's smallest unit, shown with its decimals and symbol:
 * {amount: 123456, currency: {code: 'USD', symbol: '$', decimals: 2}} → "$1,234.56 USD".
 */
export function formatMoney(amount, currency) {
  if (amount === undefined || amount === null || !currency) return '';
  const decimals = currency.decimals ?? 2;
  const negative = Number(amount) < 0;
  const digits = String(Math.abs(Number(amount))).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? '.' + digits.slice(-decimals) : '';
  return `${negative ? '-' : ''}${currency.symbol ?? ''}${whole}${fraction} ${currency.code}`;
}

/** A money object of the API ({amount, currency}) formatted, or '' when absent. */
export const money = (m) => (m ? formatMoney(m.amount, m.currency) : '');

export const status = (s) => `<span class="status status-${esc(s)}">${esc(s)}</span>`;

/** A date-time shortened for tables. */
export const when = (iso) => (iso ? esc(String(iso).replace('T', ' ').replace(/\.\d+Z$/, 'Z')) : '');

/** Sums transactions into {day → {currency code → amount in major units}} for the volume chart. */
export function volumePerDay(transactions) {
  const days = {};
  for (const tx of transactions) {
    const m = tx.receivedAmount ?? tx.sentAmount;
    if (!m || !m.currency || !tx.createdAt) continue;
    const day = tx.createdAt.slice(0, 10);
    const code = m.currency.code;
    days[day] ??= {};
    days[day][code] = (days[day][code] ?? 0) + m.amount / 10 ** (m.currency.decimals ?? 2);
  }
  return days;
}

/** An HTML table; `rows` are ready `<tr>` strings; an empty body says "none". */
export function table(head, rows) {
  const none = `<tr><td colspan="${head.length}" class="muted">none</td></tr>`;
  return `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.join('') || none}</table>`;
}

/** Table cells from ready HTML strings. */
export const cells = (...html) => html.map((h) => `<td>${h}</td>`).join('');
export const num = (text) => `<span class="num">${esc(text)}</span>`;
export const code = (text) => `<code>${esc(text)}</code>`;
