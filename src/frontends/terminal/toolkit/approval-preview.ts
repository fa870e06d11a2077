import type { ToolCallBlock } from "../../../core/index.js";
import { formatToolCall, plural, visible } from "../../../runtime/format-text.js";

/** Lines of file content shown before a write or edit is allowed; the rest is counted, not shown. */
const PREVIEW_LINES = 12;

/**
 * What a permission question shows about the call it asks about, one string per line. A user must
 * see everything they allow: a bash command is shown whole unless the tool-call line already shows
 * all of it (a 100-character summary could hide `; curl … | sh` at its end), a write shows the start of the content, an edit the text it
 * replaces and the text it puts in. Control characters are made visible so the model's text
 * cannot move the cursor or recolour the question.
 */
export function describeApproval(call: ToolCallBlock): string[] {
  const args = call.arguments;
  switch (call.name) {
    case "bash":
      if (typeof args.command !== "string") break;
      // The "● bash …" line above already shows a short one-line command exactly.
      if (formatToolCall(call) === `bash ${args.command}`) return [];
      return prefixed(args.command, "  $ ", "    ");
    case "write":
      if (typeof args.path === "string" && typeof args.content === "string")
        return [
          `  write ${visible(args.path)} (${plural(lineCount(args.content), "line")}):`,
          ...excerpt(args.content, "    "),
        ];
      break;
    case "edit":
      if (typeof args.path === "string" && typeof args.old_string === "string")
        return [
          `  edit ${visible(args.path)}${args.replace_all === true ? " (every occurrence)" : ""}:`,
          ...excerpt(args.old_string, "  - "),
          ...excerpt(typeof args.new_string === "string" ? args.new_string : "", "  + "),
        ];
      break;
  }
  return prefixed(JSON.stringify(args, null, 2), "  ", "  ");
}

/** The question itself, short enough for a narrow terminal. */
export function approvalQuestion(toolName: string, columns: number | undefined): string {
  if (columns !== undefined && columns < 72) return "Allow? [y]es/[a]lways/[N]o: ";
  return `Allow? [y]es once · [a]lways for ${toolName} this session · [N]o: `;
}

/** How an answer to the question reads: undefined when it is none of the choices. */
export function parseApprovalAnswer(answer: string): "once" | "always" | "no" | undefined {
  const choice = answer.trim().toLowerCase();
  if (choice === "y" || choice === "yes") return "once";
  if (choice === "a" || choice === "always") return "always";
  if (choice === "" || choice === "n" || choice === "no") return "no";
  return undefined;
}

function prefixed(text: string, first: string, rest: string): string[] {
  return visible(text)
    .split("\n")
    .map((line, index) => `${index === 0 ? first : rest}${line}`);
}

function excerpt(text: string, prefix: string): string[] {
  const lines = visible(text).replace(/\n$/, "").split("\n");
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `${prefix}${line}`);
  if (lines.length > PREVIEW_LINES)
    shown.push(`${" ".repeat(prefix.length)}… ${plural(lines.length - PREVIEW_LINES, "more line")}`);
  return shown;
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
}
