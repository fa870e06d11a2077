import type { LoadedConfig } from "../../config/index.js";
import { collectMcpServers } from "../../mcp/collect-mcp-servers.js";
import type { McpServerSpec, McpServers } from "../../mcp/index.js";
import type { SecretRedactor } from "../../secrets/index.js";
import { addMcpSecrets } from "./known-secrets.js";

/**
 * The servers config "allowed_mcp_servers" lets start (all without the key); each one left out is
 * a warning naming the file that set the list (the managed settings win over every other file).
 */
function allowedServers(
  specs: readonly McpServerSpec[],
  loaded: LoadedConfig,
  onWarning: (message: string) => void,
): McpServerSpec[] {
  const allowed = loaded.config.allowed_mcp_servers;
  if (allowed === undefined) return [...specs];
  const source =
    loaded.managed?.config.allowed_mcp_servers !== undefined ? loaded.managed.file : "your config";
  return specs.filter((spec) => {
    if (allowed.includes(spec.name)) return true;
    onWarning(`MCP server "${spec.name}" not started: it is not in allowed_mcp_servers (${source})`);
    return false;
  });
}

/**
 * Starts the MCP servers of the project's `.mcp.json`, of `mcp_servers` in config, and those the
 * front-end adds (`added`, which replace configured ones of the same name). With none, nothing of
 * MCP is loaded: the SDK is imported only here, and only when needed. The secrets in their
 * settings are registered with `secrets` first (see `addMcpSecrets`).
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
  added: readonly McpServerSpec[] = [],
): Promise<McpServers | undefined> {
  const { cwd, env, version, onWarning } = where;
  const specs = await collectMcpServers({
    projectRoot: loaded.projectRoot,
    configured: loaded.config.mcp_servers,
    configSourceOf: (name) => loaded.mcpServerSources?.[name] ?? "config",
    env,
    onWarning,
  });
  const names = new Set(added.map((spec) => spec.name));
  const all = allowedServers([...specs.filter((spec) => !names.has(spec.name)), ...added], loaded, onWarning);
  if (all.length === 0) return undefined;
  // Before any server starts: its connection errors name its URL.
  if (where.secrets !== undefined) addMcpSecrets(where.secrets, all);
  const { startMcpServers } = await import("../../mcp/mcp-servers.js");
  return startMcpServers(all, { cwd, version, onWarning });
}
