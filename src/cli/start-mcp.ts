import { readFileSync } from "node:fs";
import type { LoadedConfig } from "../config/index.js";
import { collectMcpServers, type McpServerStatus, type McpServers } from "../mcp/index.js";
import type { SecretRedactor } from "../secrets/index.js";
import { addMcpSecrets } from "./known-secrets.js";
import { plural } from "./terminal/render.js";

/**
 * Starts the MCP servers of the project's `.mcp.json` and of `mcp_servers` in config. With none
 * configured, nothing of MCP is loaded: the SDK is imported only here, and only when needed. The
 * secrets in their settings are registered with `secrets` first (see `addMcpSecrets`).
 */
export async function startMcp(
  loaded: LoadedConfig,
  cwd: string,
  env: NodeJS.ProcessEnv,
  onWarning: (message: string) => void,
  secrets?: SecretRedactor,
): Promise<McpServers | undefined> {
  const specs = await collectMcpServers({
    projectRoot: loaded.projectRoot,
    configured: loaded.config.mcp_servers,
    configSource: loaded.files.join(" or ") || "config",
    env,
    onWarning,
  });
  if (specs.length === 0) return undefined;
  // Before any server starts: its connection errors name its URL.
  if (secrets !== undefined) addMcpSecrets(secrets, specs);
  const { startMcpServers } = await import("../mcp/mcp-servers.js");
  return startMcpServers(specs, { cwd, version: pantoVersion(), onWarning });
}

function pantoVersion(): string {
  try {
    const url = new URL("../../package.json", import.meta.url);
    return (JSON.parse(readFileSync(url, "utf8")) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

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
