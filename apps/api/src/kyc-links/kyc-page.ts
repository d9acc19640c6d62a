import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../http/repository-root.js';

const FILES: Record<string, { file: string; type: string }> = {
  'kyc.js': { file: 'apps/api/public/kyc/kyc.js', type: 'text/javascript; charset=utf-8' },
  'kyc.css': { file: 'apps/api/public/kyc/kyc.css', type: 'text/css; charset=utf-8' },
};

const root = () => repositoryRoot(FILES['kyc.js'].file, 'apps/api/public/kyc not found');

const cache = new Map<string, string>();

/** A file of the hosted KYC page by public name (an allow-list), or undefined. */
export function kycAsset(name: string): { body: string; type: string } | undefined {
  const asset = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!asset) return undefined;
  if (!cache.has(name)) cache.set(name, readFileSync(join(root(), asset.file), 'utf8'));
  return { body: cache.get(name)!, type: asset.type };
}

/** The page: no customer data in it; its script reads what is missing with the link's token. */
export function kycPage(base: string): string {
  return `<!doctype html>
<html lang="en" data-base="${base}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Identity verification</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/${base}/kyc/assets/kyc.css">
</head><body><main>
<h1>Identity verification</h1>
<p id="message" role="status"></p>
<form id="kyc-form" hidden><div id="fields"></div>
<fieldset id="document"><legend>Identity document (optional)</legend>
<label>Type <select name="documentType"><option value="PASSPORT">Passport</option>
<option value="DRIVERS_LICENSE">Driver's license</option>
<option value="NATIONAL_ID">National ID</option></select></label>
<label>Issuing country (2-letter code) <input name="documentCountry" maxlength="2"></label>
<label>File (PDF, JPEG or PNG)
<input name="documentFile" type="file" accept="application/pdf,image/jpeg,image/png"></label>
</fieldset>
<button type="submit">Submit</button></form>
</main>
<script src="/${base}/kyc/assets/kyc.js"></script>
</body></html>`;
}
