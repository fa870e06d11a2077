import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { cliEnv, tempProject } from "../e2e/run-cli.js";
import { bundledModules, packageOf } from "./bundled-modules.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "dist", "bin", "panto.cjs");
const TRACE_IMPORTS = fileURLToPath(new URL("../cli/fixtures/trace-imports.mjs", import.meta.url));
/** The committed list: every source module `panto -p hi` loads, and each bundled package once. */
const LIST = fileURLToPath(new URL("./print-run-modules.txt", import.meta.url));
const UPDATE = "UPDATE_PRINT_RUN_MODULES=1 npx vitest run test/package/print-run-modules.test.ts";

/**
 * Runs the installed command (the bundle) for `-p hi` against a fake server with an import trace,
 * and names what it loaded: the source modules inside the loaded chunks (as dist/bin/modules.json
 * lists them) and the npm packages (`node_modules/NAME`, one entry per package, so an upgrade of a
 * package that is loaded anyway changes nothing here).
 */
function loadedModules(
  env: NodeJS.ProcessEnv,
  cwd: string,
  model = "anthropic/claude-sonnet-4-5",
): Promise<{ status: number | null; modules: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TRACE_IMPORTS, BIN, "-m", model, "-p", "hi"], {
      cwd,
      env,
    });
    let traced = "";
    child.stderr.on("data", (chunk: Buffer) => {
      traced += chunk.toString();
    });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", (status) => {
      const files = new Set(
        traced
          .split("\n")
          .filter((line) => line.startsWith("IMPORT file://"))
          .map((line) => fileURLToPath(line.slice("IMPORT ".length)))
          .filter((file) => file.startsWith(join(root, "dist", "bin"))),
      );
      const modules = new Set(bundledModules(files).map((module) => packageOf(module) ?? module));
      const stderr = traced
        .split("\n")
        .filter((line) => !line.startsWith("IMPORT "))
        .join("\n");
      resolve({ status, modules: [...modules].sort(), stderr });
    });
    child.stdin.end();
  });
}

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(() => server.close());

describe("what panto -p hi loads", { timeout: 60_000 }, () => {
  it("is exactly the committed list: each feature's code (checkpoints, recall, subagents, the sandbox's start check, zod) loads when first needed", async () => {
    server.enqueue({ type: "text", text: "hello" });
    const { home, project } = await tempProject();
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
    const run = await loadedModules(env, project);
    expect(run.status, run.stderr).toBe(0);
    if (process.env.UPDATE_PRINT_RUN_MODULES === "1") writeFileSync(LIST, `${run.modules.join("\n")}\n`);
    const expected = readFileSync(LIST, "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"));
    const added = run.modules.filter((module) => !expected.includes(module));
    const gone = expected.filter((module) => !run.modules.includes(module));
    expect(
      added,
      `panto -p hi now loads modules not in test/package/print-run-modules.txt: ${added.join(", ")}. ` +
        "A static import brought them onto the start-up path: import them with `await import()` where " +
        `they are first needed. If the run truly needs them, add them to the list deliberately (${UPDATE}).`,
    ).toEqual([]);
    expect(
      gone,
      `panto -p hi no longer loads ${gone.join(", ")}: take them off test/package/print-run-modules.txt (${UPDATE}).`,
    ).toEqual([]);
  });

  it("with a config file, validates it with zod once; later runs of the same text load no zod, a changed text is checked again", async () => {
    const { home, project } = await tempProject();
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
    const file = join(project, ".panto", "config.json");
    mkdirSync(join(project, ".panto"), { recursive: true });
    writeFileSync(file, JSON.stringify({ max_output_tokens: 1234, clearing: { keep_recent: 4 } }));
    server.enqueue({ type: "text", text: "hello" });
    const first = await loadedModules(env, project);
    expect(first.status, first.stderr).toBe(0);
    expect(first.modules).toContain("node_modules/zod");
    // One verdict: an empty file named by a hash of this build and the text.
    const verdicts = join(home, "cache", "valid-configs");
    expect(readdirSync(verdicts)).toHaveLength(1);
    server.enqueue({ type: "text", text: "hello" });
    const second = await loadedModules(env, project);
    expect(second.status, second.stderr).toBe(0);
    expect(second.modules).not.toContain("node_modules/zod");
    // Read without the schema, the settings still hold.
    const body = server.requests.at(-1)?.body as { max_tokens?: number };
    expect(body.max_tokens).toBe(1234);
    // A changed text is validated again: an invalid one is refused as always.
    writeFileSync(file, JSON.stringify({ clearing: { keep_recent: 4 }, modle: "a/b" }));
    const refused = await loadedModules(env, project);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${file}: unknown key "modle"`);
    expect(refused.modules).toContain("node_modules/zod");
    expect(readdirSync(verdicts)).toHaveLength(1);
  });

  it("on the OpenAI wires (Chat Completions, Responses), posts without loading the OpenAI SDK", async () => {
    const chat = await startFakeOpenAIChatServer();
    const responses = await startFakeOpenAIResponsesServer();
    try {
      const { home, project } = await tempProject();
      const env = cliEnv(home, {
        LLAMACPP_BASE_URL: chat.url,
        OPENAI_API_KEY: "test-key",
        OPENAI_BASE_URL: responses.url,
      });
      for (const [model, server] of [
        ["llamacpp/qwen3-coder", chat],
        ["openai/gpt-5", responses],
      ] as const) {
        server.enqueue({ type: "text", text: "hello" });
        const run = await loadedModules(env, project, model);
        expect(run.status, run.stderr).toBe(0);
        expect(server.requests).toHaveLength(1);
        expect(run.modules.filter((module) => module.startsWith("node_modules/"))).toEqual([]);
      }
    } finally {
      await chat.close();
      await responses.close();
    }
  });

  it("on the Gemini wire, posts without loading the Gemini SDK: a -p run loads no npm package", async () => {
    const server = await startFakeGeminiServer();
    try {
      const { home, project } = await tempProject();
      const env = cliEnv(home, { GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.url });
      server.enqueue({ type: "text", text: "hello" });
      const run = await loadedModules(env, project, "google/gemini-2.5-pro");
      expect(run.status, run.stderr).toBe(0);
      expect(server.requests.map((request) => request.path)).toEqual([
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      ]);
      expect(run.modules.filter((module) => module.startsWith("node_modules/"))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
