import { afterEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const dir = useTempDir();

afterEach(() => {
  delete process.env.PANTO_TEST_SERVICE_TOKEN;
  delete process.env.PANTO_TEST_PLAIN;
});

describe("the bash tool's environment", () => {
  it("by default withholds this process's variables whose names look secret", async () => {
    process.env.PANTO_TEST_SERVICE_TOKEN = "tok-0123456789";
    process.env.PANTO_TEST_PLAIN = "plain-value";
    const text = textOf(await createBashTool().execute({ command: "env" }, { cwd: dir() }));
    expect(text).toContain("PANTO_TEST_PLAIN=plain-value");
    expect(text).not.toContain("PANTO_TEST_SERVICE_TOKEN");
    expect(text).not.toContain("tok-0123456789");
  });

  it("uses exactly the environment it is given", async () => {
    const bash = createBashTool({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ONLY_THIS: "yes" } });
    const text = textOf(
      await bash.execute({ command: 'echo "$ONLY_THIS/$(printenv HOME || echo nohome)"' }, { cwd: dir() }),
    );
    expect(text).toContain("yes/nohome");
  });
});
