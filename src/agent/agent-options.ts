import type { CheckpointRecorder } from "../checkpoints/index.js";
import type { ClearingSettings } from "../compaction/index.js";
import type {
  ImageBlock,
  ModelClient,
  PantoError,
  SandboxRecord,
  TextBlock,
  ToolCallBlock,
} from "../core/index.js";
import type { AgentHooks } from "../hooks/index.js";
import type { ToolSandbox } from "../sandbox/index.js";
import type { Session } from "../session/index.js";
import type { FileAccess, Tool } from "../tools/index.js";
import type { AgentEvent } from "./agent-events.js";

/** What an Agent is built from: its session, model, tools, prompts and the caller's callbacks. */
export interface AgentOptions {
  session: Session;
  /** "provider/model" */
  model: string;
  createClient: (modelId: string) => ModelClient;
  tools: Tool[];
  systemPrompt: string;
  /** The resolved COMPACTION.md text. */
  compactionPrompt: string;
  keepVerbatimTokens: number;
  compactionModel?: string;
  /** Check each summary for the paths, commands and errors it left out and restore them (default true). */
  restoreFacts?: boolean;
  maxOutputTokens?: number;
  /**
   * Asked before a call that needs the user's yes: a write, edit or exec tool outside a sandbox (or
   * inside one configured to ask), and every escape from the sandbox (`request.kind` "escape", never
   * to be covered by an earlier "always").
   */
  approve: (call: ToolCallBlock, tool: Tool, request: ApprovalRequest) => Promise<ApprovalVerdict>;
  /**
   * Config "permissions" (src/permissions, judged by the runtime): a deny refuses the call in every
   * mode, an ask asks even where the mode would not, an allow runs it without a question (an escape
   * from the sandbox is still asked). Absent without rules.
   */
  permissionRules?: (call: ToolCallBlock, tool: Tool) => RuleVerdict | undefined;
  /**
   * Checked when each call runs, after the PreToolUse hooks and before the permission rules (plan
   * mode, in the runtime): `refuse` makes the call's result an error with that text; `sandbox` runs
   * it in that sandbox in place of `sandbox`. Undefined: the call goes on as usual. The tool
   * definitions the model sees never change with it.
   */
  restrictTool?: (call: ToolCallBlock, tool: Tool) => Promise<ToolRestriction | undefined>;
  /** The rule that denies reading a file, for the searches' results (see `ToolContext.readDenied`). */
  readDenied?: (path: string) => string | undefined;
  onEvent: (event: AgentEvent) => void;
  /**
   * Whether `pin`, `unpin`, `uncompact`, `editSummary` and `previewCompaction` also report what they
   * return as events (`pinned`, `unpinned`, `compaction-undone`, `summary-edited`,
   * `compaction-preview`; default true). panto's commands return it as their outcome and turn this
   * off, so one fact is not said twice. An undo by overflow recovery is reported either way.
   */
  controlEvents?: boolean;
  cwd: string;
  /**
   * Config `tool_deadline_ms`: how long a call of a tool other than bash may run before it is
   * abandoned (default TOOL_DEADLINE_MS). Bash keeps its own timeout, which the model sets per call.
   */
  toolDeadlineMs?: number;
  /** Config "hooks", when any are configured. */
  hooks?: AgentHooks;
  /** How the file tools reach text files (an editor's buffers); absent, the local file system. */
  files?: FileAccess;
  /** The sandbox the model's tools run in; absent with `--sandbox full`. */
  sandbox?: ToolSandbox;
  /** How the tools are confined (full included), written to the session with the first prompt. */
  sandboxRecord?: SandboxRecord;
  /** Config `clearing` with its defaults; absent: old tool results are never cleared. */
  clearing?: ClearingSettings;
  /**
   * Config `compact_when_cold`, a fraction of a known window: at the first request after the
   * prompt cache went cold (`clearing.cache_ttl_seconds` since the session's latest request), a
   * context past it is compacted first (trigger "cold-cache"), with the summary prepared ahead when
   * it covers the turns. Absent: never.
   */
  compactWhenCold?: number;
  /**
   * The known context window of a model (learned, reported by the server, configured, or published),
   * for clearing's default trigger (half of it); absent or undefined: none known.
   */
  contextWindow?: (modelId: string) => Promise<number | undefined>;
  /** Records what each tool call changes (checkpoints for rewinds); none: nothing is recorded. */
  checkpoints?: CheckpointRecorder;
  /**
   * Lines the model is told with its next request (background tasks that ended), taken once each:
   * added as a text block to the next user message or the next round of tool results, so the
   * session records them and a resume replays the same request.
   */
  notes?: () => readonly string[];
}

/**
 * Why a call needs the user's yes: `tool`, as any write, edit or exec call; `escape`, a call asking
 * to run outside the sandbox, with the model's reason.
 */
/**
 * `rule`: a permission rule asks for this call (it names the rule and its file), so it is asked
 * whatever the mode, and refused where nobody can be asked.
 */
export type ApprovalRequest = { kind: "tool"; rule?: string } | { kind: "escape"; reason: string };

/**
 * What `restrictTool` does to one call: refuse it with this text, or run it in this sandbox, with
 * `failureNote` added to its result when it fails (why it may have failed: the sandbox's mode).
 */
export type ToolRestriction = { refuse: string } | { sandbox: ToolSandbox; failureNote?: string };

/** What the configured permission rules say of one call: the verdict and the rule, named with its file. */
export interface RuleVerdict {
  verdict: "deny" | "ask" | "allow";
  rule: string;
}

/** The answer to a permission question; a denial may carry the user's reason, which the model is told. */
export type ApprovalVerdict = "allow" | "deny" | { deny: true; reason: string };

/**
 * `stopped: "max-requests"`: the prompt's `maxRequests` model answers were used up while the model
 * still wanted tools; `text` is the last answer's text, and the turn stays in the context.
 */
export type PromptResult =
  | { ok: true; text: string; stopped?: "max-requests" }
  /**
   * `keptInterrupted`: an interrupted turn (prompt, partial answer, tool results) stays in the
   * context. `blocked`: a UserPromptSubmit hook refused the prompt; nothing was written.
   */
  | { ok: false; error: PantoError; hint?: string; keptInterrupted?: boolean; blocked?: boolean };

/** A prompt with more than text: its text and images, in order, as the user message holds them. */
export type PromptContent = ReadonlyArray<TextBlock | ImageBlock>;

export interface PromptOptions {
  signal?: AbortSignal;
  /** Model requests this prompt may make (an overflow's retry of the same request not counted). */
  maxRequests?: number;
}
