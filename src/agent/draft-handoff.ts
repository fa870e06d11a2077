import { readFile } from "node:fs/promises";
import { summariseWithFallback } from "../compaction/index.js";
import type { ModelClient } from "../core/index.js";
import { optional } from "../core/index.js";
import {
  composeHandoff,
  type HandoffSource,
  handoffContext,
  handoffRequest,
  handoffTemplate,
} from "../handoff/handoff-draft.js";
import { HANDOFF_PROMPT_PATH } from "../handoff/handoff-prompt-path.js";
import type { Session } from "../session/index.js";
import { flaggedTodos } from "../todos/index.js";
import { effectiveNumbering } from "./compaction-numbering.js";
import { summaryRequester } from "./summary-requester.js";

/** What drafting a handoff needs of the run. */
export interface HandoffDeps {
  session: Session;
  /** "provider/model" of the chat; drafts are written as summaries are (compaction model first). */
  activeModel: string;
  compactionModel?: string;
  createClient: (modelId: string) => ModelClient;
}

/** A handoff's first prompt for the new session, and who wrote its sections. */
export interface HandoffDraft {
  text: string;
  goal: string;
  /** "provider/model" that wrote the sections; undefined when the user writes them (`--edit`). */
  model?: string;
}

/** The session now as a handoff sees it: its context, the ledger so far, its turn numbers, its pins. */
export async function handoffSource(session: Session): Promise<HandoffSource> {
  const numbering = await effectiveNumbering(session);
  const base = session.activeCompaction();
  return {
    header: session.header,
    path: session.path,
    context: handoffContext(session.effectiveContext(), base),
    ...optional("previousLedger", base?.ledger),
    ...optional("numbering", numbering),
    pins: session.pins().map((pin) => pin.text),
    todos: await flaggedTodos(session),
  };
}

/**
 * `/handoff GOAL`: asks the model (the compaction model first, then the active one, as a summary
 * is asked for) to write the sections of the new session's first prompt, and composes it with the
 * goal, the pinned notes and the ledger. Writes nothing. `edit: true` (`/handoff --edit`) makes no
 * model call: the sections are left for the user to write.
 */
export async function draftHandoff(
  deps: HandoffDeps,
  goal: string,
  options: { edit?: boolean; signal?: AbortSignal } = {},
): Promise<HandoffDraft> {
  const source = await handoffSource(deps.session);
  if (options.edit === true) return { text: composeHandoff(source, goal, handoffTemplate()), goal };
  const request = handoffRequest(source, goal, await readFile(HANDOFF_PROMPT_PATH, "utf8"));
  const result = await summariseWithFallback({
    request,
    activeModel: deps.activeModel,
    summarise: summaryRequester(deps.createClient),
    ...optional("compactionModel", deps.compactionModel),
    ...optional("signal", options.signal),
  });
  if (!result.ok) throw result.error;
  return { text: composeHandoff(source, goal, result.summary), goal, model: result.model };
}
