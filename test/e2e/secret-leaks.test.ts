import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import {
  startFakeAnthropicServer,
  startFakeGeminiServer,
  startFakeOpenAIChatServer,
  startFakeOpenAIResponsesServer,
} from "../../src/simulator/index.js";
import { makeSandbox, runPanto, type Sandbox } from "../cli/panto-process.js";

/**
 * A server that echoes the credentials it was sent, in an error body or an answer, must not get
 * them into anything panto writes: session files, stdout (text and --json), stderr.
 */

interface Family {
  name: string;
  model: string;
  /** Every credential this family sends, by the name panto knows it under. */
  secrets: Record<string, string>;
  start: (responder: (request: RecordedRequest) => FakeReply) => Promise<FakeServer>;
  env: (server: FakeServer) => Record<string, string>;
  config?: (server: FakeServer) => Record<string, unknown>;
}

const FAMILIES: Family[] = [
  {
    name: "anthropic",
    model: "anthropic/claude-test",
    secrets: { ANTHROPIC_API_KEY: "sk-ant-leak-3f9a1c7e5b2d" },
    start: (responder) => startFakeAnthropicServer({ responder }),
    env: (server) => ({ ANTHROPIC_API_KEY: "sk-ant-leak-3f9a1c7e5b2d", ANTHROPIC_BASE_URL: server.url }),
  },
  {
    name: "openai-responses",
    model: "openai/gpt-test",
    secrets: { OPENAI_API_KEY: "sk-openai-leak-8d2e4f6a1b3c" },
    start: (responder) => startFakeOpenAIResponsesServer({ responder }),
    env: (server) => ({ OPENAI_API_KEY: "sk-openai-leak-8d2e4f6a1b3c", OPENAI_BASE_URL: server.url }),
  },
  {
    name: "google-gemini",
    model: "google/gemini-test",
    secrets: { GEMINI_API_KEY: "AIza-gemini-leak-5c7e9a2b4d6f" },
    start: (responder) => startFakeGeminiServer({ responder }),
    env: (server) => ({ GEMINI_API_KEY: "AIza-gemini-leak-5c7e9a2b4d6f", GEMINI_BASE_URL: server.url }),
  },
  {
    name: "openai-chat (built-in groq)",
    model: "groq/llama-test",
    secrets: { GROQ_API_KEY: "gsk-groq-leak-1a3c5e7b9d2f" },
    start: (responder) => startFakeOpenAIChatServer({ responder }),
    env: (server) => ({ GROQ_API_KEY: "gsk-groq-leak-1a3c5e7b9d2f", GROQ_BASE_URL: server.url }),
  },
  {
    name: "openai-chat (config provider with a secret header)",
    model: "proxy/some-model",
    secrets: {
      PROXY_KEY: "proxy-key-leak-7b9d1f3a5c",
      "providers.proxy.headers.x-proxy-token": "proxy-header-leak-2e4a6c8b0d",
    },
    start: (responder) => startFakeOpenAIChatServer({ responder }),
    env: () => ({ PROXY_KEY: "proxy-key-leak-7b9d1f3a5c" }),
    config: (server) => ({
      providers: {
        proxy: {
          base_url: server.url,
          api_key_env: "PROXY_KEY",
          headers: { "x-proxy-token": "proxy-header-leak-2e4a6c8b0d", "x-team": "core-team" },
        },
      },
    }),
  },
];

/** Every header value the request carried, as a server that logs its input would echo them. */
function echo(request: RecordedRequest): string {
  return Object.values(request.headers)
    .flat()
    .filter((value): value is string => typeof value === "string")
    .join(" | ");
}

const errorBody = (request: RecordedRequest): string =>
  JSON.stringify({ error: { type: "invalid_request_error", message: `bad credentials: ${echo(request)}` } });

const ECHOES: Array<{ kind: string; reply: (request: RecordedRequest) => FakeReply }> = [
  { kind: "401 body", reply: (request) => ({ type: "error", status: 401, body: errorBody(request) }) },
  { kind: "400 body", reply: (request) => ({ type: "error", status: 400, body: errorBody(request) }) },
  { kind: "500 body", reply: (request) => ({ type: "error", status: 500, body: errorBody(request) }) },
  { kind: "stream error", reply: (request) => ({ type: "stream-error", body: errorBody(request) }) },
  { kind: "answer text", reply: (request) => ({ type: "text", text: `You sent: ${echo(request)}` }) },
];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The text of every file under `dir`. */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path, await readFile(path, "utf8"));
  }
  return files;
}

async function sandboxFor(family: Family, activeServer: FakeServer): Promise<Sandbox> {
  const sandbox = await makeSandbox();
  if (family.config !== undefined) {
    await mkdir(join(sandbox.project, ".panto"), { recursive: true });
    await writeFile(
      join(sandbox.project, ".panto", "config.json"),
      JSON.stringify(family.config(activeServer)),
    );
  }
  sandbox.env = { ...sandbox.env, ...family.env(activeServer) };
  return sandbox;
}

describe.each(FAMILIES)("no credential of $name is written or printed", (family) => {
  it.each(ECHOES)("when the server echoes it in a $kind (print, then --json resuming)", async ({ reply }) => {
    server = await family.start(reply);
    const sandbox = await sandboxFor(family, server);
    const session = join(sandbox.home, "leak-session.jsonl");
    const common = ["-m", family.model, "--session", session];
    const print = await runPanto(["-p", "hello", ...common], { cwd: sandbox.project, env: sandbox.env });
    const json = await runPanto(["--json", "-p", "again", ...common], {
      cwd: sandbox.project,
      env: sandbox.env,
    });

    // The server really received (and so echoed) every credential...
    const received = server.requests.map(echo).join("\n");
    for (const value of Object.values(family.secrets)) expect(received).toContain(value);
    // ...and panto really reported the echo, with the names in place of the values.
    const written: Array<[string, string]> = [
      ["stdout (print)", print.stdout],
      ["stderr (print)", print.stderr],
      ["stdout (--json)", json.stdout],
      ["stderr (--json)", json.stderr],
      // Every file in the sandbox but the config the test wrote itself.
      ...[...(await filesUnder(sandbox.root))].filter(
        ([path]) => !path.endsWith(join(".panto", "config.json")),
      ),
    ];
    const everything = written.map(([, text]) => text).join("\n");
    for (const name of Object.keys(family.secrets)) expect(everything).toContain(`[redacted ${name}]`);
    // A header whose name does not look secret is left alone.
    if (family.config !== undefined) expect(everything).toContain("core-team");
    expect(await readFile(session, "utf8")).toContain("[redacted ");
    for (const [where, text] of written) {
      for (const value of Object.values(family.secrets)) {
        expect(text.includes(value), `${where} holds ${value}`).toBe(false);
        // Not even a recognisable part of it.
        expect(text.includes(value.slice(4, -4)), `${where} holds part of ${value}`).toBe(false);
      }
    }
  });
});
