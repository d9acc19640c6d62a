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

/**
 * The currency's symbol and decimals for amounts in its smallest unit, where a resource gives only the code: the
 * browser's ISO 4217 data, two decimals and no symbol for a code it does not know.
 */
export function currencyOf(codeOfCurrency) {
  try {
    const f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: codeOfCurrency,
      currencyDisplay: 'narrowSymbol',
    });
    const symbol = f.formatToParts(0).find((p) => p.type === 'currency')?.value ?? '';
    const decimals = f.resolvedOptions().maximumFractionDigits;
    return { code: codeOfCurrency, symbol: symbol === codeOfCurrency ? '' : symbol, decimals };
  } catch {
    return { code: codeOfCurrency, symbol: '', decimals: 2 };
  }
}

/** An amount in the smallest unit of the currency `code` names, formatted; '' when absent. */
export const minor = (amount, code) =>
  amount === undefined || amount === null || !code ? '' : formatMoney(amount, currencyOf(code));

/**
 * A long id (`Type:uuid`) shortened in its cell: the part after its type, cut with an ellipsis where the cell ends;
 * whole in its title.
 */
export const shortId = (text) =>
  `<code class="id" title="${esc(text)}">${esc(String(text ?? '').replace(/^[A-Za-z]+:(?=.)/, ''))}</code>`;

/** Text of codes and types (`INCOMING_PAYMENT.PENDING`) that may wrap after each `_` and `.`. */
export const breakable = (text) => esc(text).replace(/([._])/g, '$1<wbr>');

/** A webhook delivery's attempts in words: "delivered after 2 attempts", "failed: 503, retrying at …". */
export function attemptsText(d) {
  const n = d.attemptCount ?? 0;
  const attempts = `${n} attempt${n === 1 ? '' : 's'}`;
  const answer = d.lastStatusCode ? `${d.lastStatusCode}` : (d.lastError ?? 'no answer');
  const at = (iso) =>
    String(iso)
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z');
  if (d.status === 'DELIVERED') return `delivered after ${attempts}`;
  if (d.status === 'DEAD') return `gave up after ${attempts}: ${answer}`;
  if (d.status === 'FAILED') return `failed: ${answer}, not retried (${attempts})`;
  if (n === 0) return d.nextAttemptAt ? `queued, first attempt at ${at(d.nextAttemptAt)}` : 'queued';
  const next = d.nextAttemptAt ? `retrying at ${at(d.nextAttemptAt)}` : 'retrying';
  return `failed: ${answer}, ${next} (${attempts} so far)`;
}

export const status = (s) => `<span class="status status-${esc(s)}">${esc(s)}</span>`;

/** A date-time shortened for tables. */
export const when = (iso) =>
  iso
    ? esc(
        String(iso)
          .replace('T', ' ')
          .replace(/\.\d+Z$/, 'Z'),
      )
    : '';

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

/**
 * An HTML table; `rows` are ready `<tr>` strings; an empty body says "none". With `widths` (one CSS width a column)
 * the table keeps to its panel's width: fixed columns, long text wrapped and ids shortened.
 */
export function table(head, rows, widths) {
  const none = `<tr><td colspan="${head.length}" class="muted">none</td></tr>`;
  const cols = widths ? `<colgroup>${widths.map((w) => `<col style="width:${esc(w)}">`).join('')}</colgroup>` : '';
  const open = widths ? '<table class="fit">' : '<table>';
  return `${open}${cols}<tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.join('') || none}</table>`;
}

/** Table cells from ready HTML strings. */
export const cells = (...html) => html.map((h) => `<td>${h}</td>`).join('');
export const num = (text) => `<span class="num">${esc(text)}</span>`;
export const code = (text) => `<code>${esc(text)}</code>`;

/** {day → {payments, failed, rate in %}} of transactions by their creation day, for the failure-rate chart. */
export function failureRatePerDay(transactions) {
  const days = {};
  for (const tx of transactions) {
    if (!tx.createdAt) continue;
    const day = tx.createdAt.slice(0, 10);
    days[day] ??= { payments: 0, failed: 0, rate: 0 };
    days[day].payments += 1;
    if (tx.status === 'FAILED') days[day].failed += 1;
  }
  for (const d of Object.values(days)) d.rate = Math.round((d.failed / d.payments) * 1000) / 10;
  return days;
}

/** The p-th percentile (0..100) of numbers, nearest rank; undefined for none. */
export function percentile(values, p) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** {day → {p50, p95} in ms} from creation to delivery of the delivered webhooks, for the latency chart. */
export function latencyPerDay(deliveries) {
  const byDay = {};
  for (const d of deliveries) {
    if (!d.deliveredAt || !d.createdAt) continue;
    const ms = Date.parse(d.deliveredAt) - Date.parse(d.createdAt);
    if (!(ms >= 0)) continue;
    (byDay[d.createdAt.slice(0, 10)] ??= []).push(ms);
  }
  const out = {};
  for (const [day, values] of Object.entries(byDay))
    out[day] = { p50: percentile(values, 50), p95: percentile(values, 95) };
  return out;
}
