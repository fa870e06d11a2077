import { ERROR_CODES, type ErrorCode, TODO_STATUSES } from "../core/index.js";
import { checkCheckpointEntry, checkRewindEntry } from "./check-checkpoint-entry.js";
import { messageProblem } from "./message-problem.js";
import { ENTRY_TYPES, type SessionEntry } from "./session-entries.js";

/** What one line of a session file turned out to be. */
export type ParsedLine =
  | { kind: "entry"; entry: SessionEntry }
  /** A well-formed entry of a type this panto does not know (e.g. written by a newer panto). */
  | { kind: "unknown"; type: string }
  /** `json` says whether the line was at least valid JSON (a torn write never is). */
  | { kind: "invalid"; reason: string; json: boolean };

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** Whether `value` is a list of objects whose `keys` are all text (pinned notes, restored facts). */
function isTextRecords(value: unknown, keys: readonly string[]): boolean {
  return (
    Array.isArray(value) &&
    value.every((item) => isObject(item) && keys.every((key) => typeof item[key] === "string"))
  );
}

/** A task list carried on a compaction: items with text content and a known status. */
function isTodoList(value: unknown): boolean {
  return (
    isTextRecords(value, ["content", "status"]) &&
    (value as JsonObject[]).every((item) => (TODO_STATUSES as readonly unknown[]).includes(item.status))
  );
}

function checkCompaction(value: JsonObject): string | undefined {
  if (typeof value.summary !== "string") return "compaction entry without a summary";
  if (typeof value.trigger !== "string") return "compaction entry without a trigger";
  // Replay, the export and /session read these without checking again (a fuzz find: pins: 2).
  if (value.pins !== undefined && !isTextRecords(value.pins, ["id", "text"]))
    return "compaction entry whose pins are not a list of notes";
  if (value.restored !== undefined && !isTextRecords(value.restored, ["kind", "text"]))
    return "compaction entry whose restored facts are not a list of facts";
  if (
    value.skills !== undefined &&
    !(Array.isArray(value.skills) && value.skills.every((name) => typeof name === "string"))
  )
    return "compaction entry whose skills are not a list of names";
  if (value.todos !== undefined && !isTodoList(value.todos))
    return "compaction entry whose todos are not a list of task list items";
  if (value.keptMessages !== undefined && !isCount(value.keptMessages))
    return "compaction entry whose keptMessages is not a count";
  if (
    value.clearings !== undefined &&
    !(
      Array.isArray(value.clearings) &&
      value.clearings.every(
        (item) =>
          isObject(item) &&
          typeof item.id === "string" &&
          isClearedResults(item.results) &&
          item.results.every((result) => result.copy === undefined || isCount(result.copy)),
      )
    )
  )
    return "compaction entry whose clearings are not a list of clearings";
  return undefined;
}

function checkMessage(value: JsonObject): string | undefined {
  const problem = messageProblem(value.message);
  if (problem !== undefined) return `message entry whose ${problem}`;
  if (value.keptBy !== undefined && typeof value.keptBy !== "string")
    return "message entry whose keptBy is not an entry id";
  return undefined;
}

function checkTurnFailed(value: JsonObject): string | undefined {
  if (typeof value.firstEntryId !== "string") return "turn-failed entry without firstEntryId";
  if (typeof value.error !== "string") return "turn-failed entry without an error text";
  return undefined;
}

function checkCompactionFailed(value: JsonObject): string | undefined {
  if (!Array.isArray(value.attempts) || !value.attempts.every(isAttempt))
    return "compaction-failed entry without a list of attempts";
  return undefined;
}

function isAttempt(value: unknown): boolean {
  return isObject(value) && typeof value.model === "string" && typeof value.message === "string";
}

function isPositiveCount(value: unknown): boolean {
  return isCount(value) && (value as number) > 0;
}

function checkWindow(value: JsonObject): string | undefined {
  if (typeof value.model !== "string") return "window entry without a model";
  if (!isPositiveCount(value.contextWindow))
    return "window entry whose contextWindow is not a positive count";
  for (const key of ["requestTokens", "estimatedTokens"] as const) {
    if (value[key] !== undefined && !isPositiveCount(value[key]))
      return `window entry whose ${key} is not a positive count`;
  }
  return undefined;
}

/** Whether `value` is a list of cleared results (what replay substitutes without checking again). */
function isClearedResults(value: unknown): value is Array<Record<string, unknown>> {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        isObject(item) &&
        typeof item.toolCallId === "string" &&
        typeof item.toolName === "string" &&
        typeof item.stub === "string" &&
        isCount(item.tokens),
    )
  );
}

function checkClearing(value: JsonObject): string | undefined {
  if (!isClearedResults(value.results))
    return "clearing entry whose results are not a list of cleared results";
  if (!isCount(value.tokensBefore) || !isCount(value.tokensAfter))
    return "clearing entry whose tokensBefore or tokensAfter is not a count";
  return undefined;
}

function checkUnclear(value: JsonObject): string | undefined {
  if (typeof value.clearingId !== "string") return "unclear entry without a clearingId";
  if (!isCount(value.tokensBefore) || !isCount(value.tokensAfter))
    return "unclear entry whose tokensBefore or tokensAfter is not a count";
  return undefined;
}

function checkKnownEntry(value: JsonObject): string | undefined {
  switch (value.type) {
    case "pin":
      return typeof value.text === "string" ? undefined : "pin entry without a text";
    case "unpin":
      return typeof value.pinId === "string" ? undefined : "unpin entry without a pinId";
    case "uncompact":
      return typeof value.compactionId === "string" ? undefined : "uncompact entry without a compactionId";
    case "compaction-failed":
      return checkCompactionFailed(value);
    case "model":
      return typeof value.model === "string" && value.model.includes("/")
        ? undefined
        : "model entry without a provider/model";
    case "message":
      return checkMessage(value);
    case "compaction":
      return checkCompaction(value);
    case "turn-failed":
      return checkTurnFailed(value);
    case "window":
      return checkWindow(value);
    case "sandbox":
      return typeof value.mode === "string" && typeof value.network === "boolean"
        ? undefined
        : "sandbox entry without a mode and network";
    case "checkpoint":
      return checkCheckpointEntry(value);
    case "rewind":
      return checkRewindEntry(value);
    case "clearing":
      return checkClearing(value);
    case "unclear":
      return checkUnclear(value);
    case "note":
      return typeof value.kind === "string" && typeof value.text === "string"
        ? undefined
        : "note entry without a kind and a text";
    default:
      return undefined;
  }
}

/** Parses one entry line. Never throws: a bad line is reported, and the caller decides how loudly. */
export function parseSessionLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "invalid", reason: "not valid JSON", json: false };
  }
  if (!isObject(value) || typeof value.type !== "string")
    return { kind: "invalid", reason: "not an entry object", json: true };
  if (!ENTRY_TYPES.has(value.type)) return { kind: "unknown", type: value.type };
  if (typeof value.id !== "string")
    return { kind: "invalid", reason: `${value.type} entry without an id`, json: true };
  const problem = checkKnownEntry(value);
  if (problem !== undefined) return { kind: "invalid", reason: problem, json: true };
  // An error code from a newer panto reads as "other" in memory; the file keeps what it says.
  if (value.type === "turn-failed" && !isErrorCode(value.code)) value.code = "other";
  if (value.type === "compaction-failed")
    for (const attempt of value.attempts as JsonObject[])
      if (!isErrorCode(attempt.code)) attempt.code = "other";
  return { kind: "entry", entry: value as unknown as SessionEntry };
}
