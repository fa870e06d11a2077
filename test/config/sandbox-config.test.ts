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
      max_processes: 256,
      max_memory_mb: 2048,
    };
    expect(parseConfigText(JSON.stringify({ sandbox: full }), FILE)).toEqual({ sandbox: full });
  });

  it("names a bad mode, a misspelt key and a wrong type with the key path", () => {
    expect(messageOf('{"sandbox": "off"}')).toBe(
      `${FILE}: "sandbox.mode" must be one of "read-only", "workspace-write", "full" (got "off")`,
    );
    expect(messageOf('{"sandbox": {"netwrok": true}}')).toBe(
      `${FILE}: unknown key "sandbox.netwrok" (allowed: mode, network, writable_roots, hidden_paths, ask_commands, max_processes, max_memory_mb)`,
    );
    expect(messageOf('{"sandbox": {"writable_roots": ["ok", 3]}}')).toBe(
      `${FILE}: "sandbox.writable_roots.1" must be a non-empty path (absolute, ~/..., or relative to the project root) (got 3)`,
    );
    expect(messageOf('{"sandbox": 1}')).toContain(`${FILE}: "sandbox" must be a mode`);
  });

  it("names a process or memory limit that is not a positive whole number", () => {
    expect(messageOf('{"sandbox": {"max_processes": "many"}}')).toBe(
      `${FILE}: "sandbox.max_processes" must be a whole number of processes (threads count too) at least 1, e.g. 4096, the most a sandboxed command may run at once (got "many")`,
    );
    expect(messageOf('{"sandbox": {"max_processes": 0}}')).toContain(
      '"sandbox.max_processes" must be a whole number',
    );
    expect(messageOf('{"sandbox": {"max_memory_mb": 1.5}}')).toBe(
      `${FILE}: "sandbox.max_memory_mb" must be a whole number of megabytes at least 1, e.g. 8192, the most memory each sandboxed process may allocate (got 1.5)`,
    );
  });

  it("merges per key, the project's config winning", () => {
    const merged = mergeConfigs(
      { sandbox: { network: true, mode: "read-only" } },
      { sandbox: { mode: "workspace-write" } },
    );
    expect(merged.sandbox).toEqual({ network: true, mode: "workspace-write" });
  });
});
