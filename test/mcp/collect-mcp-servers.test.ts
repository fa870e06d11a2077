// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the syntax under test, in plain strings as users write it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectMcpServers, expandVariables } from "../../src/mcp/index.js";
import { mcpToolName } from "../../src/mcp/mcp-tool.js";
import { toToolOutput } from "../../src/mcp/mcp-tool-output.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "panto-mcp-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("collectMcpServers", () => {
  it("reads .mcp.json, lets config replace a server of the same name, and expands ${VAR}", async () => {
    await writeFile(
      join(root, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          files: { command: "node", args: ["server.js", "--root=${ROOT:-/srv}"] },
          remote: { type: "http", url: "https://${HOST}/mcp", headers: { authorization: "Bearer ${TOKEN}" } },
        },
      }),
    );
    const warnings: string[] = [];
    const specs = await collectMcpServers({
      projectRoot: root,
      configured: { files: { command: "files-server", env: { LEVEL: "debug" } } },
      configSourceOf: () => "/home/me/.panto/config.json",
      env: { HOST: "mcp.example", TOKEN: "t0k" },
      onWarning: (message) => warnings.push(message),
    });
    expect(warnings).toEqual([]);
    expect(specs).toEqual([
      {
        name: "files",
        source: "/home/me/.panto/config.json",
        transport: { type: "stdio", command: "files-server", args: [], env: { LEVEL: "debug" } },
      },
      {
        name: "remote",
        source: join(root, ".mcp.json"),
        transport: { type: "http", url: "https://mcp.example/mcp", headers: { authorization: "Bearer t0k" } },
      },
    ]);
  });

  it("warns about a broken .mcp.json or entry and goes on", async () => {
    const warnings: string[] = [];
    const input = {
      projectRoot: root,
      configured: undefined,
      configSourceOf: () => "c",
      env: {},
      onWarning: (m: string) => warnings.push(m),
    };
    await writeFile(join(root, ".mcp.json"), "{ not json");
    expect(await collectMcpServers(input)).toEqual([]);
    await writeFile(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { odd: { url: "ftp://x" } } }));
    expect(await collectMcpServers(input)).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/\.mcp\.json: ignored: /),
      `${join(root, ".mcp.json")}: server "odd" skipped: needs "command" (stdio) or an http(s) "url"`,
    ]);
  });

  it("expands a default only when the variable is unset or empty", () => {
    expect(expandVariables("${A:-x}-${B:-y}-${C}", { A: "a", B: "" })).toBe("a-y-");
  });
});

describe("MCP tool names and results", () => {
  it("names tools mcp__<server>__<tool> within the characters and length providers accept", () => {
    expect(mcpToolName("everything", "echo")).toBe("mcp__everything__echo");
    expect(mcpToolName("my.server", "get value")).toBe("mcp__my_server__get_value");
    expect(mcpToolName("s", "t".repeat(100))).toHaveLength(64);
  });

  it("keeps text and images, describes other content, and reports isError", () => {
    const output = toToolOutput({
      isError: true,
      content: [
        { type: "text", text: "hi" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "body" } },
        { type: "resource_link", name: "b", uri: "file:///b" },
        { type: "audio", data: "x", mimeType: "audio/wav" },
      ],
    });
    expect(output).toEqual({
      isError: true,
      content: [
        { type: "text", text: "hi" },
        { type: "image", mediaType: "image/png", data: "AAAA" },
        { type: "text", text: "[resource file:///a.txt]\nbody" },
        { type: "text", text: "[resource link b file:///b]" },
        { type: "text", text: "[audio content audio/wav not shown]" },
      ],
    });
    expect(toToolOutput({ content: [], structuredContent: { sum: 3 } }).content).toEqual([
      { type: "text", text: '{"sum":3}' },
    ]);
  });
});
