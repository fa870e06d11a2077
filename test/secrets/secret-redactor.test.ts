import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, SecretRedactor } from "../../src/secrets/index.js";

describe("SecretRedactor", () => {
  it("replaces every occurrence of a known value with its name, never a part of it", () => {
    const redactor = new SecretRedactor();
    redactor.add("ANTHROPIC_API_KEY", "sk-ant-api03-abcdefghijkl");
    expect(
      redactor.redact("401: invalid x-api-key sk-ant-api03-abcdefghijkl (sk-ant-api03-abcdefghijkl)"),
    ).toBe("401: invalid x-api-key [redacted ANTHROPIC_API_KEY] ([redacted ANTHROPIC_API_KEY])");
  });

  it("finds the value as JSON and URLs carry it", () => {
    const redactor = new SecretRedactor();
    const value = 'pa"ss/wo+rd\\x';
    redactor.add("PROXY_TOKEN", value);
    const line = JSON.stringify({ error: `bad token ${value}` });
    expect(redactor.redact(line)).toBe(JSON.stringify({ error: "bad token [redacted PROXY_TOKEN]" }));
    expect(JSON.parse(redactor.redact(line))).toEqual({ error: "bad token [redacted PROXY_TOKEN]" });
    expect(redactor.redact(`GET /v1?key=${encodeURIComponent(value)}`)).toBe(
      "GET /v1?key=[redacted PROXY_TOKEN]",
    );
  });

  it("ignores values shorter than MIN_SECRET_LENGTH, empty and missing ones", () => {
    const redactor = new SecretRedactor();
    redactor.add("SHORT", "a".repeat(MIN_SECRET_LENGTH - 1));
    redactor.add("EMPTY", "");
    redactor.add("MISSING", undefined);
    expect(redactor.size).toBe(0);
    expect(redactor.redact("aaaaaaa and more")).toBe("aaaaaaa and more");
  });

  it("prefers the longer secret when one contains another", () => {
    const redactor = new SecretRedactor();
    redactor.add("SHORTER", "token-12345678");
    redactor.add("LONGER", "Bearer token-12345678");
    expect(redactor.redact("Authorization: Bearer token-12345678; and token-12345678")).toBe(
      "Authorization: [redacted LONGER]; and [redacted SHORTER]",
    );
  });

  it("uses secrets added after redact was first called, and keeps labels plain", () => {
    const redactor = new SecretRedactor();
    const { redact } = redactor;
    expect(redact("key-0123456789")).toBe("key-0123456789");
    redactor.add('providers.a"b.headers.x-api-key', "key-0123456789");
    expect(redact("key-0123456789")).toBe("[redacted providers.a_b.headers.x-api-key]");
    expect(redactor.isSecret(" key-0123456789 ")).toBe(true);
    expect(redactor.isSecret("key-01234567")).toBe(false);
  });

  it("escapes values that look like regular expressions", () => {
    const redactor = new SecretRedactor();
    redactor.add("ODD", "a.b*c+d?(e)[f]");
    expect(redactor.redact("aXbbbcd a.b*c+d?(e)[f]")).toBe("aXbbbcd [redacted ODD]");
  });
});

describe("SecretRedactor, a key a command printed transformed (--sandbox full)", () => {
  const key = "sk-ant-api03-Zq9xW2vB7nLmK4pR8tYc1dFg6hJ0sAeU";
  const redactor = new SecretRedactor();
  redactor.add("ANTHROPIC_API_KEY", key);
  const leaks = (text: string) =>
    [
      key,
      Buffer.from(key).toString("base64").slice(8, 40),
      Buffer.from(key).toString("hex").slice(10, 60),
    ].some((part) => text.includes(part)) || text.includes([...key].reverse().join("").slice(5, 30));

  it("redacts it base64-encoded, whole, without padding, url-safe, wrapped at 76 columns, and inside a longer text at every offset", () => {
    const base64 = Buffer.from(key).toString("base64");
    expect(redactor.redact(`out: ${base64}\n`)).toBe("out: [redacted ANTHROPIC_API_KEY]\n");
    expect(redactor.redact(base64.replace(/=+$/, ""))).toBe("[redacted ANTHROPIC_API_KEY]");
    expect(redactor.redact(Buffer.from(key).toString("base64url"))).toBe("[redacted ANTHROPIC_API_KEY]");
    for (const before of ["", "k", "ke", "key=", "export ANTHROPIC_API_KEY="]) {
      for (const after of ["", "\n", "\nmore"]) {
        const encoded = Buffer.from(`${before}${key}${after}`).toString("base64");
        const wrapped = encoded.replace(/.{76}/g, "$&\n");
        for (const printed of [encoded, wrapped]) {
          const redacted = redactor.redact(printed);
          expect(redacted, `${before}|${after}`).toContain("[redacted ANTHROPIC_API_KEY]");
          expect(leaks(redacted), `${before}|${after}`).toBe(false);
        }
      }
    }
  });

  it("redacts it in hex, lower and upper case and wrapped as xxd -p does, and reversed", () => {
    const hex = Buffer.from(key).toString("hex");
    expect(redactor.redact(`x ${hex} y`)).toBe("x [redacted ANTHROPIC_API_KEY] y");
    expect(redactor.redact(hex.toUpperCase())).toBe("[redacted ANTHROPIC_API_KEY]");
    expect(
      redactor.redact(Buffer.from(`key=${key}\n`).toString("hex").replace(/.{60}/g, "$&\n")),
    ).not.toSatisfy(leaks);
    expect(redactor.redact([...key].reverse().join(""))).toBe("[redacted ANTHROPIC_API_KEY]");
  });

  it("leaves ordinary base64 and hex alone", () => {
    const other = Buffer.from("an ordinary line of output, nothing secret in it").toString("base64");
    expect(redactor.redact(other)).toBe(other);
    expect(redactor.redact("deadbeef0123456789abcdef")).toBe("deadbeef0123456789abcdef");
  });
});
