import type { ToolOutput } from "../../src/tools/index.js";
import { useTempDir as useSharedTempDir } from "../support/use-temp-dir.js";

/** Registers hooks giving each test a fresh real temp directory, removed afterwards. */
export function useTempDir(): () => string {
  return useSharedTempDir("panto-tools-");
}

/** All text blocks of an output, joined. */
export function textOf(output: { content: ToolOutput["content"] }): string {
  return output.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
