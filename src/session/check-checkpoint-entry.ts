/**
 * Validation of the checkpoint and rewind entries' fields, for parseSessionLine: a rewind reads
 * these to decide what to write into the user's files, so a damaged one must be refused, not guessed.
 */

type JsonObject = Record<string, unknown>;

const OID = /^[0-9a-f]{40}$/;
const MODES = new Set(["100644", "100755", "120000"]);
const SCOPES = new Set(["both", "code", "conversation"]);
const OUTCOMES = new Set(["restored", "unchanged", "conflict", "overwritten", "skipped", "failed"]);

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isVersion(value: unknown): boolean {
  if (value === null) return true;
  return (
    isObject(value) &&
    typeof value.oid === "string" &&
    OID.test(value.oid) &&
    typeof value.mode === "string" &&
    MODES.has(value.mode) &&
    isCount(value.size) &&
    (value.perm === undefined || (isCount(value.perm) && (value.perm as number) <= 0o7777))
  );
}

function isChange(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.path === "string" &&
    value.path !== "" &&
    isVersion(value.before) &&
    isVersion(value.after)
  );
}

function isUncovered(value: unknown): boolean {
  return isObject(value) && typeof value.path === "string" && typeof value.reason === "string";
}

function isOutcome(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.path === "string" &&
    typeof value.outcome === "string" &&
    OUTCOMES.has(value.outcome)
  );
}

function checkFiles(kind: string, value: JsonObject): string | undefined {
  if (!Array.isArray(value.files) || !value.files.every(isChange))
    return `${kind} entry whose files are not a list of {path, before, after} with valid blob ids and modes`;
  if (value.files.length > 0 && typeof value.root !== "string") return `${kind} entry with files but no root`;
  return undefined;
}

/** Problem with a checkpoint entry's fields, or undefined when it is sound. */
export function checkCheckpointEntry(value: JsonObject): string | undefined {
  if (typeof value.toolCallId !== "string") return "checkpoint entry without a toolCallId";
  if (typeof value.tool !== "string") return "checkpoint entry without a tool name";
  if (typeof value.root !== "string") return "checkpoint entry without a root";
  if (value.scope !== "file" && value.scope !== "workspace")
    return 'checkpoint entry whose scope is not "file" or "workspace"';
  if (!Array.isArray(value.uncovered) || !value.uncovered.every(isUncovered))
    return "checkpoint entry whose uncovered is not a list of {path, reason}";
  if (value.error !== undefined && typeof value.error !== "string")
    return "checkpoint entry whose error is not a text";
  return checkFiles("checkpoint", value);
}

/** Problem with a rewind entry's fields, or undefined when it is sound. */
export function checkRewindEntry(value: JsonObject): string | undefined {
  if (typeof value.firstEntryId !== "string") return "rewind entry without firstEntryId";
  if (typeof value.scope !== "string" || !SCOPES.has(value.scope))
    return 'rewind entry whose scope is not "both", "code" or "conversation"';
  if (!isCount(value.turn)) return "rewind entry whose turn is not a count";
  if (!Array.isArray(value.droppedTurns) || !value.droppedTurns.every(isCount))
    return "rewind entry whose droppedTurns is not a list of turn numbers";
  if (!Array.isArray(value.outcomes) || !value.outcomes.every(isOutcome))
    return "rewind entry whose outcomes are not a list of {path, outcome}";
  return checkFiles("rewind", value);
}
