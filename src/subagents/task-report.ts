import type { CommandRun, TaskActivity } from "./task-activity.js";

/** Characters of the child's answer kept in the report; the full answer stays in its session. */
export const MAX_ANSWER_CHARS = 16_000;
/** Items of each list (files read, files changed, commands) the report names. */
export const MAX_LIST_ITEMS = 25;
/** Characters of the answer's first line in the report's headline (the line compaction keeps). */
const HEADLINE_ANSWER_CHARS = 160;

export interface TaskReportInput {
  agent: string;
  description: string;
  sessionId: string;
  sessionPath: string;
  answer: string;
  /** How the child ended other than with an answer of its own. */
  ending?: "concluded-on-request" | "failed";
  error?: string;
  activity: TaskActivity;
}

/**
 * The report the `task` tool hands back: a one-line headline naming the child's session (the line
 * the parent's compaction keeps), the child's final answer in full up to MAX_ANSWER_CHARS, then
 * the files it read and changed and the commands it ran with their outcomes, each list bounded.
 */
export function taskReport(input: TaskReportInput): string {
  const { activity } = input;
  const sections = [
    taskHeadline(input),
    `Session: ${input.sessionPath} (read it, or resume it with panto -r ${input.sessionId.slice(0, 8)})`,
    ...(input.ending === "concluded-on-request"
      ? ["The agent stopped on a tool call and was asked once to conclude; its conclusion follows."]
      : []),
    ...(input.error === undefined ? [] : [`It failed: ${input.error}`]),
    `## Answer\n${bounded(input.answer.trim() === "" ? "(no answer)" : input.answer.trim())}`,
    listSection("Files read", activity.filesRead),
    listSection("Files changed", activity.filesChanged),
    listSection("Commands run", activity.commands.map(commandLine)),
  ];
  return sections.filter((section) => section !== "").join("\n\n");
}

/** `task NAME "DESCRIPTION" (session ID8): first line of the answer`: one line, about 250 characters at most. */
export function taskHeadline(
  input: Pick<TaskReportInput, "agent" | "description" | "sessionId" | "answer" | "error">,
): string {
  const first =
    input.answer
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line !== "") ?? (input.error === undefined ? "(no answer)" : `failed: ${input.error}`);
  const gist = first.length > HEADLINE_ANSWER_CHARS ? `${first.slice(0, HEADLINE_ANSWER_CHARS - 1)}…` : first;
  const label = input.description.replace(/\s+/g, " ").trim().slice(0, 60);
  return `task ${input.agent} "${label}" (session ${input.sessionId.slice(0, 8)}): ${gist}`;
}

function bounded(answer: string): string {
  if (answer.length <= MAX_ANSWER_CHARS) return answer;
  const cut = answer.length - MAX_ANSWER_CHARS;
  return `${answer.slice(0, MAX_ANSWER_CHARS)}\n[… ${cut} more characters in the task's session]`;
}

function listSection(title: string, items: readonly string[]): string {
  if (items.length === 0) return "";
  const shown = items.slice(0, MAX_LIST_ITEMS).map((item) => `- ${item}`);
  const more = items.length - shown.length;
  return `## ${title} (${items.length})\n${shown.join("\n")}${more > 0 ? `\n- … and ${more} more` : ""}`;
}

function commandLine(run: CommandRun): string {
  const command = run.command.length > 200 ? `${run.command.slice(0, 199)}…` : run.command;
  return `\`${command.replace(/\n/g, " ")}\` → ${run.outcome}`;
}
