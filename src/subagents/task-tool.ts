import type { Tool, ToolOutput } from "../tools/index.js";
import type { AgentDefinition } from "./agent-definition.js";
import type { AgentDefinitions } from "./load-agent-definitions.js";
import { ParallelLimit } from "./parallel-limit.js";
import type { TaskEnvironment } from "./run-task.js";

/** Task calls of one tool round that run at once, unless config `max_parallel_tasks` says otherwise. */
export const DEFAULT_MAX_PARALLEL_TASKS = 4;

/** A child runs for as long as its work takes; this only stops one that hangs for good. */
const TASK_DEADLINE_MS = 6 * 60 * 60 * 1000;

/**
 * The `task` tool: hands a self-contained job to a child agent with its own context and session
 * and returns its report (see runTask). Calls in one tool round run in parallel, at most
 * `maxParallel` at once. Starting one needs no permission; what the child does asks as the parent's
 * tools do.
 */
export function createTaskTool(
  environment: TaskEnvironment,
  definitions: AgentDefinitions,
  maxParallel = DEFAULT_MAX_PARALLEL_TASKS,
): Tool {
  const limit = new ParallelLimit(maxParallel);
  return {
    definition: {
      name: "task",
      description: taskDescription(definitions.agents),
      parameters: {
        type: "object",
        properties: {
          description: { type: "string", description: "A short (3-8 word) label for the task." },
          prompt: {
            type: "string",
            description: "The complete task: what to find or do, and what the report must contain.",
          },
          agent: { type: "string", description: "The agent to run (default: general)." },
        },
        required: ["prompt"],
      },
    },
    kind: "read",
    concurrent: true,
    deadlineMs: TASK_DEADLINE_MS,
    execute: async (args, context): Promise<ToolOutput> => {
      const prompt = typeof args.prompt === "string" ? args.prompt.trim() : "";
      if (prompt === "") return failure("task needs a non-empty `prompt`.");
      const agent = pickAgent(args.agent, definitions);
      if (typeof agent === "string") return failure(agent);
      const description =
        typeof args.description === "string" && args.description.trim() !== "" ? args.description : prompt;
      // The subagent runner (an agent of its own) is loaded by the first task, not at every start.
      const { runTask } = await import("./run-task.js");
      return limit.run(() =>
        runTask(environment, {
          prompt,
          description,
          agent,
          toolCallId: context.callId ?? "",
          signal: context.signal,
        }),
      );
    },
  };
}

/** The definition asked for, undefined for the general agent, or the error text for a bad name or file. */
function pickAgent(name: unknown, definitions: AgentDefinitions): AgentDefinition | undefined | string {
  if (name === undefined || name === "" || name === "general") return undefined;
  if (typeof name !== "string") return "`agent` must be a name.";
  const found = definitions.agents.find((agent) => agent.name === name);
  if (found !== undefined) return found;
  const broken = definitions.errors.find((error) => error.file.endsWith(`/${name}.md`));
  if (broken !== undefined) return `Agent "${name}" cannot run: ${broken.message}`;
  const known = ["general", ...definitions.agents.map((agent) => agent.name)].join(", ");
  return `Unknown agent "${name}". Agents: ${known}.`;
}

function taskDescription(agents: readonly AgentDefinition[]): string {
  const lines = [
    "Hand a self-contained task (search the codebase, investigate a question, review a change) to a",
    "child agent with its own context. It works with the tools, then you get its report: its final",
    "answer, the files it read and changed, and the commands it ran. Use it to keep long explorations",
    "out of your own context. Several task calls in one reply run in parallel. The child sees only",
    "`prompt`: say everything it needs.",
    "Agents:",
    "- general: your tools (except task) and your instructions.",
    ...agents.map((agent) => `- ${agent.name}: ${agent.description.replace(/\s+/g, " ")}`),
  ];
  return lines.join("\n");
}

function failure(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: true };
}
