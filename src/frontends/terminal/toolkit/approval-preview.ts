import type { ToolCallBlock } from "../../../core/index.js";
import { formatToolCall, plural, visible } from "../../../runtime/format-text.js";
import type { RulePlace } from "../../../runtime/run-rules.js";

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

/**
 * The question itself, short enough for a narrow terminal. `asRule`: "always" would add permission
 * rules (shown, with where to keep them, once a is pressed), not allow the whole tool.
 */
export function approvalQuestion(toolName: string, columns: number | undefined, asRule = false): string {
  if (columns !== undefined && columns < 72) return "Allow? [y]es/[a]lways/[N]o: ";
  if (asRule) return "Allow? [y]es once · [a]lways (save a rule) · [N]o: ";
  return `Allow? [y]es once · [a]lways for ${toolName} this session · [N]o: `;
}

/** Where an "always" can keep its rules: the project's local file and the user's config. */
export interface RuleFiles {
  readonly local: string;
  readonly user: string;
}

/**
 * What "always" shows when it adds rules: each rule exactly as it will be written, then the three
 * places to keep them with their files, session first (the default, Enter). The rules come from
 * the model's call (a command's words): made visible like the call itself.
 */
export function rulePlaceChoices(rules: readonly string[], files: RuleFiles): string[] {
  return [
    `  always allow ${rules.map(visible).join(", ")}`,
    "    [s] for this session only (Enter)",
    `    [l] in this project's local file, not committed: ${visible(files.local)}`,
    `    [u] in your user config, every project: ${visible(files.user)}`,
  ];
}

/** The question after the choices. */
export const RULE_PLACE_QUESTION = "Keep it where? [S]ession/[l]ocal/[u]ser: ";

/** How an answer to where to keep the rules reads (Enter or nothing: the session); undefined when it is none. */
export function parseRulePlace(answer: string): RulePlace | undefined {
  const choice = answer.trim().toLowerCase();
  if (choice === "" || choice === "s" || choice === "session") return "session";
  if (choice === "l" || choice === "local") return "local";
  if (choice === "u" || choice === "user") return "user";
  return undefined;
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
