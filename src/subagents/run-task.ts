import { Agent, type AgentEvent, type AgentOptions, type PromptResult } from "../agent/index.js";
import { optional } from "../core/index.js";
import type { AgentHooks } from "../hooks/index.js";
import {
  newSessionHeader,
  newSessionPath,
  type OpenSessionOptions,
  openSession,
  type Session,
} from "../session/index.js";
import type { Tool, ToolOutput } from "../tools/index.js";
import type { AgentDefinition } from "./agent-definition.js";
import { TaskActivity } from "./task-activity.js";
import { taskReport } from "./task-report.js";

/** Appended to a child's system prompt: its answer is all the parent sees. */
export const TASK_INSTRUCTIONS = [
  "You are working on a task another agent handed you. Work on your own with your tools;",
  "nobody will answer questions. When you are done, reply with a complete, self-contained report:",
  "your findings with the exact paths, names and figures the other agent needs, not a bare summary",
  "such as 'done'. Your final message is all it will see.",
].join(" ");

/** Asked when a child's last message was a tool call (its turn ran out): one request, tools refused. */
export const CONCLUDE_PROMPT =
  "Stop here: no more tool calls. Reply now with your complete report of what you found and did so far.";

/** Requests a child may make for one task when nothing (--max-turns) sets fewer. */
export const DEFAULT_TASK_MAX_REQUESTS = 50;

/** What running one child needs from the parent's run. */
export interface TaskEnvironment {
  /** The parent agent's options now: tools, approvals, sandbox and hooks are inherited from them. */
  parentOptions(): AgentOptions;
  parentSession(): Session;
  /** Where the child's session file goes. */
  pantoHome: string;
  projectRoot: string;
  sessionOptions: Omit<OpenSessionOptions, "header">;
  /** --max-turns: each child gets at most this many requests too. */
  maxTurns?: number;
  /** The checkpoint recorder for the child's own session (what its tools change), when checkpoints are on. */
  checkpointsFor?(session: Session): AgentOptions["checkpoints"];
  /** The parent's approvals, with questions labelled as coming from the child `agent`. */
  approveFor(agent: string): AgentOptions["approve"];
  /** Reports the child's events, under the task's tool-call id. */
  onTaskEvent(event: TaskEvent): void;
}

/** What a front-end sees of a child: its start, each of its agent events, its end. */
export type TaskEvent =
  | { type: "task-started"; toolCallId: string; agent: string; sessionId: string; sessionPath: string }
  | { type: "task-event"; toolCallId: string; agent: string; event: AgentEvent }
  | { type: "task-finished"; toolCallId: string; agent: string; sessionId: string; ok: boolean };

export interface TaskRequest {
  prompt: string;
  description: string;
  agent: AgentDefinition | undefined;
  toolCallId: string;
  signal: AbortSignal | undefined;
}

/**
 * Runs one child agent to its answer in a session of its own (header parent relation "task") and
 * returns the parent's report. The child has the parent's model (unless its definition names one),
 * tools (minus `task`, or the definition's subset), approvals, sandbox and tool hooks, and its own
 * compaction. If its turn ends on a tool call, it is asked once, with tools refused, to conclude.
 */
export async function runTask(environment: TaskEnvironment, request: TaskRequest): Promise<ToolOutput> {
  const parent = environment.parentOptions();
  const parentSession = environment.parentSession();
  const name = request.agent?.name ?? "general";
  const header = newSessionHeader(parent.cwd, {
    id: parentSession.header.id,
    path: parentSession.path,
    relation: "task",
  });
  const session = await openSession(newSessionPath(environment.pantoHome, environment.projectRoot), {
    ...environment.sessionOptions,
    header,
  });
  const base = { toolCallId: request.toolCallId, agent: name };
  environment.onTaskEvent({ type: "task-started", ...base, sessionId: header.id, sessionPath: session.path });
  const activity = new TaskActivity();
  const approve = environment.approveFor(`task ${name}: ${request.description}`);
  // The parent's notes are the parent's to tell (its background tasks' ends), not the child's.
  const { checkpoints: _parentCheckpoints, notes: _parentNotes, ...inherited } = parent;
  const checkpoints = environment.checkpointsFor?.(session);
  const options = childOptions(
    { ...inherited, approve, ...optional("checkpoints", checkpoints) },
    session,
    request,
    (event) => {
      if (event.type === "tool-call") activity.call(event.call);
      if (event.type === "tool-result") activity.result(event.result);
      environment.onTaskEvent({ type: "task-event", ...base, event });
    },
  );
  const limit = Math.min(environment.maxTurns ?? DEFAULT_TASK_MAX_REQUESTS, DEFAULT_TASK_MAX_REQUESTS);
  try {
    const child = new Agent(options);
    let result = await child.prompt(request.prompt, {
      ...optional("signal", request.signal),
      maxRequests: limit,
    });
    const concluded = result.ok && (result.stopped === "max-requests" || result.text.trim() === "");
    if (concluded) result = await conclude(options, child.model, request.signal);
    environment.onTaskEvent({ type: "task-finished", ...base, sessionId: header.id, ok: result.ok });
    const text = taskReport({
      agent: name,
      description: request.description,
      sessionId: header.id,
      sessionPath: session.path,
      answer: result.ok ? result.text : "",
      ...(concluded ? { ending: "concluded-on-request" as const } : {}),
      ...(result.ok
        ? {}
        : { ending: "failed" as const, error: `${result.error.code}: ${result.error.message}` }),
      activity,
    });
    return { content: [{ type: "text", text }], isError: !result.ok };
  } finally {
    await session.close();
  }
}

/** The child's answer to CONCLUDE_PROMPT: one request, any tool call refused without running. */
function conclude(
  options: AgentOptions,
  model: string,
  signal: AbortSignal | undefined,
): Promise<PromptResult> {
  const refusing = options.tools.map(
    (tool): Tool => ({
      definition: tool.definition,
      kind: "read",
      execute: async () => ({
        content: [{ type: "text", text: "Not run: you were asked to conclude without tools." }],
        isError: true,
      }),
    }),
  );
  const agent = new Agent({ ...options, model, tools: refusing });
  return agent.prompt(CONCLUDE_PROMPT, { ...optional("signal", signal), maxRequests: 1 });
}

function childOptions(
  parent: AgentOptions,
  session: Session,
  request: TaskRequest,
  onEvent: (event: AgentEvent) => void,
): AgentOptions {
  const definition = request.agent;
  const systemPrompt = `${definition?.systemPrompt ?? parent.systemPrompt}\n\n${TASK_INSTRUCTIONS}`;
  return {
    ...parent,
    session,
    model: definition?.model ?? parent.model,
    tools: childTools(parent.tools, definition),
    systemPrompt,
    onEvent,
    ...optional("hooks", parent.hooks === undefined ? undefined : toolHooksOnly(parent.hooks)),
  };
}

/**
 * The parent's tools minus `task` (no nesting) and `todo` (the task list is the parent's: a child's
 * call would land in the child's session and change nothing the parent sees), narrowed to the definition's `tools` (any case) when it names some. */
export function childTools(tools: readonly Tool[], definition: AgentDefinition | undefined): Tool[] {
  const allowed = definition?.tools?.map((name) => name.toLowerCase());
  return tools.filter((tool) => {
    const name = tool.definition.name;
    if (name === "task" || name === "todo") return false;
    return allowed === undefined || allowed.includes(name.toLowerCase());
  });
}

/** A child keeps the parent's tool hooks (they guard what runs) but not its prompt, stop or session hooks. */
function toolHooksOnly(hooks: AgentHooks): AgentHooks {
  const pass = async () => ({ blocked: false });
  return {
    sessionStart: async () => {},
    userPromptSubmit: pass,
    preToolUse: (call) => hooks.preToolUse(call),
    postToolUse: (call, result) => hooks.postToolUse(call, result),
    preCompact: pass,
    postCompact: async () => {},
    stop: async () => {},
  };
}
