import type { ToolContext } from "./tool.js";

/**
 * The files a permission rule lets the model read, and a line saying how many were left out and by
 * which rule (empty when none was).
 */
export function withoutDenied<T extends { file: string }>(
  files: readonly T[],
  context: Pick<ToolContext, "readDenied">,
  verb = "searched",
): { kept: T[]; note: string } {
  const denied = context.readDenied;
  if (denied === undefined) return { kept: [...files], note: "" };
  const kept: T[] = [];
  const rules = new Set<string>();
  for (const found of files) {
    const rule = denied(found.file);
    if (rule === undefined) kept.push(found);
    else rules.add(rule);
  }
  const left = files.length - kept.length;
  if (left === 0) return { kept, note: "" };
  const count = left === 1 ? "1 file" : `${left} files`;
  return { kept, note: `\n\n(${count} not ${verb}: denied by ${[...rules].join(", ")})` };
}
