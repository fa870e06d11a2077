import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { CommandOutcome } from "../runtime/command-outcome.js";
import { describeOutcome } from "../runtime/outcome-text.js";
import type { CompactionReporter } from "./compaction-reporter.js";
import { agentText, type SessionOutput } from "./update-sender.js";

/** What reporting a command's outcome needs of its session. */
export interface OutcomeDeps {
  out: SessionOutput;
  newId: () => string;
  compactions: CompactionReporter;
  usage: () => Promise<SessionUpdate | undefined>;
  /** The compaction in effect now (after `/summary edit`): its entry id, text and the one it edited. */
  activeSummary: () => { id: string; summary: string; editedFrom?: string } | undefined;
  /** The model or mode changed: the session's config options are sent again. */
  configChanged: () => void;
}

/**
 * A slash command's outcome, as the editor sees it: its text as an agent message whose
 * `_meta["panto/outcome"]` carries the outcome as data (`type` names it: "pinned", "uncompacted",
 * "compaction-preview", ...), so a client can tell each apart without reading prose. A compaction
 * run is the compaction reporter's (its events came first); `/uncompact` and `/summary edit` also
 * patch or add the compaction entity, and everything that changes the context or the model is
 * followed by a `usage_update`.
 */
export function reportOutcome(name: string, outcome: CommandOutcome, deps: OutcomeDeps): void {
  const { out, compactions } = deps;
  switch (outcome.type) {
    case "compacted":
      // The compaction events already said it all (entity or text).
      return;
    case "compaction-failed":
      // A compaction that ran was reported by its events; one refused before it started was not.
      if (outcome.blocked === true) compactions.refused(outcome);
      return;
    case "uncompacted":
      compactions.undone(outcome);
      out.later(deps.usage);
      break;
    case "summary-edited": {
      const active = deps.activeSummary();
      if (active !== undefined) compactions.edited(active.id, active.summary, active.editedFrom);
      out.later(deps.usage);
      break;
    }
    case "model-switched":
      deps.configChanged();
      out.later(deps.usage);
      break;
    case "exit":
      return;
  }
  out.send(agentText(deps.newId(), outcomeText(outcome), { "panto/outcome": { command: name, ...outcome } }));
}

/** The outcome's text; a failure as "Error: ..." (a command's error is shown, not thrown). */
export function outcomeText(outcome: CommandOutcome): string {
  const report = describeOutcome(outcome);
  if (report.error === undefined) return report.text;
  return report.text === ""
    ? `Error: ${report.error.message}`
    : `${report.text}\nError: ${report.error.message}`;
}
