import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/index.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";

const FILE = "/home/me/.panto/config.json";

function errorOf(text: string): ConfigError {
  try {
    parseConfigText(text, FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfigText", () => {
  it("returns every known key as given", () => {
    const text = JSON.stringify({
      model: "anthropic/claude-sonnet-4-5",
      compaction_model: "openrouter/google/gemini-2.5-flash",
      keep_verbatim_tokens: 0,
      max_output_tokens: 8192,
      providers: {
        local: { api: "openai-chat", base_url: "http://127.0.0.1:11434/v1", api_key_env: "LOCAL_KEY" },
        proxy: { base_url: "https://proxy.example/v1", headers: { "x-team": "core" } },
      },
    });
    expect(parseConfigText(text, FILE)).toEqual(JSON.parse(text));
  });

  it("accepts an empty object, a BOM and an editor $schema key, which it drops", () => {
    expect(parseConfigText("{}", FILE)).toEqual({});
    expect(parseConfigText('\uFEFF{"$schema": "https://example/panto.json", "model": "a/b"}', FILE)).toEqual({
      model: "a/b",
    });
  });

  it("rejects an unknown key, naming the file and listing the allowed keys", () => {
    const error = errorOf('{"modle": "openai/gpt-5"}');
    expect(error.message).toBe(
      `${FILE}: unknown key "modle" (allowed: model, compaction_model, keep_verbatim_tokens, max_output_tokens, restore_facts, prepare_compaction_at, compact_when_cold, context_warnings, checkpoints, checkpoint_max_file_bytes, providers, mcp_servers, bash_env_passthrough, timeouts, tool_deadline_ms, max_parallel_tasks, hooks, permissions, allowed_mcp_servers, prices, models, sandbox, clearing, web_fetch)`,
    );
    expect(error.file).toBe(FILE);
    expect(error.key).toBe("modle");
  });

  it("names the rule for a bad context_warnings entry: a fraction, not a percentage", () => {
    const error = errorOf('{"context_warnings": [0.7, 85]}');
    expect(error.key).toBe("context_warnings.1");
    expect(error.message).toContain(`${FILE}: "context_warnings.1"`);
    expect(error.message).toContain("must be a fraction between 0 and 1, e.g. 0.85");
    expect(error.message).toContain("85");
  });

  it("rejects an unknown key inside a provider with its full key path", () => {
    const error = errorOf('{"providers": {"local": {"base_url": "http://x", "baseurl": "http://x"}}}');
    expect(error.message).toBe(
      `${FILE}: unknown key "providers.local.baseurl" (allowed: api, base_url, api_key_env, headers)`,
    );
    expect(error.key).toBe("providers.local.baseurl");
  });

  it("accepts bash_env_passthrough and timeouts, and names their bad values and keys", () => {
    const text = JSON.stringify({
      bash_env_passthrough: ["GITHUB_TOKEN", "NPM_TOKEN"],
      timeouts: { first_byte_ms: 10000, idle_ms: 60000, request_ms: 300000 },
    });
    expect(parseConfigText(text, FILE)).toEqual(JSON.parse(text));
    expect(errorOf('{"bash_env_passthrough": ["OK", "NOT OK"]}').message).toBe(
      `${FILE}: "bash_env_passthrough.1" must be the name of an environment variable, e.g. GITHUB_TOKEN (got "NOT OK")`,
    );
    expect(errorOf('{"bash_env_passthrough": "GITHUB_TOKEN"}').message).toContain(
      '"bash_env_passthrough" must be an array of environment variable names',
    );
    expect(errorOf('{"timeouts": {"idle_ms": 0}}').message).toBe(
      `${FILE}: "timeouts.idle_ms" must be a positive integer (milliseconds) (got 0)`,
    );
    expect(errorOf('{"timeouts": {"first_byte": 5}}').message).toBe(
      `${FILE}: unknown key "timeouts.first_byte" (allowed: first_byte_ms, idle_ms, request_ms)`,
    );
  });

  it("rejects a string budget", () => {
    const error = errorOf('{"keep_verbatim_tokens": "abc"}');
    expect(error.message).toBe(`${FILE}: "keep_verbatim_tokens" must be a non-negative integer (got "abc")`);
    expect(error.key).toBe("keep_verbatim_tokens");
  });

  it("rejects a negative budget and a non-integer budget", () => {
    expect(errorOf('{"keep_verbatim_tokens": -1}').message).toBe(
      `${FILE}: "keep_verbatim_tokens" must be a non-negative integer (got -1)`,
    );
    expect(errorOf('{"keep_verbatim_tokens": 12.5}').message).toBe(
      `${FILE}: "keep_verbatim_tokens" must be a non-negative integer (got 12.5)`,
    );
  });

  it("rejects a zero or fractional max_output_tokens", () => {
    expect(errorOf('{"max_output_tokens": 0}').message).toContain(
      '"max_output_tokens" must be a positive integer',
    );
    expect(errorOf('{"max_output_tokens": 1.5}').key).toBe("max_output_tokens");
  });

  it("requires model ids in provider/model form", () => {
    const error = errorOf('{"compaction_model": "gpt-5-mini"}');
    expect(error.message).toContain('"compaction_model" must be a "provider/model" string');
    expect(error.message).toContain('(got "gpt-5-mini")');
  });

  it("names nested provider keys: missing base_url, bad api, bad URL, non-string header", () => {
    expect(errorOf('{"providers": {"local": {}}}').message).toBe(
      `${FILE}: "providers.local.base_url" is required`,
    );
    const error = errorOf(
      JSON.stringify({
        providers: { p: { base_url: "localhost:8080", api: "openai", headers: { "x-id": 7 } } },
      }),
    );
    expect(error.message.split("\n")).toEqual([
      `${FILE}: "providers.p.api" must be one of "openai-chat", "openai-responses", "anthropic-messages", "google-gemini" (got "openai")`,
      `${FILE}: "providers.p.base_url" must be an http:// or https:// URL (got "localhost:8080")`,
      `${FILE}: "providers.p.headers.x-id" must be a string (got 7)`,
    ]);
    expect(error.key).toBe("providers.p.api");
  });

  it("accepts stdio and HTTP MCP servers, and names a malformed one with the shape it must have", () => {
    const servers = {
      fs: { command: "npx", args: ["-y", "server"], env: { ROOT: "/tmp" } },
      remote: { type: "http", url: "https://mcp.example/v1", headers: { authorization: "Bearer abc" } },
    };
    expect(parseConfigText(JSON.stringify({ mcp_servers: servers }), FILE)).toEqual({ mcp_servers: servers });
    const error = errorOf(JSON.stringify({ mcp_servers: { broken: { cmd: "x" } } }));
    expect(error.message).toBe(
      `${FILE}: "mcp_servers.broken" must be {"command": "...", "args": ["..."], "env": {...}} (stdio) or {"url": "https://...", "headers": {...}} (HTTP) (got an object)`,
    );
  });

  it("rejects a provider name containing a slash", () => {
    expect(errorOf('{"providers": {"my/llm": {"base_url": "http://x"}}}').message).toBe(
      `${FILE}: provider name "my/llm" in "providers" must not contain "/" or spaces`,
    );
  });

  it("lists every problem, one per line", () => {
    const error = errorOf('{"model": 5, "keep_verbatim_tokens": "lots", "extra": true}');
    expect(error.message.split("\n")).toHaveLength(3);
    for (const line of error.message.split("\n")) expect(line.startsWith(`${FILE}: `)).toBe(true);
  });

  it("rejects a top level that is not an object", () => {
    expect(errorOf("[1, 2]").message).toBe(`${FILE}: the file must be a JSON object (got an array)`);
    expect(errorOf("null").message).toBe(`${FILE}: the file must be a JSON object (got null)`);
  });

  it("gives line:column for invalid JSON", () => {
    const trailing = errorOf('{\n  "model": "a/b",\n}');
    expect(trailing.message).toBe(`${FILE}:2:17: invalid JSON: trailing comma`);
    expect(trailing.file).toBe(FILE);
    expect(errorOf('{\n  "model": "a/b" // mine\n}').message).toBe(
      `${FILE}:2:18: invalid JSON: comments are not allowed in JSON`,
    );
    expect(errorOf('{"model" "a/b"}').message).toBe(
      `${FILE}:1:10: invalid JSON: unexpected "\\""; expected ':' after the property name`,
    );
    expect(errorOf('{"model": "a/b"').message).toBe(
      `${FILE}:1:16: invalid JSON: unexpected end of input; expected ',' or '}' after a property`,
    );
    expect(errorOf('{"model": "a/b"} {}').message).toBe(
      `${FILE}:1:18: invalid JSON: unexpected content after the JSON value`,
    );
  });

  it("calls an empty file what it is", () => {
    expect(errorOf("  \n").message).toContain(`${FILE}: file is empty`);
  });

  it("accepts hooks in Claude Code's shape and prices per model", () => {
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "bash|write", hooks: [{ type: "command", command: "./check.sh", timeout: 2.5 }] },
        ],
        Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
      },
      prices: {
        "anthropic/claude-sonnet-4-5": { input_per_mtok: 3, output_per_mtok: 15, cache_read_per_mtok: 0.3 },
      },
    });
    expect(parseConfigText(text, FILE)).toEqual(JSON.parse(text));
  });

  it("names the hook key at fault: a command without text, a timeout that is not positive, a bad type", () => {
    const error = errorOf(
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              hooks: [
                { type: "command", command: "", timeout: 0 },
                { type: "http", command: "x" },
              ],
            },
          ],
        },
      }),
    );
    expect(error.message.split("\n")).toEqual([
      `${FILE}: "hooks.PostToolUse.0.hooks.0.command" must be a non-empty string (run with /bin/bash -c) (got "")`,
      `${FILE}: "hooks.PostToolUse.0.hooks.0.timeout" must be a positive number of seconds (got 0)`,
      `${FILE}: "hooks.PostToolUse.0.hooks.1.type" must be "command" (got "http")`,
    ]);
  });

  it("names the price key at fault, and a model id that is not provider/model", () => {
    const bad = errorOf(
      JSON.stringify({ prices: { "openai/gpt-5": { input_per_mtok: -1, output_per_mtok: 10 } } }),
    );
    expect(bad.message).toBe(
      `${FILE}: "prices.openai/gpt-5.input_per_mtok" must be a non-negative number (price per million input tokens) (got -1)`,
    );
    const unknown = errorOf(
      JSON.stringify({ prices: { "openai/gpt-5": { input: 1, output_per_mtok: 10, input_per_mtok: 1 } } }),
    );
    expect(unknown.message).toContain(
      'unknown key "prices.openai/gpt-5.input" (allowed: input_per_mtok, output_per_mtok, cache_read_per_mtok, cache_write_per_mtok, cache_write_1h_per_mtok)',
    );
    expect(
      errorOf(JSON.stringify({ prices: { gpt5: { input_per_mtok: 1, output_per_mtok: 1 } } })).message,
    ).toContain('model "gpt5" in "prices" must be a "provider/model" id');
  });

  it("accepts a context window per model and names a bad one by file and key", () => {
    expect(
      parseConfigText(JSON.stringify({ models: { "ollama/qwen3-coder": { context_window: 65536 } } }), FILE),
    ).toEqual({ models: { "ollama/qwen3-coder": { context_window: 65536 } } });
    expect(
      errorOf(JSON.stringify({ models: { "ollama/qwen3-coder": { context_window: "64k" } } })).message,
    ).toBe(
      `${FILE}: "models.ollama/qwen3-coder.context_window" must be a positive integer (the model's context window in tokens; shown, never used to decide when to compact) (got "64k")`,
    );
    expect(errorOf(JSON.stringify({ models: { "openai/gpt-5": { context_window: 0 } } })).message).toContain(
      '"models.openai/gpt-5.context_window" must be a positive integer',
    );
    expect(errorOf(JSON.stringify({ models: { "openai/gpt-5": { window: 1000 } } })).message).toBe(
      `${FILE}: unknown key "models.openai/gpt-5.window" (allowed: context_window, images)`,
    );
    expect(errorOf(JSON.stringify({ models: { qwen: { context_window: 1000 } } })).message).toContain(
      'model "qwen" in "models" must be a "provider/model" id',
    );
    expect(errorOf(JSON.stringify({ models: [] })).message).toContain('"models" must be an object mapping');
  });

  it("accepts web_fetch.allow_private and names a bad value or an unknown key inside web_fetch", () => {
    expect(parseConfigText(JSON.stringify({ web_fetch: { allow_private: true } }), FILE)).toEqual({
      web_fetch: { allow_private: true },
    });
    expect(errorOf(JSON.stringify({ web_fetch: { allow_private: "yes" } })).message).toBe(
      `${FILE}: "web_fetch.allow_private" must be true or false (true lets web_fetch reach loopback, link-local and private network addresses) (got "yes")`,
    );
    expect(errorOf(JSON.stringify({ web_fetch: { allow_privat: true } })).message).toBe(
      `${FILE}: unknown key "web_fetch.allow_privat" (allowed: allow_private)`,
    );
    expect(errorOf(JSON.stringify({ web_fetch: true })).message).toContain(
      '"web_fetch" must be an object such as {"allow_private": true}',
    );
  });

  it("quotes keys with their line breaks and escapes written out, one problem a line (fuzz find)", () => {
    const error = errorOf(
      JSON.stringify({
        prices: { "open\nai/\u001b[2Jgpt": { input_per_mtok: 1, output_per_mtok: 1 } },
        "x\u009b": 1,
      }),
    );
    for (const line of error.message.split("\n")) expect(line.startsWith(`${FILE}: `)).toBe(true);
    expect(error.message).toContain('model "open\\nai/\\u001b[2Jgpt" in "prices"');
    expect(error.message).toContain('unknown key "x\\u009b"');
  });

  it("reports text nested too deep for the checker as a config error, not a stack overflow (fuzz find)", () => {
    const error = errorOf("[".repeat(100_000));
    expect(error.message).toBe(`${FILE}:1:513: invalid JSON: nested more than 512 levels deep`);
  });
});
