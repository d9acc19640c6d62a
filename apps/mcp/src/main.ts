import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadMcpConfig, McpConfigError, type McpConfig } from './config.js';
import { createMcpServer } from './server.js';

/** `npm run -s mcp`: the agent MCP server on stdio, configured from PAYMENTS_API_URL and AGENT_ACCESS_TOKEN. */
async function main(): Promise<void> {
  let config: McpConfig;
  try {
    config = loadMcpConfig(process.env);
  } catch (e) {
    if (!(e instanceof McpConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  await createMcpServer(config).connect(new StdioServerTransport());
  // stdout carries the protocol: diagnostics go to stderr, and never the token.
  process.stderr.write(`payments MCP server ready for ${config.baseUrl}\n`);
}

await main();
