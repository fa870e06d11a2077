import type { EntryFields } from "./session-lines.js";

/**
 * A sandbox entry in words: "workspace-write, network off, writable: /p", or "full (no sandbox)";
 * undefined when the fields are not a sandbox entry's.
 */
export function sandboxLabel(fields: EntryFields): string | undefined {
  if (fields.type !== "sandbox" || typeof fields.mode !== "string") return undefined;
  if (fields.mode === "full") return "full (no sandbox: the model's commands ran with the user's rights)";
  const network = fields.network === true ? "network on" : "network off";
  const roots = Array.isArray(fields.writableRoots)
    ? fields.writableRoots.filter((root) => typeof root === "string")
    : [];
  return `${fields.mode}, ${network}${roots.length === 0 ? "" : `, writable: ${roots.join(", ")}`}`;
}
