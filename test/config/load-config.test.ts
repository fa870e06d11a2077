import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_KEEP_VERBATIM_TOKENS,
  loadConfig,
  mergeConfigs,
  resolvePantoHome,
} from "../../src/config/index.js";
import { put, useTempDir } from "./temp-dir.js";

describe("resolvePantoHome", () => {
  it("defaults to ~/.panto", () => {
    expect(resolvePantoHome({})).toBe(path.join(os.homedir(), ".panto"));
    expect(resolvePantoHome({ PANTO_HOME: "" })).toBe(path.join(os.homedir(), ".panto"));
  });

  it("uses PANTO_HOME, made absolute and with ~ expanded", () => {
    expect(resolvePantoHome({ PANTO_HOME: "/opt/panto" })).toBe("/opt/panto");
    expect(resolvePantoHome({ PANTO_HOME: "rel/home" })).toBe(path.resolve("rel/home"));
    expect(resolvePantoHome({ PANTO_HOME: "~/cfg" })).toBe(path.join(os.homedir(), "cfg"));
  });
});

describe("mergeConfigs", () => {
  it("lets later layers win per key and merges providers per name", () => {
    const merged = mergeConfigs(
      { model: "a/one", keep_verbatim_tokens: 100, providers: { x: { base_url: "http://x" } } },
      { model: "b/two", providers: { y: { base_url: "http://y" } } },
      { providers: { x: { base_url: "http://x2", api: "openai-responses" } } },
    );
    expect(merged).toEqual({
      model: "b/two",
      keep_verbatim_tokens: 100,
      providers: { x: { base_url: "http://x2", api: "openai-responses" }, y: { base_url: "http://y" } },
    });
  });
});

describe("loadConfig", () => {
  const dir = useTempDir();
  const home = () => path.join(dir(), "home");
  const project = () => path.join(dir(), "work", "repo");

  it("is fine with no config files at all", async () => {
    await mkdir(path.join(project(), ".git"), { recursive: true });
    const loaded = await loadConfig({ cwd: project(), env: { PANTO_HOME: home() } });
    expect(loaded).toEqual({ config: {}, files: [], pantoHome: home(), projectRoot: project() });
    expect(DEFAULT_KEEP_VERBATIM_TOKENS).toBe(20000);
  });

  it("overlays project config on user config per key, merging providers per name", async () => {
    const userFile = path.join(home(), "config.json");
    const projectFile = path.join(project(), ".panto", "config.json");
    await put(
      userFile,
      JSON.stringify({
        model: "anthropic/claude-sonnet-4-5",
        compaction_model: "openai/gpt-5-mini",
        keep_verbatim_tokens: 30000,
        providers: {
          ollama: { base_url: "http://127.0.0.1:11434/v1" },
          shared: { base_url: "http://user.example/v1", api_key_env: "USER_KEY" },
        },
      }),
    );
    await put(
      projectFile,
      JSON.stringify({
        model: "ollama/qwen3",
        keep_verbatim_tokens: 5000,
        providers: {
          shared: { base_url: "http://project.example/v1" },
          vllm: { base_url: "http://gpu:8000/v1" },
        },
      }),
    );
    const loaded = await loadConfig({
      cwd: path.join(project(), "src", "deep"),
      env: { PANTO_HOME: home() },
    });
    expect(loaded.projectRoot).toBe(project());
    expect(loaded.files).toEqual([userFile, projectFile]);
    expect(loaded.config).toEqual({
      model: "ollama/qwen3",
      compaction_model: "openai/gpt-5-mini",
      keep_verbatim_tokens: 5000,
      providers: {
        ollama: { base_url: "http://127.0.0.1:11434/v1" },
        shared: { base_url: "http://project.example/v1" },
        vllm: { base_url: "http://gpu:8000/v1" },
      },
    });
  });

  it("reads only the files that exist", async () => {
    const projectFile = path.join(project(), ".panto", "config.json");
    await put(projectFile, '{"max_output_tokens": 4096}');
    const loaded = await loadConfig({ cwd: project(), env: { PANTO_HOME: home() } });
    expect(loaded.files).toEqual([projectFile]);
    expect(loaded.config).toEqual({ max_output_tokens: 4096 });
  });

  it("fails with a ConfigError naming the project file and key", async () => {
    const projectFile = path.join(project(), ".panto", "config.json");
    await put(path.join(home(), "config.json"), '{"keep_verbatim_tokens": 100}');
    await put(projectFile, '{"keep_verbatim_tokens": -100}');
    const failure = loadConfig({ cwd: project(), env: { PANTO_HOME: home() } });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toMatchObject({
      file: projectFile,
      key: "keep_verbatim_tokens",
      message: `${projectFile}: "keep_verbatim_tokens" must be a non-negative integer (got -100)`,
    });
  });

  it("fails clearly when a config path exists but cannot be read", async () => {
    const userFile = path.join(home(), "config.json");
    await mkdir(userFile, { recursive: true });
    await expect(loadConfig({ cwd: project(), env: { PANTO_HOME: home() } })).rejects.toMatchObject({
      file: userFile,
      message: `${userFile}: cannot read the config file: it is a directory (EISDIR)`,
    });
  });

  it("layers settings a program gives over the user's and the project's files, under the managed ones", async () => {
    await mkdir(path.join(project(), ".git"), { recursive: true });
    await put(path.join(home(), "config.json"), JSON.stringify({ model: "a/user", keep_verbatim_tokens: 5 }));
    await put(
      path.join(project(), ".panto", "config.json"),
      JSON.stringify({ model: "b/project", mcp_servers: { docs: { command: "docs-server" } } }),
    );
    const managed = path.join(dir(), "managed.json");
    await put(managed, JSON.stringify({ keep_verbatim_tokens: 7 }));
    const given = {
      config: {
        model: "c/program",
        keep_verbatim_tokens: 9,
        mcp_servers: { tools: { command: "tools-server" } },
        permissions: { allow: ["Bash(npm test)"] },
      },
      source: "createPanto({ config })",
    };
    const loaded = await loadConfig({
      cwd: project(),
      env: { PANTO_HOME: home(), PANTO_MANAGED_SETTINGS: managed },
      given,
    });
    expect(loaded.config.model).toBe("c/program");
    expect(loaded.config.keep_verbatim_tokens).toBe(7);
    // Only files are files; each MCP server is named by where it came from.
    expect(loaded.files).toEqual([
      path.join(home(), "config.json"),
      path.join(project(), ".panto", "config.json"),
      managed,
    ]);
    expect(loaded.mcpServerSources).toEqual({
      docs: path.join(project(), ".panto", "config.json"),
      tools: "createPanto({ config })",
    });
    expect(loaded.permissionRules).toMatchObject([
      { text: "Bash(npm test)", list: "allow", layer: "session", file: "createPanto({ config })", index: 0 },
    ]);
  });
});
