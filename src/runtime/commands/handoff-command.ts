import { draftHandoff, type HandoffDraft } from "../../agent/index.js";
import { isPantoError, optional } from "../../core/index.js";
import { type CommandOutcome, failed, usageError } from "../command-outcome.js";
import { EditorError } from "../front-end.js";
import type { CommandHandler, RunContext } from "../run-context.js";

/** A step of a handoff: go on with a value, or stop with the command's outcome. */
type Step<T> = { go: T } | { stop: CommandOutcome };

/**
 * `/handoff [--edit] [GOAL]`: drafts the first prompt of a fresh session (the model writes where
 * things stand, decisions, files and commands, open problems; panto adds the goal, the pinned
 * notes and the ledger), lets the user accept, edit or refuse it (the front-end's review; `--yes`
 * accepts; where nobody can be asked and no --yes was given, the draft is only shown), then starts
 * the new session with its header naming this one and sends the draft as its first prompt. With
 * --edit no model is called: the user writes the sections in their editor.
 */
export const runHandoff: CommandHandler = async (run, args, signal) => {
  const edit = /^--edit(\s|$)/.test(args);
  const goal = (edit ? args.slice("--edit".length) : args).trim();
  if (!run.session.hasFile) return usageError("nothing to hand off yet: this session has no entries");
  const drafted = await draft(run, goal, edit, signal);
  if ("stop" in drafted) return drafted.stop;
  const reviewed = await review(run, drafted.go, edit);
  if ("stop" in reviewed) return reviewed.stop;
  const text = reviewed.go;
  const parent = { id: run.session.header.id, path: run.session.path };
  const base = { goal, draft: text, ...optional("model", drafted.go.model) };
  await run.startChildSession("handoff");
  const session = { id: run.session.header.id, path: run.session.path };
  run.events.emit({ type: "handoff", ...base, parent, session });
  const result = await run.agent.prompt(text, optional("signal", signal));
  if (!result.ok)
    return failed(
      result.error.code === "aborted" ? "interrupted" : "failure",
      result.error.code,
      `the new session ${session.id.slice(0, 8)} (${session.path}) was started with the handoff, but its first prompt failed: ${result.error.message}`,
    );
  return { type: "handed-off", ...base, parent, session, answer: result.text };
};

/** The draft: the model's, or (--edit) the user's, written in their editor from the template. */
async function draft(
  run: RunContext,
  goal: string,
  edit: boolean,
  signal: AbortSignal | undefined,
): Promise<Step<HandoffDraft>> {
  const deps = {
    session: run.session,
    activeModel: run.agent.model,
    createClient: (id: string) => run.createClient(id),
    ...optional("compactionModel", run.compactionModel),
  };
  const { editText } = run.frontEnd;
  if (edit && editText === undefined)
    return stop(
      usageError("/handoff --edit needs an editor, and there is none here; nothing was started", "editor"),
    );
  try {
    const drafted = await draftHandoff(deps, goal, { edit, ...optional("signal", signal) });
    if (!edit || editText === undefined) return { go: drafted };
    return { go: { ...drafted, text: await editText(`${drafted.text}\n`) } };
  } catch (error) {
    if (error instanceof EditorError) return stop(usageError(error.message, "editor"));
    if (!isPantoError(error)) throw error;
    const status = error.code === "aborted" ? "interrupted" : "failure";
    return stop(failed(status, error.code, `the handoff could not be drafted: ${error.message}`));
  }
}

/**
 * The text to start the new session with: --yes takes the draft as it is; a draft the user wrote
 * in the editor (--edit) was reviewed there; otherwise the front-end's review asks. Where nobody
 * can be asked and --yes was not given, the draft is only shown and nothing is started.
 */
async function review(run: RunContext, drafted: HandoffDraft, edited: boolean): Promise<Step<string>> {
  const text = drafted.text.trim();
  if (text === "") return stop(failed("failure", "usage", "the handoff draft is empty; nothing was started"));
  const ask = run.frontEnd.reviewDraft;
  if (run.yes || (edited && ask !== undefined)) return { go: text };
  if (ask === undefined) return stop(shown(run, drafted, text));
  try {
    const reviewed = (await ask(text))?.trim();
    return reviewed === undefined || reviewed === "" ? stop({ type: "handoff-cancelled" }) : { go: reviewed };
  } catch (error) {
    if (error instanceof EditorError) return stop(usageError(error.message, "editor"));
    throw error;
  }
}

/** The draft shown where nobody can be asked and --yes was not given: nothing is started. */
function shown(run: RunContext, drafted: HandoffDraft, text: string): CommandOutcome {
  const parent = { id: run.session.header.id, path: run.session.path };
  const model = optional("model", drafted.model);
  run.events.emit({ type: "handoff", goal: drafted.goal, draft: text, ...model, parent });
  return { type: "handoff-drafted", draft: text, goal: drafted.goal, ...model };
}

function stop<T>(outcome: CommandOutcome): Step<T> {
  return { stop: outcome };
}
