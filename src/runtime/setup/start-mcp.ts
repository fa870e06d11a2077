import type { LoadedConfig } from "../../config/index.js";
import { collectMcpServers, type McpServers } from "../../mcp/index.js";
import type { SecretRedactor } from "../../secrets/index.js";
import { addMcpSecrets } from "./known-secrets.js";

/**
 * Starts the MCP servers of the project's `.mcp.json` and of `mcp_servers` in config. With none
 * configured, nothing of MCP is loaded: the SDK is imported only here, and only when needed. The
 * secrets in their settings are registered with `secrets` first (see `addMcpSecrets`).
 */
export async function startMcp(
  loaded: LoadedConfig,
  where: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    version: string;
    onWarning: (message: string) => void;
    secrets?: SecretRedactor;
  },
): Promise<McpServers | undefined> {
  const { cwd, env, version, onWarning } = where;
  const specs = await collectMcpServers({
    projectRoot: loaded.projectRoot,
    configured: loaded.config.mcp_servers,
    configSource: loaded.files.join(" or ") || "config",
    env,
    onWarning,
  });
  if (specs.length === 0) return undefined;
  // Before any server starts: its connection errors name its URL.
  if (where.secrets !== undefined) addMcpSecrets(where.secrets, specs);
  const { startMcpServers } = await import("../../mcp/mcp-servers.js");
  return startMcpServers(specs, { cwd, version, onWarning });
}
