import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { optional } from "../core/index.js";
import type { Tool, ToolOutput } from "../tools/index.js";
import { toToolOutput } from "./mcp-tool-output.js";

/** What a tool needs of its server's connection: the client while connected, and why not otherwise. */
export interface ToolConnection {
  readonly client: Client | undefined;
  readonly status: { readonly state: string; readonly error?: string | undefined };
}

/** One tool a server offers, as listed at start. */
export interface McpToolInfo {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server marked it read-only (annotations.readOnlyHint): it runs without asking. */
  readOnly: boolean;
}

/** How long one MCP tool call may take. */
export const MCP_CALL_TIMEOUT_MS = 600_000;
/** Tool names providers accept: letters, digits, "_" and "-", at most 64 characters. */
const MAX_TOOL_NAME = 64;

/** `mcp__<server>__<tool>`, with characters providers reject replaced by "_". */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_TOOL_NAME);
}

/**
 * A panto tool that calls `info.name` on its server. It needs permission like bash unless the server
 * marked it read-only; once the server is gone, a call returns an error result naming the server.
 */
export function createMcpTool(info: McpToolInfo, connection: ToolConnection): Tool {
  const name = mcpToolName(info.server, info.name);
  return {
    definition: {
      name,
      description: `${info.description}\n(MCP server "${info.server}", tool "${info.name}")`.trim(),
      parameters: info.inputSchema,
    },
    kind: info.readOnly ? "read" : "exec",
    async execute(args, context): Promise<ToolOutput> {
      const client = connection.client;
      const failed = (text: string): ToolOutput => ({ content: [{ type: "text", text }], isError: true });
      if (client === undefined)
        return failed(
          `MCP server "${info.server}" is not running (${connection.status.error ?? connection.status.state}); ${name} cannot be called.`,
        );
      try {
        const result = await client.callTool({ name: info.name, arguments: args }, undefined, {
          timeout: MCP_CALL_TIMEOUT_MS,
          ...optional("signal", context.signal),
        });
        return toToolOutput(result);
      } catch (error) {
        return failed(
          `MCP server "${info.server}", tool ${info.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}
