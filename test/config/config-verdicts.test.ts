import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readValidConfigText } from "../../src/config/config-json.js";
import { configSchema } from "../../src/config/config-schema.js";
import { BUILD_ID, configVerdicts } from "../../src/config/config-verdicts.js";
import { loadConfig } from "../../src/config/load-config.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";
import { put, useTempDir } from "./temp-dir.js";

const FILE = "/home/me/.panto/config.json";

/** Every kind of key a config file holds, with its keys in an order the schema does not use. */
const RICH = {
  sandbox: "workspace-write",
  model: "anthropic/claude-sonnet-4-5",
  $schema: "https://example.invalid/panto.schema.json",
  providers: {
    zeta: { headers: { "x-team": "core" }, base_url: "https://proxy.example/v1", api: "openai-chat" },
    alpha: { base_url: "http://127.0.0.1:11434/v1", api_key_env: "LOCAL_KEY" },
  },
  mcp_servers: {
    files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { A: "1" } },
    remote: { url: "https://mcp.example/sse", type: "sse", headers: { "x-a": "b" } },
  },
  hooks: {
    PreToolUse: [{ hooks: [{ type: "command", command: "./check.sh", timeout: 5 }], matcher: "bash|edit" }],
  },
  permissions: { deny: ["Bash(rm:*)"], allow: ["Read", "Bash(npm test:*)"] },
  clearing: { keep_recent: 3, enabled: true, exclude_tools: ["read"] },
  prices: { "local/qwen": { output_per_mtok: 0, input_per_mtok: 0 } },
  models: { "local/qwen": { images: false, context_window: 32768 } },
  timeouts: { idle_ms: 60000, first_byte_ms: 10000 },
  context_warnings: [0.7, 0.9],
  prepare_compaction_at: 0.8,
  bash_env_passthrough: ["GITHUB_TOKEN"],
  web_fetch: { allow_private: false },
  checkpoints: true,
};

/** The kinds of zod schema a config schema is made of, found by walking its definitions. */
function schemaKinds(schema: unknown, kinds = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (schema === null || typeof schema !== "object" || seen.has(schema)) return kinds;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  if (def === undefined) return kinds;
  kinds.add(String(def.type));
  for (const value of Object.values(def)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child !== null && typeof child === "object" && !("_zod" in child) && def.type === "object")
        for (const field of Object.values(child)) schemaKinds(field, kinds, seen);
      else schemaKinds(child, kinds, seen);
    }
  }
  return kinds;
}

describe("reading a config text found valid before, without the schema", () => {
  it("the schema has no defaults, transforms or pipes: a valid file's settings are its own JSON", () => {
    const kinds = schemaKinds(configSchema);
    // The walk reached the nested schemas, so a default added anywhere would be seen.
    for (const kind of [
      "object",
      "record",
      "array",
      "union",
      "optional",
      "string",
      "number",
      "boolean",
      "enum",
    ])
      expect(kinds, kind).toContain(kind);
    for (const kind of ["default", "prefault", "transform", "pipe", "catch", "success", "nonoptional"])
      expect(kinds, kind).not.toContain(kind);
  });

  it("gives exactly what validation gives, key order included", () => {
    const texts = [
      JSON.stringify(RICH, null, 2),
      "{}",
      '\uFEFF{"$schema": "x", "model": "a/b"}',
      '{"sandbox": {"network": true, "mode": "read-only"}}',
    ];
    for (const text of texts) {
      const validated = parseConfigText(text, FILE);
      expect(JSON.stringify(readValidConfigText(text))).toBe(JSON.stringify(validated));
    }
    // The file's key order, not the schema's: the same object whichever way it was read.
    expect(Object.keys(parseConfigText(JSON.stringify(RICH), FILE)).slice(0, 3)).toEqual([
      "sandbox",
      "model",
      "providers",
    ]);
    expect(parseConfigText(JSON.stringify(RICH), FILE).sandbox).toEqual({ mode: "workspace-write" });
  });

  it("matches validation for any subset of the settings in any order", () => {
    const entries = Object.entries(RICH);
    fc.assert(
      fc.property(fc.shuffledSubarray(entries), (picked) => {
        const text = JSON.stringify(Object.fromEntries(picked));
        expect(JSON.stringify(readValidConfigText(text))).toBe(JSON.stringify(parseConfigText(text, FILE)));
      }),
    );
  });
});

describe("config verdicts", () => {
  const temp = useTempDir();

  it("are kept only by a bundle: tsc's output has no build id", () => {
    expect(BUILD_ID).toBeUndefined();
    expect(configVerdicts(temp())).toBeUndefined();
  });

  it("know a text once it is remembered, and no other text nor another build's", async () => {
    const home = temp();
    const verdicts = configVerdicts(home, "build-a");
    if (verdicts === undefined) throw new Error("expected verdicts");
    expect(await verdicts.valid('{"model": "a/b"}')).toBe(false);
    await verdicts.remember('{"model": "a/b"}');
    expect(await verdicts.valid('{"model": "a/b"}')).toBe(true);
    expect(await verdicts.valid('{"model": "a/c"}')).toBe(false);
    expect(await verdicts.valid('{"model": "a/b"} ')).toBe(false);
    expect(await configVerdicts(home, "build-b")?.valid('{"model": "a/b"}')).toBe(false);
    // One empty file, private, named by a hash: nothing of the text is written.
    const folder = path.join(home, "cache", "valid-configs");
    const [name, ...others] = await readdir(folder);
    expect(others).toEqual([]);
    expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(await readFile(path.join(folder, String(name)), "utf8")).toBe("");
    expect((await stat(path.join(folder, String(name)))).mode & 0o777).toBe(0o600);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });

  it("never make a missing panto home, and a folder that cannot be written costs only the speed-up", async () => {
    const missing = path.join(temp(), "no-home");
    const verdicts = configVerdicts(missing, "build-a");
    await verdicts?.remember("{}");
    expect(existsSync(missing)).toBe(false);
    expect(await verdicts?.valid("{}")).toBe(false);
    const home = temp();
    // A file where the cache folder would go: remembering fails quietly.
    await writeFile(path.join(home, "cache"), "not a folder");
    const blocked = configVerdicts(home, "build-a");
    await expect(blocked?.remember("{}")).resolves.toBeUndefined();
    expect(await blocked?.valid("{}")).toBe(false);
  });

  it("keep the 32 newest", async () => {
    const home = temp();
    const verdicts = configVerdicts(home, "build-a");
    if (verdicts === undefined) throw new Error("expected verdicts");
    const folder = path.join(home, "cache", "valid-configs");
    const text = (index: number) => `{"max_output_tokens": ${index + 1}}`;
    const start = Date.now() - 3_600_000;
    for (let index = 0; index < 32; index++) {
      await verdicts.remember(text(index));
      // Each entry a minute younger than the one before: the entry just written is the newest.
      const aged = await Promise.all(
        (await readdir(folder)).map(async (name) => ({
          name,
          at: (await stat(path.join(folder, name))).mtimeMs,
        })),
      );
      const newest = aged.reduce((a, b) => (b.at > a.at ? b : a));
      const at = new Date(start + index * 60_000);
      await utimes(path.join(folder, newest.name), at, at);
    }
    expect(await readdir(folder)).toHaveLength(32);
    await verdicts.remember(text(32));
    expect(await readdir(folder)).toHaveLength(32);
    expect(await verdicts.valid(text(0))).toBe(false);
    expect(await verdicts.valid(text(1))).toBe(true);
    expect(await verdicts.valid(text(32))).toBe(true);
  });
});

describe("loadConfig with verdicts", () => {
  const temp = useTempDir();

  it("keeps no verdicts as a library, and refuses an invalid file whatever was read before", async () => {
    const home = path.join(temp(), "home");
    const project = path.join(temp(), "project");
    await mkdir(path.join(project, ".git"), { recursive: true });
    await mkdir(home, { recursive: true });
    const file = path.join(project, ".panto", "config.json");
    await put(file, JSON.stringify(RICH));
    const env = { PANTO_HOME: home };
    const first = await loadConfig({ cwd: project, env });
    expect(first.config.model).toBe("anthropic/claude-sonnet-4-5");
    // The library (tsc's output) keeps no verdicts: nothing was written beside the sessions.
    expect(existsSync(path.join(home, "cache"))).toBe(false);
    // An invalid file is refused on every run, whatever was read before.
    await put(file, '{"modle": "a/b"}');
    await expect(loadConfig({ cwd: project, env })).rejects.toThrow(/unknown key "modle"/);
  });
});
