import type { McpServerStatus } from "../../mcp/index.js";
import { plural } from "../format-text.js";

/** The text of `/mcp`: each server, where it came from, its state and its tools. */
export function describeMcp(statuses: readonly McpServerStatus[] | undefined): string {
  if (statuses === undefined || statuses.length === 0)
    return 'No MCP servers configured. Add them under "mcp_servers" in config, or in the project\'s .mcp.json ({"mcpServers": {...}}).';
  const lines: string[] = [];
  for (const server of statuses) {
    const state =
      server.state === "connected" ? `connected, ${plural(server.tools.length, "tool")}` : server.state;
    lines.push(`${server.name}: ${state}`, `  ${server.target}`, `  from ${server.source}`);
    if (server.error !== undefined) lines.push(`  ${server.error}`);
    if (server.tools.length > 0) lines.push(`  tools, called by the model as mcp__${server.name}__<tool>:`);
    const width = Math.max(0, ...server.tools.map((tool) => tool.name.length));
    for (const tool of server.tools) {
      const permission = tool.readOnly ? "read-only " : "asks first";
      const summary = tool.description.split("\n")[0] ?? "";
      lines.push(
        `    ${tool.name.padEnd(width)}  ${permission}  ${summary.length > 60 ? `${summary.slice(0, 59)}…` : summary}`,
      );
    }
  }
  return lines.join("\n");
}
