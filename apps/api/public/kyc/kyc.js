// The hosted verification page: reads what the link's customer still lacks, shows those fields, submits them.
const base = document.documentElement.dataset.base;
const token = location.pathname.split('/').filter(Boolean).pop();
const endpoint = `/${base}/kyc/${encodeURIComponent(token)}`;
const form = document.getElementById('kyc-form');
const message = document.getElementById('message');

const LABELS = {
  fullName: 'Full name',
  birthDate: 'Date of birth',
  nationality: 'Nationality (2-letter country code)',
  'address.line1': 'Street and number',
  'address.city': 'City',
  'address.postalCode': 'Postal code',
  'address.country': 'Country (2-letter code)',
  'businessInfo.legalName': 'Legal name of the business',
  'businessInfo.registrationNumber': 'Registration number',
};

function show(text, kind) {
  message.textContent = text;
  message.className = kind;
}

function field(path) {
  const label = document.createElement('label');
  label.textContent = LABELS[path] ?? path;
  const input = document.createElement('input');
  input.name = path;
  input.required = true;
  if (path === 'birthDate') input.type = 'date';
  label.append(input);
  return label;
}

async function load() {
  const reply = await fetch(`${endpoint}/state`);
  const body = await reply.json();
  if (!reply.ok) return show(body.message ?? 'This link is not valid.', 'error');
  if (body.linkStatus === 'COMPLETED') return show('This verification was already submitted.', 'done');
  if (body.linkStatus === 'EXPIRED') return show('This link has expired. Ask for a new one.', 'error');
  const fields = document.getElementById('fields');
  // Always ask for the name (it is what the check reads); the rest only where missing.
  const wanted = new Set(body.missing);
  // A missing address is asked for whole.
  if (wanted.has('address')) for (const path of Object.keys(LABELS)) if (path.startsWith('address.')) wanted.add(path);
  wanted.add(body.customerType === 'BUSINESS' ? 'businessInfo.registrationNumber' : 'fullName');
  for (const path of Object.keys(LABELS)) if (wanted.has(path)) fields.append(field(path));
  form.hidden = false;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const submission = {};
  for (const input of document.getElementById('fields').querySelectorAll('input')) {
    const [head, tail] = input.name.split('.');
    const value = input.value.trim();
    if (!value) continue;
    if (tail) (submission[head] ??= {})[tail] = value;
    else submission[head] = value;
  }
  form.querySelector('button').disabled = true;
  // A document, when one was chosen, is added first: a refused file leaves the link unused.
  const file = form.querySelector('input[name=documentFile]').files[0];
  if (file) {
    const upload = new FormData();
    upload.append('documentType', form.querySelector('select[name=documentType]').value);
    upload.append('country', form.querySelector('input[name=documentCountry]').value.trim().toUpperCase());
    upload.append('file', file, file.name);
    const added = await fetch(`${endpoint}/documents`, { method: 'POST', body: upload });
    if (!added.ok) {
      form.querySelector('button').disabled = false;
      const refused = await added.json();
      const errors = refused.details?.errors?.map((e) => e.message).join('; ');
      return show(errors || refused.message || 'The document was refused.', 'error');
    }
  }
  const reply = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(submission),
  });
  const body = await reply.json();
  if (!reply.ok) {
    form.querySelector('button').disabled = false;
    const errors = body.details?.errors?.map((e) => e.message).join('; ');
    return show(errors || body.message || 'The submission was refused.', 'error');
  }
  form.hidden = true;
  const outcome = { APPROVED: 'approved', PENDING: 'being reviewed', REJECTED: 'not approved' }[body.kycStatus];
  show(`Thank you. Your verification is ${outcome}.`, `done status-${body.kycStatus}`);
  if (body.redirectUri) {
    const link = document.createElement('a');
    link.href = body.redirectUri;
    link.textContent = 'Continue';
    message.append(' ', link);
  }
});

load().catch(() => show('The verification page could not be loaded.', 'error'));
