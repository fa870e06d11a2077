import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Where a server is reached: a command panto starts (stdio), or a URL. */
export type McpTransportSpec =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string> }
  | { type: "http" | "sse"; url: string; headers: Record<string, string> };

/** One configured MCP server and the file that defined it (for messages). */
export interface McpServerSpec {
  name: string;
  source: string;
  transport: McpTransportSpec;
}

/** The project file other agents (Claude Code among them) read MCP servers from. */
export const MCP_JSON_FILE = ".mcp.json";

type RawServer = Record<string, unknown>;

/**
 * The servers of `<projectRoot>/.mcp.json` (`{"mcpServers": {...}}`), then those of panto's config
 * (`mcp_servers`), a config entry replacing a `.mcp.json` entry of the same name. `${VAR}` and
 * `${VAR:-default}` in commands, arguments, env values, URLs and headers are expanded from `env`,
 * as other agents do. Problems in `.mcp.json` are warnings: it is another tool's file too, and a
 * broken one must not stop panto.
 */
export async function collectMcpServers(input: {
  projectRoot: string;
  configured: Record<string, RawServer> | undefined;
  /** The config file that defined a server of `configured`. */
  configSourceOf: (name: string) => string;
  env: NodeJS.ProcessEnv;
  onWarning: (message: string) => void;
}): Promise<McpServerSpec[]> {
  const path = join(input.projectRoot, MCP_JSON_FILE);
  const byName = new Map<string, McpServerSpec>();
  for (const [name, raw] of Object.entries(await readMcpJson(path, input.onWarning))) {
    const spec = toSpec(name, raw, path, input.env);
    if (typeof spec === "string") input.onWarning(`${path}: server "${name}" skipped: ${spec}`);
    else byName.set(name, spec);
  }
  for (const [name, raw] of Object.entries(input.configured ?? {})) {
    const spec = toSpec(name, raw, input.configSourceOf(name), input.env);
    // The config schema already checked these entries; a string here cannot happen.
    if (typeof spec !== "string") byName.set(name, spec);
  }
  return [...byName.values()];
}

async function readMcpJson(
  path: string,
  onWarning: (message: string) => void,
): Promise<Record<string, RawServer>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") onWarning(`${path}: not readable, ignored`);
    return {};
  }
  try {
    const value = JSON.parse(text) as { mcpServers?: unknown };
    const servers = value?.mcpServers;
    if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers)))
      throw new Error('"mcpServers" is not an object');
    return (servers ?? {}) as Record<string, RawServer>;
  } catch (error) {
    onWarning(`${path}: ignored: ${error instanceof Error ? error.message : String(error)}`);
    return {};
  }
}

/** The spec for one entry, or what is wrong with it. */
function toSpec(
  name: string,
  raw: RawServer,
  source: string,
  env: NodeJS.ProcessEnv,
): McpServerSpec | string {
  if (typeof raw !== "object" || raw === null) return "not an object";
  const expand = (text: string): string => expandVariables(text, env);
  if (typeof raw.command === "string" && raw.command !== "") {
    const args = Array.isArray(raw.args)
      ? raw.args.filter((arg): arg is string => typeof arg === "string")
      : [];
    return {
      name,
      source,
      transport: {
        type: "stdio",
        command: expand(raw.command),
        args: args.map(expand),
        env: stringMap(raw.env, expand),
      },
    };
  }
  if (typeof raw.url === "string" && /^https?:\/\//.test(raw.url)) {
    const type = raw.type === "sse" ? "sse" : "http";
    return {
      name,
      source,
      transport: { type, url: expand(raw.url), headers: stringMap(raw.headers, expand) },
    };
  }
  return 'needs "command" (stdio) or an http(s) "url"';
}

function stringMap(value: unknown, expand: (text: string) => string): Record<string, string> {
  if (typeof value !== "object" || value === null) return {};
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  return Object.fromEntries(entries.map(([key, text]) => [key, expand(text)]));
}

/** `${NAME}` and `${NAME:-default}`; an unset variable without a default becomes "". */
export function expandVariables(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, variable: string, fallback?: string) => {
      const value = env[variable];
      return value !== undefined && value !== "" ? value : (fallback ?? "");
    },
  );
}
