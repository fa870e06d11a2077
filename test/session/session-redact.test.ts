import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "../../src/secrets/index.js";
import { openSession } from "../../src/session/index.js";

describe("openSession's redact option", () => {
  it("removes known secrets from every appended line, which stays valid JSON", async () => {
    const dir = await mkdtemp(join(tmpdir(), "panto-redact-"));
    const path = join(dir, "s.jsonl");
    const secrets = new SecretRedactor();
    secrets.add("OPENAI_API_KEY", 'sk-"quoted"-0123456789');
    const session = await openSession(path, { cwd: dir, redact: secrets.redact });
    await session.appendMessage({
      role: "user",
      content: [{ type: "text", text: 'my key is sk-"quoted"-0123456789, keep it' }],
    });
    await session.markLastTurnFailed(
      "auth",
      'openai: 401 Incorrect API key provided: sk-"quoted"-0123456789',
    );
    await session.close();
    const text = await readFile(path, "utf8");
    expect(text).not.toContain("0123456789");
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({
      message: { content: [{ text: "my key is [redacted OPENAI_API_KEY], keep it" }] },
    });
    expect(lines[2]).toMatchObject({
      type: "turn-failed",
      error: "openai: 401 Incorrect API key provided: [redacted OPENAI_API_KEY]",
    });
  });
});
