import { describe, expect, it } from "vitest";
import { ConfigError, mergeConfigs } from "../../src/config/index.js";
import { parseConfigText } from "../../src/config/parse-config-text.js";

const FILE = "/home/me/.panto/config.json";

function messageOf(text: string): string {
  try {
    parseConfigText(text, FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe('config "sandbox"', () => {
  it("reads a bare mode as the mode, and the object form as given", () => {
    expect(parseConfigText('{"sandbox": "read-only"}', FILE)).toEqual({ sandbox: { mode: "read-only" } });
    const full = {
      mode: "workspace-write",
      network: true,
      writable_roots: ["~/scratch"],
      hidden_paths: ["~/.config/tool"],
      ask_commands: true,
    };
    expect(parseConfigText(JSON.stringify({ sandbox: full }), FILE)).toEqual({ sandbox: full });
  });

  it("names a bad mode, a misspelt key and a wrong type with the key path", () => {
    expect(messageOf('{"sandbox": "off"}')).toBe(
      `${FILE}: "sandbox.mode" must be one of "read-only", "workspace-write", "full" (got "off")`,
    );
    expect(messageOf('{"sandbox": {"netwrok": true}}')).toBe(
      `${FILE}: unknown key "sandbox.netwrok" (allowed: mode, network, writable_roots, hidden_paths, ask_commands)`,
    );
    expect(messageOf('{"sandbox": {"writable_roots": ["ok", 3]}}')).toBe(
      `${FILE}: "sandbox.writable_roots.1" must be a non-empty path (absolute, ~/..., or relative to the project root) (got 3)`,
    );
    expect(messageOf('{"sandbox": 1}')).toContain(`${FILE}: "sandbox" must be a mode`);
  });

  it("merges per key, the project's config winning", () => {
    const merged = mergeConfigs(
      { sandbox: { network: true, mode: "read-only" } },
      { sandbox: { mode: "workspace-write" } },
    );
    expect(merged.sandbox).toEqual({ network: true, mode: "workspace-write" });
  });
});
