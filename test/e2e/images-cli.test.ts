import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import {
  startFakeAnthropicServer,
  startFakeGeminiServer,
  startFakeOpenAIChatServer,
  startFakeOpenAIResponsesServer,
} from "../../src/simulator/index.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { tinyPng } from "../support/tiny-images.js";
import { cliEnv, runCli, tempProject } from "./run-cli.js";

/**
 * Images end to end: the built CLI as a subprocess (`-p --image`, `@PATH`), the real adapters, and
 * each wire format's fake server, which records the image in its own shape; the session file names
 * the image, its bytes are beside it, and resuming sends the image again.
 */
const TIMEOUT = 60_000;
const closeAfter = closeAfterEach();
const png = tinyPng(3, 2, 99);
const base64 = png.toString("base64");
const stored = `${createHash("sha256").update(png).digest("hex")}.png`;

interface Family {
  name: string;
  model: string;
  start: () => Promise<FakeServer>;
  env: (server: FakeServer) => Record<string, string>;
  config: (server: FakeServer) => Record<string, unknown>;
  /** The image parts of the request's user messages, in the wire's own shape. */
  images: (request: RecordedRequest) => unknown[];
}

type Json = Record<string, unknown>;
const messagesOf = (request: RecordedRequest, key: string): Json[] =>
  ((request.body as Json)[key] as Json[] | undefined) ?? [];
const partsOf = (messages: Json[], key: string): Json[] =>
  messages.flatMap((message) => (Array.isArray(message[key]) ? (message[key] as Json[]) : []));

const FAMILIES: Family[] = [
  {
    name: "Anthropic Messages",
    model: "anthropic/claude-test",
    start: () => startFakeAnthropicServer(),
    env: (server) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url }),
    config: () => ({}),
    // The last block of the prompt carries the cache breakpoint: the image's shape is the rest.
    images: (request) =>
      partsOf(messagesOf(request, "messages"), "content")
        .filter((part) => part.type === "image")
        .map(({ cache_control: _breakpoint, ...part }) => part),
  },
  {
    name: "OpenAI Responses",
    model: "openai/gpt-test",
    start: () => startFakeOpenAIResponsesServer(),
    env: (server) => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.url }),
    config: () => ({}),
    images: (request) =>
      partsOf(messagesOf(request, "input"), "content").filter((part) => part.type === "input_image"),
  },
  {
    name: "Google Gemini",
    model: "google/gemini-test",
    start: () => startFakeGeminiServer(),
    env: (server) => ({ GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.url }),
    config: () => ({}),
    images: (request) =>
      partsOf(messagesOf(request, "contents"), "parts").filter((part) => part.inlineData !== undefined),
  },
  {
    name: "OpenAI Chat Completions (a local server, images said in config)",
    model: "local/llama-test",
    start: () => startFakeOpenAIChatServer(),
    env: () => ({}),
    config: (server) => ({
      providers: { local: { base_url: server.url } },
      models: { "local/llama-test": { images: true } },
    }),
    images: (request) =>
      partsOf(messagesOf(request, "messages"), "content").filter((part) => part.type === "image_url"),
  },
];

const WIRE_SHAPES: Record<string, unknown> = {
  "Anthropic Messages": { type: "image", source: { type: "base64", media_type: "image/png", data: base64 } },
  "OpenAI Responses": { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${base64}` },
  "Google Gemini": { inlineData: { mimeType: "image/png", data: base64 } },
  "OpenAI Chat Completions (a local server, images said in config)": {
    type: "image_url",
    image_url: { url: `data:image/png;base64,${base64}` },
  },
};

async function setUp(family: Family) {
  const server = closeAfter(await family.start());
  const { home, project } = await tempProject();
  await writeFile(join(project, "shot.png"), png);
  await writeFile(join(home, "config.json"), JSON.stringify(family.config(server)));
  const env = cliEnv(home, family.env(server));
  const run = (args: string[]) => runCli(["-m", family.model, ...args], { cwd: project, env });
  return { server, project, env, run };
}

describe.each(FAMILIES)("images through $name", (family) => {
  it(
    "sends --image in the wire's own shape, stores it beside the session by its sha256, and sends it again on resume",
    async () => {
      const { server, project, run } = await setUp(family);
      const first = await run(["--session", "s.jsonl", "-p", "what is wrong here?", "--image", "shot.png"]);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect(family.images(server.requests[0] as RecordedRequest)).toEqual([WIRE_SHAPES[family.name]]);
      const file = await readFile(join(project, "s.jsonl"), "utf8");
      expect(file).not.toContain(base64);
      expect(file).toContain(`"file":"${stored}"`);
      expect(await readdir(join(project, "s.images"))).toEqual([stored]);
      expect(await readFile(join(project, "s.images", stored))).toEqual(png);
      const resumed = await run(["--session", "s.jsonl", "-p", "and now?"]);
      expect(resumed.code).toBe(0);
      expect(server.requests).toHaveLength(2);
      expect(family.images(server.requests[1] as RecordedRequest)).toEqual([WIRE_SHAPES[family.name]]);
    },
    TIMEOUT,
  );
});

describe("images from the command line", () => {
  const anthropic = FAMILIES[0] as Family;

  it(
    "attaches @PATH of an image as an image, the mention kept in the text",
    async () => {
      const { server, run } = await setUp(anthropic);
      const result = await run(["-p", "compare @shot.png with the design"]);
      expect(result.code).toBe(0);
      const request = server.requests[0] as RecordedRequest;
      expect(anthropic.images(request)).toEqual([WIRE_SHAPES[anthropic.name]]);
      expect(JSON.stringify(request.body)).toContain("compare @shot.png with the design");
    },
    TIMEOUT,
  );

  it(
    "refuses an --image that is missing or not an image, naming it, and sends nothing",
    async () => {
      const { server, project, run } = await setUp(anthropic);
      const missing = await run(["-p", "look", "--image", "gone.png"]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        `--image gone.png: no such file (${join(project, "gone.png")}); nothing was sent`,
      );
      await writeFile(join(project, "notes.png"), "plain text");
      const fake = await run(["-p", "look", "--image", "notes.png"]);
      expect(fake.code).toBe(2);
      expect(fake.stderr).toContain("--image notes.png: notes.png: not a PNG, JPEG, GIF or WebP image");
      expect(server.requests).toHaveLength(0);
    },
    TIMEOUT,
  );

  it(
    "refuses an image for a model that does not accept images before any request, saying how to allow it",
    async () => {
      const chat = FAMILIES[3] as Family;
      const server = closeAfter(await chat.start());
      const { home, project } = await tempProject();
      await writeFile(join(project, "shot.png"), png);
      await writeFile(
        join(home, "config.json"),
        JSON.stringify({ providers: { local: { base_url: server.url } } }),
      );
      const result = await runCli(["-m", chat.model, "-p", "what is this?", "--image", "shot.png"], {
        cwd: project,
        env: cliEnv(home),
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("local/llama-test does not accept images; nothing was sent");
      expect(result.stderr).toContain('"models": {"local/llama-test": {"images": true}}');
      expect(server.requests).toHaveLength(0);
    },
    TIMEOUT,
  );

  it(
    "sends an earlier image as its placeholder line to a model that takes none, after a model switch",
    async () => {
      const anthropicServer = closeAfter(await startFakeAnthropicServer());
      const chatServer = closeAfter(await startFakeOpenAIChatServer());
      const { home, project } = await tempProject();
      await writeFile(join(project, "shot.png"), png);
      await writeFile(
        join(home, "config.json"),
        JSON.stringify({ providers: { local: { base_url: chatServer.url } } }),
      );
      const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: anthropicServer.url });
      const first = await runCli(
        ["-m", "anthropic/claude-test", "--session", "s.jsonl", "-p", "look at @shot.png"],
        {
          cwd: project,
          env,
        },
      );
      expect(first.code).toBe(0);
      const second = await runCli(["-m", "local/llama-test", "--session", "s.jsonl", "-p", "and in words?"], {
        cwd: project,
        env,
      });
      expect(second.stderr).toContain("-m local/llama-test replaces");
      expect(second.code).toBe(0);
      const body = JSON.stringify(chatServer.requests[0]?.body);
      expect(body).not.toContain(base64);
      expect(body).toContain(
        `[image: shot.png, image/png, 3x2, ${png.length} B] (not sent: this model does not accept images)`,
      );
    },
    TIMEOUT,
  );

  it(
    "takes stream-json image blocks: a real image is sent and stored, a block that is no image is refused by its place",
    async () => {
      const { server, project, env } = await setUp(anthropic);
      const message = (content: unknown) =>
        `${JSON.stringify({ type: "user", message: { role: "user", content } })}\n`;
      const source = (data: string) => ({ type: "base64", media_type: "image/png", data });
      const input =
        message([
          { type: "text", text: "what is this?" },
          { type: "image", source: source(base64) },
        ]) + message([{ type: "image", source: source(Buffer.from("not a picture").toString("base64")) }]);
      const result = await runCli(
        ["-m", anthropic.model, "--session", "s.jsonl", "--input-format", "stream-json", "--json"],
        { cwd: project, env, input },
      );
      const events = result.stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const results = events.filter((event) => event.type === "result");
      expect(results.map((event) => event.exit_code)).toEqual([0, 2]);
      expect(result.stdout).toContain("image 1: not a PNG, JPEG, GIF or WebP image; nothing was sent");
      expect(server.requests).toHaveLength(1);
      expect(anthropic.images(server.requests[0] as RecordedRequest)).toEqual([WIRE_SHAPES[anthropic.name]]);
      expect(await readFile(join(project, "s.jsonl"), "utf8")).toContain(`"file":"${stored}"`);
    },
    TIMEOUT,
  );

  it(
    "summarises a turn with an image from a transcript holding its placeholder line, never its bytes",
    async () => {
      const { server, project, run } = await compactionCliProject("anthropic/claude-test", closeAfter);
      await writeFile(join(project, "shot.png"), png);
      server.enqueue({ type: "text", text: "a broken layout" });
      expect((await run("what is wrong in @shot.png?")).code).toBe(0);
      server.enqueue({ type: "text", text: "answer two" });
      expect((await run("second question")).code).toBe(0);
      server.enqueue({ type: "text", text: "## Summary\nThe user showed a screenshot." });
      const compacted = await run("/compact");
      expect(compacted.code, compacted.stderr).toBe(0);
      const summary = server.requests.find((request) =>
        JSON.stringify(request.body).includes("<transcript>"),
      );
      const body = JSON.stringify(summary?.body);
      expect(body).toContain(`[image: shot.png, image/png, 3x2, ${png.length} B]`);
      expect(body).not.toContain(base64);
    },
    TIMEOUT,
  );

  it("says --image goes with -p", async () => {
    const { home, project } = await tempProject();
    const result = await runCli(["--image", "shot.png"], { cwd: project, env: cliEnv(home) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--image goes with -p or --json");
  });
});
