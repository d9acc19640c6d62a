import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { callApi, getJson, toolError, type ToolResult } from './api-client.js';
import type { McpConfig } from './config.js';
import { withPolicyCaps, type AccountView, type AgentView } from './policy-caps.js';
import { agentTools, type AgentTool } from './tools.js';

/** The customer's internal accounts and their currencies, when the agent may list them (VIEW_TRANSACTIONS). */
async function accounts(config: McpConfig): Promise<AccountView[] | undefined> {
  const page = (await getJson(config, '/agents/me/internal-accounts', { limit: 100 })) as {
    data?: { id: string; balance?: { currency?: { code?: string } } }[];
    hasMore?: boolean;
  };
  if (!page?.data || page.hasMore) return undefined;
  return page.data.map((a) => ({ id: a.id, currency: a.balance?.currency?.code ?? '' }));
}

/**
 * The tools as listed now: each money-moving tool states the agent's caps, read from its own policy and usage
 * (GET /agents/me). Without an answer from the API the tools are listed as they are; the API decides anyway.
 */
async function listedTools(config: McpConfig, tools: AgentTool[]): Promise<AgentTool[]> {
  const agent = (await getJson(config, '/agents/me')) as AgentView | undefined;
  if (!agent?.policy?.spendingLimits || !agent.usage) return tools;
  return withPolicyCaps(tools, agent, await accounts(config));
}

/** A call the tool refuses itself, before any API call: an input the API would default is missing. */
function refusal(tool: AgentTool, args: Record<string, unknown>): ToolResult | undefined {
  const missing = (tool.explicit ?? []).filter((k) => args[k] === undefined || args[k] === null);
  if (!missing.length) return undefined;
  const message = `${tool.name} needs an explicit ${missing.join(', ')}; nothing was sent`;
  const errors = missing.map((field) => ({ field, constraint: 'REQUIRED', message: `${field} is required` }));
  return toolError(400, { code: 'INVALID_INPUT', message, details: { errors } });
}

/**
 * MCP server (stdio) that lets an AI assistant act as a payments agent. Every tool is one call of
 * the agent API with the agent's token, so the service's policy bounds everything it does.
 * The low-level Server is used because the tools' input schemas are plain JSON Schema from the DTOs.
 */
export function createMcpServer(config: McpConfig): Server {
  const tools = agentTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server({ name: 'payments-agent', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await listedTools(config, tools)).map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema: inputSchema as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return toolError(404, { code: 'UNKNOWN_TOOL', message: `no tool named ${request.params.name}` });
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    return refusal(tool, args) ?? callApi(config, tool.request(args, randomUUID));
  });
  return server;
}
