import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { callApi, toolError } from './api-client.js';
import type { McpConfig } from './config.js';
import { agentTools } from './tools.js';

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
    tools: tools.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema: inputSchema as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return toolError(404, { code: 'UNKNOWN_TOOL', message: `no tool named ${request.params.name}` });
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    return callApi(config, tool.request(args, randomUUID));
  });
  return server;
}
