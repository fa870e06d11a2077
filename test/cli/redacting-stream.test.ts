import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { redactingStream } from "../../src/cli/redacting-stream.js";
import { SecretRedactor } from "../../src/secrets/index.js";

describe("redactingStream", () => {
  it("redacts strings and buffers written to it and keeps the stream's own properties", async () => {
    const secrets = new SecretRedactor();
    const target = Object.assign(new PassThrough(), { isTTY: true, columns: 42 });
    const stream = redactingStream(target, secrets.redact);
    stream.write("before sk-known-0123456789\n");
    secrets.add("OPENAI_API_KEY", "sk-known-0123456789");
    stream.write("after sk-known-0123456789\n");
    stream.write(Buffer.from("buffer sk-known-0123456789\n"));
    let callbackCalled = false;
    stream.write("done\n", () => {
      callbackCalled = true;
    });
    stream.end();
    const chunks: Buffer[] = [];
    for await (const chunk of target) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(
      "before sk-known-0123456789\nafter [redacted OPENAI_API_KEY]\nbuffer [redacted OPENAI_API_KEY]\ndone\n",
    );
    expect(callbackCalled).toBe(true);
    expect(stream.isTTY).toBe(true);
    expect(stream.columns).toBe(42);
  });
});
