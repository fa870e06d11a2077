import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const TRACE_IMPORTS = fileURLToPath(new URL("../cli/fixtures/trace-imports.mjs", import.meta.url));

/** Runs an ES module snippet in a fresh node process inside the package, so `import "panto"` resolves to the build. */
function runModule(source: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: root,
    encoding: "utf8",
  });
}

describe("the package entry", () => {
  it("exports classifyProviderError by package name, taking a status (or null) and a body", () => {
    const output = runModule(`
      import { classifyProviderError } from "panto";
      const results = [
        classifyProviderError({ status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}' }),
        classifyProviderError({ status: null, body: "This model's maximum prompt length is 131072 but the request contains 136973 tokens." }),
        classifyProviderError({ body: "Too many tokens, please wait before trying again.", provider: "bedrock" }),
        classifyProviderError({ status: 529, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }),
      ];
      console.log(JSON.stringify(results));
    `);
    expect(JSON.parse(output)).toEqual([
      { code: "context_overflow", retryable: false, requestTokens: 219898, contextWindow: 200000 },
      { code: "context_overflow", retryable: false, requestTokens: 136973, contextWindow: 131072 },
      { code: "rate_limit", retryable: true },
      { code: "overloaded", retryable: true },
    ]);
  });

  it("loads no vendor SDK when imported", () => {
    const result = spawnSync(
      process.execPath,
      [
        "--import",
        TRACE_IMPORTS,
        "--input-type=module",
        "-e",
        'await import("panto"); console.log("loaded")',
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(result.stdout.trim()).toBe("loaded");
    const imports = result.stderr.split("\n").filter((line) => line.startsWith("IMPORT "));
    // The tracer works: the package's own modules show up.
    expect(imports.some((line) => line.includes("/dist/index.js"))).toBe(true);
    expect(
      imports.filter((line) => /@anthropic-ai|node_modules\/openai\/|@google\/genai/.test(line)),
    ).toEqual([]);
  });

  it("ships the events schema at panto/schema/events.json and holds a session through createPanto, built", () => {
    const output = runModule(`
      import { mkdtempSync, mkdirSync } from "node:fs";
      import { createRequire } from "node:module";
      import { tmpdir } from "node:os";
      import { join } from "node:path";
      import { createPanto } from "panto";
      import { startFakeAnthropicServer } from "panto/simulator";
      const schema = createRequire(import.meta.url)("panto/schema/events.json");
      const root = mkdtempSync(join(tmpdir(), "panto-entry-"));
      mkdirSync(join(root, "project", ".git"), { recursive: true });
      const server = await startFakeAnthropicServer();
      server.enqueue({ type: "text", text: "Hello from a program." });
      const panto = await createPanto({
        cwd: join(root, "project"),
        model: "anthropic/claude-sonnet-4-5",
        env: { PATH: process.env.PATH, PANTO_HOME: join(root, "home"), HOME: root, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
      });
      const session = await panto.startSession();
      const result = await session.run("hi");
      await session.close();
      await server.close();
      console.log(JSON.stringify({ oneOf: schema.oneOf.length, text: result.text, ok: result.ok, same: result.sessionId === session.id }));
    `);
    expect(JSON.parse(output)).toEqual({
      oneOf: expect.any(Number),
      text: "Hello from a program.",
      ok: true,
      same: true,
    });
    expect(JSON.parse(output).oneOf).toBeGreaterThan(30);
  });

  it("exposes the fake provider servers at panto/simulator", () => {
    const output = runModule(`
      import * as simulator from "panto/simulator";
      console.log(Object.keys(simulator).filter((k) => k.startsWith("startFake")).sort().join(","));
    `);
    expect(output.trim()).toBe(
      "startFakeAnthropicServer,startFakeGeminiServer,startFakeOpenAIChatServer,startFakeOpenAIResponsesServer",
    );
  });
});

describe("what the package ships", () => {
  it("leaves the benchmarks out and keeps the CLI, the entry and the exported simulator", () => {
    const packed = execFileSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files = (JSON.parse(packed) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map(
      (file) => file.path,
    );
    expect(files?.filter((path) => path.startsWith("dist/bench/"))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(["dist/bin/panto.cjs", "dist/index.js", "dist/simulator/index.js", "README.md"]),
    );
  }, 60_000);
});
