import type { McpConfig } from './config.js';
import type { ApiRequest } from './tools.js';

/** What a tool call returns to the MCP client (the SDK's CallToolResult shape). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

const text = (value: unknown) => [
  { type: 'text' as const, text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) },
];

/** An API error as a tool error: the first line names the code so an assistant can act on it. */
export function toolError(status: number, body: unknown): ToolResult {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const code = typeof b.code === 'string' ? b.code : `HTTP_${status}`;
  const message = typeof b.message === 'string' ? b.message : undefined;
  const reason = typeof b.reason === 'string' ? b.reason : (message ?? String(body ?? ''));
  const error = { status, code, reason, ...(message ? { message } : {}), ...(b.details ? { details: b.details } : {}) };
  return { isError: true, content: [...text(`${code}: ${reason}`), ...text(error)] };
}

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

type Answer = { ok: true; status: number; body: unknown } | { ok: false; error: ToolResult };

/** One request of the agent API with the agent's bearer token: its status and (JSON if it is) body. */
async function send(config: McpConfig, req: ApiRequest): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${config.baseUrl}${req.path}${queryString(req.query)}`, {
      method: req.method,
      headers: {
        Authorization: `Bearer ${config.accessToken}`,
        Accept: 'application/json',
        ...(req.body ? { 'Content-Type': 'application/json' } : {}),
        ...req.headers,
      },
      body: req.body ? JSON.stringify(req.body) : undefined,
    });
  } catch (e) {
    const message = `the payments API did not answer: ${(e as Error).message}`;
    return { ok: false, error: toolError(0, { code: 'SERVICE_UNREACHABLE', message }) };
  }
  const raw = await res.text();
  let body: unknown = raw;
  try {
    body = raw ? JSON.parse(raw) : null;
  } catch {
    // Not JSON (e.g. a proxy's error page): keep the text.
  }
  if (!res.ok) return { ok: false, error: toolError(res.status, body) };
  return { ok: true, status: res.status, body };
}

/** Calls the agent API with the agent's bearer token; any non-2xx answer becomes a tool error. */
export async function callApi(config: McpConfig, req: ApiRequest): Promise<ToolResult> {
  const answer = await send(config, req);
  if (!answer.ok) return answer.error;
  return { content: text(answer.body ?? { status: answer.status }) };
}

/** A GET's JSON body, or undefined when the API refuses it or does not answer. */
export async function getJson(config: McpConfig, path: string, query?: Record<string, unknown>): Promise<unknown> {
  const answer = await send(config, { method: 'GET', path, query });
  return answer.ok ? answer.body : undefined;
}
