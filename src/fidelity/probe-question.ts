import type { FidelityFact, FidelityFactKind } from "./fidelity-fact.js";
import { FIDELITY_FACT_KINDS } from "./fidelity-fact.js";

/** One question per kind of fact; its answer lists the facts of that kind. */
const QUESTIONS: Record<FidelityFactKind, string> = {
  path: "PATHS: Which files and folders did the tools read, write, edit, list or search?",
  command: "COMMANDS: Which shell commands were run?",
  error: "ERRORS: Which errors did tools report? Give the first line of each error message.",
  instruction: "INSTRUCTIONS: What did the user explicitly ask for or instruct you to do?",
};

const OPENING =
  "Before you go on, answer these questions about this conversation so far, from what you know of it. " +
  "Do not call any tool and do not do any work: answer in plain text. Under each heading, give every " +
  "item you know, one per line, with paths, commands and error messages written exactly as they were; " +
  'write "none" under a heading when you know of none.';

const RECALL_OPENING =
  "Before you go on, answer these questions about this conversation so far. You may call the recall " +
  "tool to look up what the summary leaves out (search the history, or read turns back by their " +
  "number), but call no other tool and do no work; then answer in plain text. Under each heading, " +
  "give every item you know, one per line, with paths, commands and error messages written exactly " +
  'as they were; write "none" under a heading when you know of none.';

/**
 * The probe: one user message asking, for each kind of fact the check measures, for every fact of
 * that kind. It names no fact itself, so an answer can only come from the context before it
 * (and, with `recall`, from what the recall tool finds in the session file: the model is invited to
 * use it and no other tool).
 */
export function probeQuestion(facts: readonly FidelityFact[], options: { recall?: boolean } = {}): string {
  const kinds = FIDELITY_FACT_KINDS.filter((kind) => facts.some((fact) => fact.kind === kind));
  const opening = options.recall === true ? RECALL_OPENING : OPENING;
  return [opening, "", ...kinds.map((kind) => QUESTIONS[kind])].join("\n");
}
