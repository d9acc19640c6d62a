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

/** Share of payments that failed, per day (%). */
export function drawFailureRate(transactions) {
  const days = failureRatePerDay(transactions);
  const labels = Object.keys(days).sort();
  draw('failure-chart', {
    type: 'line',
    data: {
      labels,
      datasets: [
        {
          label: 'failed %',
          data: labels.map((d) => days[d].rate),
          borderColor: '#cf222e',
          backgroundColor: '#cf222e',
        },
      ],
    },
    options: {
      scales: { y: { min: 0, max: 100, title: { display: true, text: '%' } } },
      plugins: { title: { display: true, text: 'Payment failure rate per day' } },
    },
  });
}

/** Webhook delivery latency (creation to delivery) per day: p50 and p95 in ms. */
export function drawWebhookLatency(deliveries) {
  const days = latencyPerDay(deliveries);
  const labels = Object.keys(days).sort();
  draw('latency-chart', {
    type: 'bar',
    data: {
      labels,
      datasets: [
        { label: 'p50 ms', data: labels.map((d) => days[d].p50), backgroundColor: '#0969da' },
        { label: 'p95 ms', data: labels.map((d) => days[d].p95), backgroundColor: '#8250df' },
      ],
    },
    options: { plugins: { title: { display: true, text: 'Webhook delivery latency per day' } } },
  });
}
