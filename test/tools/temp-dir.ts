import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { ToolOutput } from "../../src/tools/index.js";

/** Registers hooks giving each test a fresh real temp directory, removed afterwards. */
export function useTempDir(): () => string {
  let current: string | undefined;
  beforeEach(async () => {
    current = await mkdtemp(path.join(os.tmpdir(), "panto-tools-"));
  });
  afterEach(async () => {
    if (current !== undefined) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error("temp dir used outside a test");
    return current;
  };
}

/** All text blocks of an output, joined. */
export function textOf(output: { content: ToolOutput["content"] }): string {
  return output.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
