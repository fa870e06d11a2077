import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startInteractive } from "./interactive-harness.js";
import { makeSandbox } from "./panto-process.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a task child's approval in the interactive session", { timeout: 60_000 }, () => {
  it("is asked in the parent's terminal, labelled with the child, and a denial reaches the report", async () => {
    const box = await makeSandbox();
    const run = await startInteractive(box, {});
    server = run.server;
    const { terminal, exit } = run;
    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          {
            id: "toolu_t",
            name: "task",
            arguments: { description: "make notes", prompt: "Write notes.txt" },
          },
        ],
      },
      {
        type: "tool-calls",
        calls: [{ id: "c_w", name: "write", arguments: { path: "notes.txt", content: "x" } }],
      },
      { type: "text", text: "CHILD: writing was refused" },
      { type: "text", text: "PARENT: the child could not write" },
    );
    terminal.type("delegate it\r");
    let seen = await terminal.waitFor("task general: make notes asks:", 0);
    seen = await terminal.waitFor("Allow? [y]es once", seen);
    terminal.type("n\r");
    seen = await terminal.waitForAnswer("PARENT: the child could not write", seen);
    expect(existsSync(join(box.project, "notes.txt"))).toBe(false);
    const report = JSON.stringify(server.requests.at(-1)?.body);
    expect(report).toContain("CHILD: writing was refused");
    terminal.type("\u0004");
    expect(await exit).toBe(0);
  });
});
