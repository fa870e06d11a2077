import type { CompactionOutcome } from "../compaction/index.js";
import { type CompactionTrigger, optional, PantoError } from "../core/index.js";
import type { AgentHooks } from "../hooks/index.js";

/** The error a prompt ends with when a UserPromptSubmit hook blocks it, or undefined to go on. */
export async function promptBlockedByHook(
  hooks: AgentHooks | undefined,
  prompt: string,
): Promise<PantoError | undefined> {
  const verdict = await hooks?.userPromptSubmit(prompt);
  if (verdict?.blocked !== true) return undefined;
  return new PantoError("other", `prompt blocked by a UserPromptSubmit hook: ${verdict.reason ?? ""}`);
}

/**
 * Runs the PreCompact hooks; returns the outcome of a manual compaction they blocked (failed, no
 * attempts, nothing written), or undefined to go on. An overflow compaction always goes on.
 */
export async function compactionBlockedByHook(
  hooks: AgentHooks | undefined,
  input: {
    trigger: CompactionTrigger;
    instructions: string | undefined;
    tokensBefore: number;
    keepVerbatimTokens: number;
  },
): Promise<CompactionOutcome | undefined> {
  const verdict = await hooks?.preCompact({
    trigger: input.trigger,
    ...optional("instructions", input.instructions),
    contextTokens: input.tokensBefore,
    keepVerbatimTokens: input.keepVerbatimTokens,
  });
  if (verdict?.blocked !== true) return undefined;
  const error = new PantoError("other", `compaction blocked by a PreCompact hook: ${verdict.reason ?? ""}`);
  return { type: "failed", error, attempts: [], blocked: true };
}
