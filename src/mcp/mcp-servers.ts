import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "../tools/index.js";
import type { McpServerSpec } from "./collect-mcp-servers.js";
import { createMcpTool, type McpToolInfo } from "./mcp-tool.js";

/** What `/mcp` shows for one server. */
export interface McpServerStatus {
  name: string;
  /** The file that configured it. */
  source: string;
  /** "stdio: node server.js" or "http: https://..." */
  target: string;
  state: "connected" | "failed" | "exited";
  /** Why it failed or exited. */
  error?: string;
  tools: McpToolInfo[];
}

/** The running servers: their tools for the agent, their states for `/mcp`. */
export interface McpServers {
  readonly tools: Tool[];
  status(): McpServerStatus[];
  close(): Promise<void>;
}

export interface StartMcpOptions {
  cwd: string;
  version: string;
  onWarning: (message: string) => void;
  /** How long a server may take to start and list its tools. */
  startTimeoutMs?: number;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;
/** The end of a stdio server's stderr kept to explain a failure. */
const STDERR_TAIL_CHARS = 600;

/**
 * Starts (stdio) or connects to (HTTP) every server at once. One that fails is a warning and
 * the session goes on without it; one that dies later is a warning, and its tools return errors.
 */
export async function startMcpServers(
  specs: readonly McpServerSpec[],
  options: StartMcpOptions,
): Promise<McpServers> {
  const connections = await Promise.all(specs.map((spec) => connectServer(spec, options)));
  const tools = connections.flatMap((connection) =>
    connection.status.tools.map((info) => createMcpTool(info, connection)),
  );
  return {
    tools,
    status: () => connections.map((connection) => structuredClone(connection.status)),
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

/** One server: its client while connected, and its status. */
export interface McpConnection {
  readonly status: McpServerStatus;
  readonly client: Client | undefined;
  close(): Promise<void>;
}

async function connectServer(spec: McpServerSpec, options: StartMcpOptions): Promise<McpConnection> {
  const status: McpServerStatus = {
    name: spec.name,
    source: spec.source,
    target: describeTarget(spec),
    state: "failed",
    tools: [],
  };
  let stderr = "";
  let closing = false;
  const transport = createTransport(spec, options.cwd);
  if (transport instanceof StdioClientTransport)
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
  const client = new Client({ name: "panto", version: options.version });
  const explain = (message: string): string =>
    stderr.trim() === "" ? message : `${message}; its stderr ends: ${stderr.trim()}`;
  const connection: McpConnection = {
    status,
    get client() {
      return status.state === "connected" ? client : undefined;
    },
    close: async () => {
      closing = true;
      await client.close().catch(() => {});
    },
  };
  client.onclose = () => {
    if (closing || status.state !== "connected") return;
    status.state = "exited";
    status.error = explain("the server closed the connection");
    options.onWarning(`MCP server "${spec.name}" stopped (${status.error}); its tools now return errors`);
  };
  try {
    await withTimeout(client.connect(transport), options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, "start");
    status.tools = await listTools(client, spec.name);
    status.state = "connected";
  } catch (error) {
    status.error = explain(error instanceof Error ? error.message : String(error));
    options.onWarning(
      `MCP server "${spec.name}" (${status.target}) failed to start: ${status.error}; continuing without it`,
    );
    await connection.close();
  }
  return connection;
}

async function listTools(client: Client, server: string): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of page.tools)
      tools.push({
        server,
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema as Record<string, unknown>,
        readOnly: tool.annotations?.readOnlyHint === true,
      });
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function createTransport(spec: McpServerSpec, cwd: string): Transport {
  const { transport } = spec;
  if (transport.type === "stdio")
    return new StdioClientTransport({
      command: transport.command,
      args: transport.args,
      // Added to the SDK's safe default environment (PATH, HOME, ...), not the whole of panto's.
      env: transport.env,
      cwd,
      stderr: "pipe",
    });
  const requestInit = { headers: transport.headers };
  if (transport.type === "sse") return new SSEClientTransport(new URL(transport.url), { requestInit });
  return new StreamableHTTPClientTransport(new URL(transport.url), { requestInit });
}

function describeTarget(spec: McpServerSpec): string {
  const { transport } = spec;
  return transport.type === "stdio"
    ? `stdio: ${[transport.command, ...transport.args].join(" ")}`
    : `${transport.type}: ${transport.url}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`did not ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
