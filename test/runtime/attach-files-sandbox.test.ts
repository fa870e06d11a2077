import path from "node:path";
import { describe, expect, it } from "vitest";
import { attachFiles } from "../../src/runtime/input/attach-files.js";
import { sandboxLayout, type ToolSandbox } from "../../src/sandbox/index.js";
import { link, makeWorld, worldPolicy } from "../sandbox/sandbox-fixture.js";
import { useTempDir } from "../support/use-temp-dir.js";

const temp = useTempDir("panto-attach-sandbox-", { resolveLinks: true });

/** The world's sandbox as `@path` sees it: only its layout is used, nothing is started. */
function setup(): { world: ReturnType<typeof makeWorld>; sandbox: ToolSandbox } {
  const world = makeWorld(temp());
  const policy = worldPolicy(world);
  const sandbox: ToolSandbox = {
    policy,
    layout: () => sandboxLayout(policy),
    prepare: () => {
      throw new Error("no command runs in these tests");
    },
  };
  return { world, sandbox };
}

describe("@path in a sandboxed run", () => {
  it("attaches a project file as before", async () => {
    const { world, sandbox } = setup();
    const attached = await attachFiles("look at @README.md", world.project, sandbox);
    expect(attached).toMatchObject({ ok: true, files: ["README.md"] });
    expect(attached.ok && attached.text).toContain("# project");
  });

  it("refuses ~/.ssh/id_* and a symlink in the project leading to it, naming the rule and sending nothing", async () => {
    const { world, sandbox } = setup();
    const key = path.join(world.home, ".ssh", "id_ed25519");
    const direct = await attachFiles(`@${key}`, world.project, sandbox);
    expect(direct.ok).toBe(false);
    expect(!direct.ok && direct.error).toContain("rule hidden-credentials");
    expect(JSON.stringify(direct)).not.toContain("PRIVATE KEY");
    link(key, path.join(world.project, "innocent.txt"));
    const viaLink = await attachFiles("see @innocent.txt", world.project, sandbox);
    expect(viaLink.ok).toBe(false);
    expect(!viaLink.ok && viaLink.error).toContain("rule hidden-credentials");
  });

  it("attaches the same credential when the run has no sandbox (--sandbox full)", async () => {
    const { world } = setup();
    const attached = await attachFiles(`@${path.join(world.home, ".ssh", "id_ed25519")}`, world.project);
    expect(attached.ok && attached.text).toContain("PRIVATE KEY");
  });
});
