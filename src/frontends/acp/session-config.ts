import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { APPROVAL_MODES, type ApprovalMode } from "../../runtime/approval-policy.js";
import type { RunContext } from "../../runtime/run-context.js";

/** The config option ids panto offers. */
export const MODE_OPTION = "mode";
export const MODEL_OPTION = "model";

/** The approval modes as ACP session modes (ask, accept edits, allow all). */
export function sessionModes(run: RunContext): SessionModeState {
  return {
    currentModeId: run.approvals.mode,
    availableModes: APPROVAL_MODES.map(({ id, name, description }) => ({ id, name, description })),
  };
}

/**
 * The session's config options: the approval mode (category "mode", the same choice as `modes`)
 * and the model (category "model": the active one, the configured ones, and any the user switched
 * to in this session).
 */
export function configOptions(run: RunContext, knownModels: readonly string[]): SessionConfigOption[] {
  const models = [...new Set([run.agent.model, ...run.configuredModels, ...knownModels])];
  return [
    {
      id: MODE_OPTION,
      name: "Mode",
      description: "How freely tool calls run",
      category: "mode",
      type: "select",
      currentValue: run.approvals.mode,
      options: APPROVAL_MODES.map(({ id, name, description }) => ({ value: id, name, description })),
    },
    {
      id: MODEL_OPTION,
      name: "Model",
      description: "The model that answers (provider/model); kept in the session",
      category: "model",
      type: "select",
      currentValue: run.agent.model,
      options: models.map((id) => ({ value: id, name: id })),
    },
  ];
}

/** The mode an id names, or undefined. */
export function approvalModeOf(id: string): ApprovalMode | undefined {
  return APPROVAL_MODES.find((mode) => mode.id === id)?.id;
}
