import type { McpServer } from "@agentclientprotocol/sdk";
import type { McpServerSpec } from "../../mcp/index.js";

/** The MCP servers a client passes in `session/new` (stdio, HTTP, SSE) as panto's server specs. */
export function mcpServerSpecs(servers: readonly McpServer[]): McpServerSpec[] {
  return servers.map((server) => {
    const source = "the editor (ACP session/new)";
    if ("type" in server && (server.type === "http" || server.type === "sse"))
      return {
        name: server.name,
        source,
        transport: { type: server.type, url: server.url, headers: pairs(server.headers) },
      };
    const stdio = server as Extract<McpServer, { command: string }>;
    return {
      name: stdio.name,
      source,
      transport: { type: "stdio", command: stdio.command, args: [...stdio.args], env: pairs(stdio.env) },
    };
  });
}

function pairs(list: ReadonlyArray<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(list.map(({ name, value }) => [name, value]));
}
