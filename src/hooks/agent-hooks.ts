import type { CompactionRecord, CompactionTrigger, ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { triggerName } from "../core/index.js";
import type { HookRunner, HookVerdict } from "./hook-runner.js";

/** Why a session starts: a new one, a resumed one, or `/clear`. */
export type SessionStartSource = "startup" | "resume" | "clear";

/** What PreCompact hooks learn about the compaction about to run. */
export interface PreCompactInput {
  trigger: CompactionTrigger;
  instructions?: string;
  /** The next request's size now, system prompt and tools included (as `/context` gives it). */
  contextTokens: number;
  keepVerbatimTokens: number;
}

/**
 * The points where the agent runs hooks, one call each. Blocking points return a verdict; the others
 * only report. The agent holds this as an optional option: no hooks configured, no object, no cost.
 */
export interface AgentHooks {
  sessionStart(source: SessionStartSource): Promise<void>;
  /** Blocked: the prompt is not sent and not written to the session. */
  userPromptSubmit(prompt: string): Promise<HookVerdict>;
  /** Blocked: the call does not run; the reason is its (error) result, which the model sees. */
  preToolUse(call: ToolCallBlock): Promise<HookVerdict>;
  postToolUse(call: ToolCallBlock, result: ToolResultBlock): Promise<void>;
  /** May block a manual compaction only; an overflow compaction runs whatever the hook says. */
  preCompact(input: PreCompactInput): Promise<HookVerdict>;
  postCompact(record: CompactionRecord, tokensBefore: number, tokensAfter: number): Promise<void>;
  /** After the agent finished answering a prompt (not after a failed or cancelled one). */
  stop(answer: string): Promise<void>;
}

const CAN_BLOCK = { canBlock: true };
const CANNOT_BLOCK = { canBlock: false };

/** The agent's hook points over a runner, with each event's stdin fields (Claude Code's names). */
export function agentHooks(runner: HookRunner): AgentHooks {
  return {
    sessionStart: async (source) => {
      await runner.run("SessionStart", source, { source }, CANNOT_BLOCK);
    },
    userPromptSubmit: (prompt) => runner.run("UserPromptSubmit", undefined, { prompt }, CAN_BLOCK),
    preToolUse: (call) => runner.run("PreToolUse", call.name, toolFields(call), CAN_BLOCK),
    postToolUse: async (call, result) => {
      await runner.run(
        "PostToolUse",
        call.name,
        { ...toolFields(call), tool_response: toolResponse(result) },
        CANNOT_BLOCK,
      );
    },
    preCompact: (input) =>
      runner.run(
        "PreCompact",
        triggerName(input.trigger),
        {
          trigger: triggerName(input.trigger),
          custom_instructions: input.instructions ?? "",
          context_tokens: input.contextTokens,
          keep_verbatim_tokens: input.keepVerbatimTokens,
        },
        // A cold cache's compaction is a saving, not a need: blocked, the context stays as it is.
        input.trigger === "overflow"
          ? { canBlock: false, whyNot: "an overflow compaction cannot be blocked: the request does not fit" }
          : CAN_BLOCK,
      ),
    postCompact: async (record, tokensBefore, tokensAfter) => {
      await runner.run(
        "PostCompact",
        triggerName(record.trigger),
        {
          trigger: triggerName(record.trigger),
          compact_summary: record.summary,
          model: record.model,
          turns_summarised: record.turnsSummarised,
          turns_kept: record.turnsKept,
          tokens_before: tokensBefore,
          tokens_after: tokensAfter,
        },
        CANNOT_BLOCK,
      );
    },
    stop: async (answer) => {
      await runner.run(
        "Stop",
        undefined,
        { stop_hook_active: false, last_assistant_message: answer },
        CANNOT_BLOCK,
      );
    },
  };
}

function toolFields(call: ToolCallBlock): Record<string, unknown> {
  return { tool_name: call.name, tool_input: call.arguments, tool_use_id: call.id };
}

function toolResponse(result: ToolResultBlock): Record<string, unknown> {
  return {
    is_error: result.isError,
    text: result.content
      .map((block) => (block.type === "text" ? block.text : `[image ${block.mediaType}]`))
      .join("\n"),
  };
}
