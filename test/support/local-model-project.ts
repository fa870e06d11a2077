import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeReply, FakeServer } from "../../src/simulator/index.js";
import { makeSandbox, type Sandbox } from "../cli/panto-process.js";
import { type Closable, closeAfterEach } from "./close-after-each.js";

/** The fake OpenAI-style server's refusal of a prompt longer than local/my-model's 10,000 tokens. */
export const OVERFLOW: FakeReply = {
  type: "error",
  status: 400,
  body: JSON.stringify({
    error: {
      message:
        "This model's maximum context length is 10000 tokens. However, your messages resulted in 10400 tokens. Please reduce the length of the messages.",
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    },
  }),
};

/** A sandbox whose project runs local/my-model (a 10,000-token window) against its own fake server. */
export interface LocalModelProject {
  box: Sandbox;
  server: FakeServer;
  /** Writes the project's config: the model, its provider and window, then `settings`. */
  configure(settings?: Record<string, unknown>): Promise<void>;
}

/**
 * Call at the top of a test file: `open` makes a local-model project configured with `settings`,
 * `closeAfter` closes what it is given; servers close after the test that started them.
 */
export function localModelProjects(): {
  closeAfter: <T extends Closable>(thing: T) => T;
  open(settings?: Record<string, unknown>): Promise<LocalModelProject>;
} {
  const closeAfter = closeAfterEach();
  return {
    closeAfter,
    async open(settings = {}) {
      const box = await makeSandbox();
      const server = closeAfter(await startFakeOpenAIChatServer());
      await mkdir(join(box.project, ".panto"));
      const configure = (more: Record<string, unknown> = {}) =>
        writeFile(
          join(box.project, ".panto", "config.json"),
          JSON.stringify({
            model: "local/my-model",
            providers: { local: { base_url: server.url } },
            models: { "local/my-model": { context_window: 10000 } },
            ...more,
          }),
        );
      await configure(settings);
      return { box, server, configure };
    },
  };
}
