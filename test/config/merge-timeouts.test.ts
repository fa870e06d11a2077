import { describe, expect, it } from "vitest";
import { mergeConfigs } from "../../src/config/index.js";

describe("mergeConfigs and timeouts", () => {
  it("merges timeouts per deadline, the later file winning each one it sets", () => {
    const merged = mergeConfigs(
      { timeouts: { first_byte_ms: 10_000, idle_ms: 60_000 } },
      { timeouts: { idle_ms: 90_000, request_ms: 300_000 } },
    );
    expect(merged.timeouts).toEqual({ first_byte_ms: 10_000, idle_ms: 90_000, request_ms: 300_000 });
  });

  it("merges web_fetch per key, so a file that sets nothing there keeps an earlier allow_private", () => {
    expect(mergeConfigs({ web_fetch: { allow_private: true } }, { web_fetch: {} }).web_fetch).toEqual({
      allow_private: true,
    });
    expect(
      mergeConfigs({ web_fetch: { allow_private: true } }, { web_fetch: { allow_private: false } }).web_fetch,
    ).toEqual({ allow_private: false });
  });

  it("takes bash_env_passthrough whole from the later file", () => {
    const merged = mergeConfigs({ bash_env_passthrough: ["A_TOKEN"] }, { bash_env_passthrough: ["B_TOKEN"] });
    expect(merged.bash_env_passthrough).toEqual(["B_TOKEN"]);
  });
});
