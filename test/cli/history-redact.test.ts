import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createHistoryWriter, loadHistory } from "../../src/frontends/terminal/toolkit/history.js";
import { SecretRedactor } from "../../src/secrets/index.js";

describe("createHistoryWriter", () => {
  it("writes known secrets typed at the prompt as [redacted NAME]", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "panto-history-")), "history");
    const secrets = new SecretRedactor();
    secrets.add("ANTHROPIC_API_KEY", "sk-ant-typed-0123456789");
    const errors: string[] = [];
    const writer = createHistoryWriter(path, (message) => errors.push(message), secrets.redact);
    writer.save(["why does sk-ant-typed-0123456789 fail?", "hello"]);
    await writer.flush();
    expect(await readFile(path, "utf8")).toBe("hello\nwhy does [redacted ANTHROPIC_API_KEY] fail?\n");
    expect(await loadHistory(path)).toEqual(["why does [redacted ANTHROPIC_API_KEY] fail?", "hello"]);
    expect(errors).toEqual([]);
  });
});
