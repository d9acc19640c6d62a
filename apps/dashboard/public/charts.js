// Charts drawn with Chart.js (loaded as a classic script from node_modules: window.Chart).
import { failureRatePerDay, latencyPerDay, volumePerDay } from './format.js';

const charts = {};
const PALETTE = ['#0969da', '#1a7f37', '#9a6700', '#cf222e', '#8250df', '#57606a', '#bc4c00'];

function draw(id, config) {
  const Chart = window.Chart;
  if (!Chart) return;
  charts[id]?.destroy();
  const options = { animation: false, maintainAspectRatio: false, ...config.options };
  charts[id] = new Chart(document.getElementById(id), { ...config, options });
}

/** Volume per currency per day (major units), one bar series per currency. */
export function drawVolume(transactions) {
  const days = volumePerDay(transactions);
  const labels = Object.keys(days).sort();
  const codes = [...new Set(labels.flatMap((d) => Object.keys(days[d])))].sort();
  draw('volume-chart', {
    type: 'bar',
    data: {
      labels,
      datasets: codes.map((code, i) => ({
        label: code,
        data: labels.map((d) => days[d][code] ?? 0),
        backgroundColor: PALETTE[i % PALETTE.length],
      })),
    },
    options: { plugins: { title: { display: true, text: 'Volume per currency per day' } } },
  });
}

/** Webhook deliveries by outcome. */
export function drawWebhookOutcomes(deliveries) {
  const counts = {};
  for (const d of deliveries) counts[d.status] = (counts[d.status] ?? 0) + 1;
  const colors = { DELIVERED: '#1a7f37', PENDING: '#9a6700', FAILED: '#cf222e', DEAD: '#57606a' };
  const labels = Object.keys(counts).sort();
  draw('webhook-chart', {
    type: 'doughnut',
    data: {
      labels,
      datasets: [{ data: labels.map((l) => counts[l]), backgroundColor: labels.map((l) => colors[l] ?? '#8250df') }],
    },
    options: { plugins: { title: { display: true, text: 'Webhook delivery outcomes' } } },
  });
}

/** A chart of figures per day (days in order): one dataset per series, its `data` the day's `value`. */
function drawDaily(canvas, type, title, days, series, scales) {
  const labels = Object.keys(days).sort();
  const datasets = series.map(({ value, ...rest }) => ({ ...rest, data: labels.map((d) => days[d][value]) }));
  const plugins = { title: { display: true, text: title } };
  draw(canvas, { type, data: { labels, datasets }, options: scales ? { scales, plugins } : { plugins } });
}

/** Share of payments that failed, per day (%). */
export function drawFailureRate(transactions) {
  const failed = { label: 'failed %', value: 'rate', borderColor: '#cf222e', backgroundColor: '#cf222e' };
  drawDaily('failure-chart', 'line', 'Payment failure rate per day', failureRatePerDay(transactions), [failed], {
    y: { min: 0, max: 100, title: { display: true, text: '%' } },
  });
}

/** Webhook delivery latency (creation to delivery) per day: p50 and p95 in ms. */
export function drawWebhookLatency(deliveries) {
  drawDaily('latency-chart', 'bar', 'Webhook delivery latency per day', latencyPerDay(deliveries), [
    { label: 'p50 ms', value: 'p50', backgroundColor: '#0969da' },
    { label: 'p95 ms', value: 'p95', backgroundColor: '#8250df' },
  ]);
}
