import { describe, expect, it } from "vitest";
import { makeSandbox, runPanto } from "./panto-process.js";

describe("panto demo (built CLI)", { timeout: 60_000 }, () => {
  it("runs offline, overflows, compacts, retries, runs /compact and prints the effective context, exit 0", async () => {
    const box = await makeSandbox();
    // No key, no base URL, nothing configured: the demo needs none of them.
    const result = await runPanto(["demo"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain("SIMULATION");
    expect(out).toMatch(/Session file \(temp dir\): \S+\.jsonl/);
    const overflowAt = out.indexOf("prompt is too long");
    const compactedAt = out.search(
      /context overflow: compacted \d+ turns? into a summary \(kept \d+ turns?, /,
    );
    const retryAt = out.indexOf("retrying the request once");
    const manualAt = out.indexOf("> /compact keep the bug list");
    const reportAt = out.search(/Compacted \d+ turns? into a summary; kept \d+ turns? verbatim/);
    const contextAt = out.indexOf("[compaction block]");
    expect([overflowAt, compactedAt, retryAt, manualAt, reportAt, contextAt].every((at) => at >= 0)).toBe(
      true,
    );
    expect(overflowAt < compactedAt && compactedAt < retryAt && retryAt < manualAt).toBe(true);
    expect(manualAt < reportAt && reportAt < contextAt).toBe(true);
    expect(out).toContain("instructions: keep the bug list");
    expect(out.slice(contextAt)).toContain("Bug list (kept in full, as instructed)");
    expect(out.slice(contextAt)).toMatch(/\[turn 1\] \d+ messages, ~\d+ tokens/);
    // The scripted answer to the prompt that overflowed arrived after the retry.
    expect(out.slice(retryAt)).toContain("That is bug 4");
  });
});
