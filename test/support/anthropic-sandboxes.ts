import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer, FakeServerOptions } from "../../src/simulator/fake-provider-types.js";
import { makeSandbox, type Sandbox } from "../cli/panto-process.js";
import { type Closable, closeAfterEach } from "./close-after-each.js";

export interface AnthropicSandbox {
  box: Sandbox;
  server: FakeServer;
  /** The sandbox's environment with panto pointed at the server. */
  env: NodeJS.ProcessEnv;
}

/**
 * For the CLI tests that run panto against a fake Anthropic server: call at the top of a test
 * file. Everything handed to `closeAfter` (every server `start` makes among them) is closed after
 * each test.
 */
export function useAnthropicSandboxes(apiKey: string): {
  start(options?: FakeServerOptions): Promise<AnthropicSandbox>;
  closeAfter<T extends Closable>(thing: T): T;
} {
  const closeAfter = closeAfterEach();
  /** A fresh sandbox and fake Anthropic server, and the environment pointing panto at it with `apiKey`. */
  const start = async (options?: FakeServerOptions): Promise<AnthropicSandbox> => {
    const box = await makeSandbox();
    const server = closeAfter(await startFakeAnthropicServer(options));
    return { box, server, env: { ...box.env, ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: server.url } };
  };
  return { start, closeAfter };
}
