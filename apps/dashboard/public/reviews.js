// KYC reviews: the production platform's verifications waiting for an operator, each with the customer's data, its
// beneficial owners and their documents (viewed with the operator's credentials), approved or rejected with a reason.
import { API_BASE, ApiError, credentials, get, post, q } from './api.js';
import { cells, code, esc, status, table, when } from './format.js';

const $ = (id) => document.getElementById(id);
const BODY = 'kyc-reviews-body';

/** A document's file through the documents API, as an object URL of this page (the API wants Basic auth). */
async function fileUrl(contentPath) {
  const { tokenId, secret } = JSON.parse(credentials.get() ?? '{}');
  const res = await fetch(API_BASE + contentPath, {
    headers: { authorization: 'Basic ' + btoa(`${tokenId}:${secret}`) },
    credentials: 'omit',
  });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => undefined));
  return URL.createObjectURL(await res.blob());
}

const name = (c) => c?.businessInfo?.legalName ?? c?.fullName ?? c?.platformCustomerId ?? '';
const personName = (p) => [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ');
const address = (a) =>
  a ? [a.line1, a.line2, a.city, a.state, a.postalCode, a.country].filter(Boolean).join(', ') : '';

/** Label / value rows of what the reviewer checks. */
const facts = (pairs) =>
  '<dl class="review-facts">' +
  pairs
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('') +
  '</dl>';

const documentsTable = (documents) =>
  documents.length === 0
    ? '<p class="muted">No documents.</p>'
    : table(
        ['document', 'type', 'file', 'uploaded', ''],
        documents.map(
          (d) =>
            `<tr data-document="${esc(d.id)}" data-content="${esc(d.contentPath)}" data-media="${esc(d.mediaType)}">` +
            cells(code(d.id), esc(d.documentType), esc(d.fileName), when(d.createdAt)) +
            '<td><button data-view>View</button></td></tr>',
        ),
      );

function customerFacts(c) {
  if (!c) return '<p class="muted">The customer was deleted.</p>';
  const business = c.customerType === 'BUSINESS';
  return facts([
    ['Customer', c.id],
    ['Type', c.customerType],
    ['Name', name(c)],
    ['Registration number', c.businessInfo?.registrationNumber],
    ['Born', c.birthDate],
    ['Nationality', c.nationality],
    ['Email', c.email],
    ['Address', address(c.address)],
    ['Platform customer id', c.platformCustomerId],
    [business ? 'KYB status' : 'KYC status', business ? c.kybStatus : c.kycStatus],
  ]);
}

function ownerSection(o) {
  const p = o.personalInfo ?? {};
  return (
    `<div class="review-owner" data-owner="${esc(o.id)}"><h4>${esc(personName(p))} ${status(o.kycStatus)}</h4>` +
    facts([
      ['Owner', o.id],
      ['Roles', (o.roles ?? []).join(', ')],
      ['Ownership', `${o.ownershipPercentage}%`],
      ['Born', p.birthDate],
      ['Nationality', p.nationality],
      ['Identification', `${p.idType ?? ''} ${p.identifier ?? ''}`.trim()],
      ['Address', address(p.address)],
    ]) +
    documentsTable(o.documents ?? []) +
    '</div>'
  );
}

/** The review's decision form, or who decided it, when and why. */
function decision(r) {
  if (r.status !== 'PENDING')
    return (
      `<p id="review-decided">${status(r.status)} by <code>${esc(r.decidedBy)}</code> ${when(r.decidedAt)}` +
      `${r.reason ? ` — ${esc(r.reason)}` : ''}</p>`
    );
  return (
    '<form id="review-decision"><label>Reason <input name="reason" size="60" maxlength="1000" ' +
    'placeholder="Required to reject"></label> <button data-decide="approve">Approve</button> ' +
    '<button data-decide="reject">Reject</button></form>'
  );
}

/** Shows a document inline (an image or a PDF) with a link that opens it in a new tab. */
async function view(row) {
  const url = await fileUrl(row.dataset.content);
  const media = row.dataset.media ?? '';
  const inline = media.startsWith('image/')
    ? `<img src="${esc(url)}" alt="${esc(row.dataset.document)}">`
    : `<iframe src="${esc(url)}" title="${esc(row.dataset.document)}"></iframe>`;
  $('review-viewer').innerHTML =
    `<p><code>${esc(row.dataset.document)}</code> <a id="review-open" href="${esc(url)}" target="_blank" ` +
    `rel="noopener">Open in a new tab</a></p>${inline}`;
}

async function showReview(id, notify, run) {
  const r = await get(`/verifications/reviews/${q(id)}`);
  const owners = r.beneficialOwners ?? [];
  $('review-detail').innerHTML =
    `<h3>${esc(name(r.customer))} ${status(r.status)} <code>${esc(r.id)}</code></h3>` +
    `<p class="muted">Submitted ${when(r.createdAt)}</p>` +
    customerFacts(r.customer) +
    '<h4>Documents</h4>' +
    documentsTable(r.documents ?? []) +
    (r.customerType === 'BUSINESS' ? `<h4>Beneficial owners (${owners.length})</h4>` : '') +
    owners.map(ownerSection).join('') +
    '<div id="review-viewer"></div>' +
    decision(r);
  for (const button of $('review-detail').querySelectorAll('button[data-view]'))
    button.addEventListener('click', () => run(() => view(button.closest('tr'))));
  $('review-decision')?.addEventListener('submit', (e) => {
    e.preventDefault();
    const act = e.submitter?.dataset.decide ?? 'approve';
    const reason = e.target.elements.reason.value.trim();
    if (act === 'reject' && !reason) {
      notify('A rejection needs a reason.');
      return;
    }
    run(async () => {
      const done = await post(`/verifications/reviews/${q(id)}/${act}`, reason ? { reason } : {});
      notify(`${done.status === 'APPROVED' ? 'Approved' : 'Rejected'}: ${done.customerId}`);
      await loadReviews(notify, done.id);
    });
  });
}

/** The pending reviews, oldest first; `open` shows one of them (or a decided one) below the list. */
export async function loadReviews(notify, open) {
  const body = $(BODY);
  const run = async (task) => {
    try {
      await task();
    } catch (e) {
      notify(e instanceof ApiError ? e.message : String(e));
    }
  };
  const page = await get('/verifications/reviews?status=PENDING&limit=50');
  body.innerHTML =
    (page.data.length === 0
      ? '<p class="muted" id="no-reviews">No verification waits for review.</p>'
      : table(
          ['review', 'customer', 'type', 'submitted'],
          page.data.map(
            (r) =>
              `<tr class="pick" data-review="${esc(r.id)}">` +
              cells(code(r.id), code(r.customerId), esc(r.customerType), when(r.createdAt)) +
              '</tr>',
          ),
        )) +
    (page.hasMore ? '<p class="muted">Showing the oldest 50.</p>' : '') +
    '<div id="review-detail"></div>';
  for (const row of body.querySelectorAll('tr[data-review]'))
    row.addEventListener('click', () => run(() => showReview(row.dataset.review, notify, run)));
  if (open) await showReview(open, notify, run);
}
