import { afterEach } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer, FakeServerOptions } from "../../src/simulator/fake-provider-types.js";
import { AcpProcess, type ClientScript } from "../acp/acp-harness.js";
import { cliEnv, tempProject } from "../e2e/run-cli.js";
import { closeAfterEach } from "./close-after-each.js";

/** A test's fake Anthropic server, its temporary home and project, and the environment pointing panto at them. */
export interface AcpProject {
  server: FakeServer;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

/**
 * For a describe block of `panto acp` tests: each test's fake server closed and its `panto acp`
 * processes killed after it, so a failed test leaves neither behind.
 */
export function acpProjects(): {
  /** `server` starts the fake server; `env` adds to the environment, given the home (which is made here). */
  project(options?: {
    server?: FakeServerOptions;
    env?: (home: string) => Record<string, string>;
  }): Promise<AcpProject>;
  start(
    args: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
    script?: ClientScript,
  ): AcpProcess;
} {
  const closeAfter = closeAfterEach();
  const processes: AcpProcess[] = [];
  afterEach(() => {
    for (const process of processes.splice(0)) process.kill();
  });
  return {
    async project(options = {}) {
      const server = closeAfter(await startFakeAnthropicServer(options.server));
      const { home, project } = await tempProject();
      const env = cliEnv(home, {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: server.url,
        ...options.env?.(home),
      });
      return { server, home, project, env };
    },
    start(args, options, script) {
      const acp = new AcpProcess(args, options, script);
      processes.push(acp);
      return acp;
    },
  };
}
