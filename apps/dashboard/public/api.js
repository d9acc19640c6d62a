// The console talks only to the public API and the audit endpoints, with the operator's credentials.
const KEY = 'console-credentials';
// The versioned API base: this file is served at <base>/dashboard/assets/api.js.
export const API_BASE = new URL('../../', import.meta.url).href.replace(/\/$/, '');

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? `${status} ${body.code}: ${body.message}` : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export const credentials = {
  get: () => sessionStorage.getItem(KEY),
  set: (tokenId, secret) => sessionStorage.setItem(KEY, JSON.stringify({ tokenId, secret })),
  clear: () => sessionStorage.removeItem(KEY),
};

function authorization() {
  const stored = credentials.get();
  if (!stored) return undefined;
  const { tokenId, secret } = JSON.parse(stored);
  return 'Basic ' + btoa(`${tokenId}:${secret}`);
}

/** One API call; JSON in and out; throws ApiError on a non-2xx answer. */
export async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  const auth = authorization();
  if (auth) headers.authorization = auth;
  if (body !== undefined) headers['content-type'] = 'application/json';
  // credentials: 'omit' (no cookies are used) also keeps the browser from answering a 401's
  // WWW-Authenticate: Basic with its own sign-in prompt, which would hang the request.
  const init = { method, headers, credentials: 'omit', body: body === undefined ? undefined : JSON.stringify(body) };
  const res = await fetch(API_BASE + path, init);
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body ?? {});
export const q = encodeURIComponent;
