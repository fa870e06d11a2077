export {
  collectMcpServers,
  expandVariables,
  MCP_JSON_FILE,
  type McpServerSpec,
} from "./collect-mcp-servers.js";
export type { McpServerStatus, McpServers } from "./mcp-servers.js";
export { type McpToolInfo, mcpToolName } from "./mcp-tool.js";
