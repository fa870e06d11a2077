import type { ApprovalRequest } from "../agent/index.js";
import type { PreparedRewind } from "../checkpoints/index.js";
import type { ToolCallBlock } from "../core/index.js";
import type { FileAccess, Tool } from "../tools/index.js";
import type { RulePlace } from "./run-rules.js";

/**
 * What a front-end (the terminal, print mode, JSON mode, an editor protocol) hands a run: the few
 * things only it can do. Everything else (setup, commands, the approval policy, events) is the
 * run's, the same for all of them.
 */
export interface FrontEnd {
  /**
   * Asks the user about one tool call the policy does not already allow. Absent: there is nobody
   * to ask, and such calls are denied (a `tool-denied` event says so).
   */
  askApproval?: ApprovalAsker;
  /** Opens text in the user's editor (`/summary edit`); absent where there is none. */
  editText?: EditText;
  /**
   * How the file tools read and write text files, where the front-end owns the user's buffers (an
   * editor); absent, the local file system.
   */
  files?: FileAccess;
  /**
   * Shows a draft the user may accept as it is, edit first, or refuse (`/handoff`'s first prompt):
   * the text to go on with, or undefined when refused. Absent where nobody can be asked (print and
   * JSON modes: there `--yes` accepts the draft, and without it the draft is only shown).
   */
  reviewDraft?: ReviewDraft;
  /**
   * Lets the user choose a rewind from the session's turns (`/rewind` alone, Esc Esc): where to,
   * what to take back, whether to overwrite conflicts. Absent: `/rewind` alone lists the turns.
   */
  chooseRewind?: ChooseRewind;
  /**
   * The run ends with this one prompt or command (print and JSON modes): nothing will follow a
   * `/clear`, so it starts no session (whose file would never be written).
   */
  oneShot?: boolean;
}

export type ReviewDraft = (draft: string) => Promise<string | undefined>;

/** The user's rewind, worked out but not made; or why there is none. */
export type RewindChoice =
  | { type: "chosen"; prepared: PreparedRewind; force: boolean }
  | { type: "cancelled" }
  | { type: "empty" };

export type ChooseRewind = (sessionPath: string, pantoHome: string) => Promise<RewindChoice>;

/**
 * The user's answer: "once" allows this call, "always" this tool for the rest of the run; a denial
 * may carry the user's reason, which the model is told.
 */
export type ApprovalAnswer =
  | "once"
  | "always"
  | "deny"
  | { deny: true; reason: string }
  /** "Always", as the rules the question suggested (`suggestedRules`), kept where `saveTo` says. */
  | { allowRules: readonly string[]; saveTo: RulePlace };

/**
 * A question as a front-end gets it: the agent's request and, for a tool call a rule can name, the
 * allow rules an "always" would add (see suggestRules), to show and offer to save.
 */
export type AskedRequest = ApprovalRequest & { suggestedRules?: readonly string[] };

/**
 * `request.kind` "escape": the model asks to run the call outside the sandbox, for `request.reason`;
 * the question should say so, and an "always" answer covers only this call. `origin`: who asks when
 * it is not the main agent (a `task` child: "task NAME: description").
 */
export type ApprovalAsker = (
  call: ToolCallBlock,
  tool: Tool,
  request: AskedRequest,
  origin?: string,
) => Promise<ApprovalAnswer>;

/** Edits text in the user's editor and returns the result; rejects with an EditorError when it cannot. */
export type EditText = (text: string) => Promise<string>;

/** Raised when there is no editor to run, or it failed: the user's to fix, nothing was changed. */
export class EditorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditorError";
  }
}
