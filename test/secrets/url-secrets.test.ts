import { describe, expect, it } from "vitest";
import { urlSecrets } from "../../src/secrets/index.js";

describe("urlSecrets", () => {
  it("finds query parameters whose names look secret, as written and decoded, and the password", () => {
    expect(
      urlSecrets(
        "https://bot:hunter2%21pw@mcp.example.com/mcp?token=abc%2Bdef123&team=core&api_key=k-123456789&x=1",
      ),
    ).toEqual([
      { part: "password", value: "hunter2%21pw" },
      { part: "password", value: "hunter2!pw" },
      { part: "query.token", value: "abc%2Bdef123" },
      { part: "query.token", value: "abc+def123" },
      { part: "query.api_key", value: "k-123456789" },
    ]);
  });

  it("finds nothing in a URL without secrets, or one that does not parse", () => {
    expect(urlSecrets("https://mcp.example.com/mcp?team=core&page=2")).toEqual([]);
    expect(urlSecrets("not a url ?token=x")).toEqual([]);
  });
});
