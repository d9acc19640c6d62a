/** The MCP server's settings, from the environment. The token is a secret: never logged or echoed. */
export interface McpConfig {
  /** The service's versioned base URL, e.g. `https://payments.example.com/2025-10-13` (no trailing slash). */
  baseUrl: string;
  /** The agent's bearer token (from redeeming its device code). */
  accessToken: string;
}

export class McpConfigError extends Error {}

export function loadMcpConfig(env: NodeJS.ProcessEnv): McpConfig {
  const problems: string[] = [];
  const rawUrl = env.PAYMENTS_API_URL?.trim();
  let baseUrl = '';
  if (!rawUrl) {
    problems.push('PAYMENTS_API_URL is not set (the versioned base URL, e.g. http://127.0.0.1:3000/2025-10-13)');
  } else {
    try {
      const url = new URL(rawUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        problems.push(`PAYMENTS_API_URL must be an http(s) URL, got ${url.protocol}`);
      }
      baseUrl = rawUrl.replace(/\/+$/, '');
    } catch {
      problems.push('PAYMENTS_API_URL is not a valid URL');
    }
  }
  const accessToken = env.AGENT_ACCESS_TOKEN?.trim() ?? '';
  if (!accessToken) problems.push('AGENT_ACCESS_TOKEN is not set (the token from redeeming the agent’s device code)');
  else if (/\s/.test(accessToken)) problems.push('AGENT_ACCESS_TOKEN must not contain whitespace');
  if (problems.length) throw new McpConfigError(`Invalid MCP server configuration:\n- ${problems.join('\n- ')}`);
  return { baseUrl, accessToken };
}
