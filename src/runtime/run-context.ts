import type { Agent } from "../agent/index.js";
import type { ModelPrice, ModelSettings } from "../config/index.js";
import type { ModelClient, SandboxMode, SandboxRecord } from "../core/index.js";
import type { McpServerSpec, McpServers } from "../mcp/index.js";
import type { ToolSandbox } from "../sandbox/index.js";
import type { ForkedSession, Session } from "../session/index.js";
import type { Skill } from "../skills/index.js";
import type { BackgroundTasks, Tool } from "../tools/index.js";
import type { ApprovalMode, ApprovalPolicy } from "./approval-policy.js";
import type { CommandOutcome } from "./command-outcome.js";
import type { CommandInfo, CommandRegistry } from "./command-registry.js";
import type { FrontEnd } from "./front-end.js";
import type { RunEvents } from "./run-events.js";
import type { TurnResult, UserInput } from "./turn-result.js";

/** What a run is started with, whichever front-end starts it. */
export interface RunOptions {
  /** "provider/model" (-m); else the resumed session's, config's, or the default for a key. */
  model?: string;
  /** Use or create exactly this session file (relative to the run's directory). */
  session?: string;
  /** Resume the session this id prefix, file name prefix or path names (-r). */
  resume?: string;
  /** Continue this project's latest session (-c). */
  continue?: boolean;
  /** Every tool call runs without a question (--allow-tools). */
  allowTools?: boolean;
  /** How freely tool calls run at start (default "ask"; `allowTools` means "allow-all"). */
  approvalMode?: ApprovalMode;
  /** Start in plan mode (--plan): leaving it returns to the mode above. */
  plan?: boolean;
  /**
   * MCP servers the front-end adds beside the configured ones (an editor's, from ACP
   * `session/new`); one with a configured server's name replaces it for this run.
   */
  mcpServers?: readonly McpServerSpec[];
  /** What a command prepares is started without a question (--yes): `/handoff`'s new session. */
  yes?: boolean;
  /** How the model's tools are confined (--sandbox); else config "sandbox", else workspace-write. */
  sandbox?: SandboxMode;
  /**
   * Where nobody can be asked (print, JSON), run the model's requests to leave the sandbox instead
   * of refusing them (--allow-unsandboxed). Where someone can, escapes are always asked.
   */
  allowUnsandboxed?: boolean;
  /** --max-turns: model requests a prompt may make; each child of the `task` tool gets as many. */
  maxTurns?: number;
  /** Start a new session from this one (id prefix, file name prefix or path) after turn `turn` (default: all of it). */
  fork?: { session: string; turn?: number };
}

/** What a run's users see of its context watch (`ContextWatch`, which reads the run itself). */
export interface ContextWatcher {
  /** The context changed in a way no event shows: warnings re-arm, a stale prepared compaction is dropped. */
  changed(options?: { historyRewritten?: boolean; turnEnded?: boolean }): void;
  /** Resolves once every check asked for so far is done (its warning reported). */
  settled(): Promise<void>;
}

/** A running session: the agent, its session file, and what commands and front-ends need to see. */
export interface RunContext {
  readonly agent: Agent;
  /**
   * Context warnings and the compaction prepared before the wall. Call `contextWatch.changed()`
   * after changing the context in a way no event shows (a clearing): warnings re-arm, and a
   * prepared compaction the change makes stale is dropped.
   */
  readonly contextWatch: ContextWatcher;
  /** --max-turns: model requests one prompt may make (a custom command's prompt too); undefined: no limit. */
  readonly maxTurns: number | undefined;
  readonly session: Session;
  /** True when the session file already held entries before this run. */
  readonly resumed: boolean;
  /** Said once at startup (where the model came from when it was not configured or was restored). */
  readonly notices: readonly string[];
  /** Config "model" and "compaction_model", for `/model`. */
  readonly configuredModels: readonly string[];
  /** Config "compaction_model": it writes summaries and handoff drafts first. */
  readonly compactionModel: string | undefined;
  /** The (memoised) client for a "provider/model" id; throws for a bad id or a missing key. */
  createClient(modelId: string): ModelClient;
  readonly tools: readonly Tool[];
  readonly cwd: string;
  readonly pantoHome: string;
  readonly projectRoot: string;
  /** How the model's tools are confined in this run (mode "full": not at all). */
  readonly sandbox: SandboxRecord;
  /** The sandbox itself, which `@path` checks too; undefined in mode full. */
  readonly toolSandbox: ToolSandbox | undefined;
  /** The model's background commands (`bash` with run_in_background): `/tasks`, the status line. */
  readonly tasks: BackgroundTasks;
  /** The MCP servers, when any are configured (`/mcp`). */
  readonly mcp: McpServers | undefined;
  /** The system prompt the next request carries (its mode section follows plan mode). */
  readonly systemPrompt: string;
  /** The Agent Skills found at start (listed in the system prompt, loaded by the `skill` tool), by name. */
  readonly skills: readonly Skill[];
  /** The active model's client (for what its server reports, such as the context window). */
  modelClient(): ModelClient;
  /** Config "prices" by "provider/model", for `/cost`. */
  readonly prices: Record<string, ModelPrice> | undefined;
  /** Config "models" by "provider/model" (a configured context window, shown only). */
  readonly models: Record<string, ModelSettings> | undefined;
  /** Replaces every credential panto knows (environment and config) in text it writes. */
  readonly redact: (text: string) => string;
  /** Everything the run reports. */
  readonly events: RunEvents;
  /** Which tool calls run without a question, and the "always" answers given so far. */
  readonly approvals: ApprovalPolicy;
  /** The slash commands of this run. */
  readonly commands: CommandRegistry<RuntimeCommand>;
  /** What the front-end running this run can do (its editor, for one). */
  readonly frontEnd: FrontEnd;
  /**
   * Runs one input of the user's (a slash command, `!COMMAND`, or a prompt with its `@PATH`s,
   * stdin and attachments; --max-turns applies): the one way in for every front-end. What happens
   * meanwhile is on `events`; how it ended is the result, which the front-end shows its own way.
   */
  submit(input: UserInput | string, options?: { signal?: AbortSignal }): Promise<TurnResult>;
  /**
   * Runs "/name args" (name or alias): reports the outcome as a `command` event and returns it.
   * An unknown name is a usage failure that suggests the nearest command.
   */
  runCommand(command: { name: string; args: string }, signal?: AbortSignal): Promise<CommandOutcome>;
  /** Runs the SessionStart hooks (source "startup" or "resume"); each front-end calls it once it has said the session started. */
  sessionStart(): Promise<void>;
  /** Closes the current session and continues in a new, empty session file with the same model. */
  startNewSession(): Promise<void>;
  /**
   * Like startNewSession, but the new session's header names the current one as its parent (it
   * stays on disk, resumable), with `relation`; recall in the new session searches the parent too.
   */
  startChildSession(relation: "handoff"): Promise<void>;
  /** --yes: what a command prepares is started without a question. */
  readonly yes: boolean;
  /** The fork this run started in (`--fork`), if it did. */
  readonly fork: ForkedSession | undefined;
  /**
   * Continues in a new session file started from the current one after turn `turn` (default: all
   * of it), with the same model; the current file is left as it is.
   */
  forkSession(turn?: number): Promise<ForkedSession>;
  close(): Promise<void>;
}

/** Runs one slash command on a run; `args` is what followed the name, trimmed. */
export type CommandHandler = (
  run: RunContext,
  args: string,
  signal: AbortSignal | undefined,
) => Promise<CommandOutcome>;

/** A slash command a run can execute: its listing and its handler. */
export interface RuntimeCommand extends CommandInfo {
  execute: CommandHandler;
}
