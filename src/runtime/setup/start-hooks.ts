import type { AgentEvent } from "../../agent/index.js";
import type { HooksConfig } from "../../config/index.js";
import type { AgentHooks } from "../../hooks/index.js";
import type { Session } from "../../session/index.js";

/** Builds a session's hooks; undefined when none are configured. */
export type HooksFactory = (session: Session) => AgentHooks;

/**
 * Loads the hook runner only when config "hooks" holds at least one command, so a run without hooks
 * loads nothing for them. Hooks run in the project root with the environment `bash` gets (no
 * provider keys) plus PANTO_PROJECT_DIR; their runs are reported as `hook` events, their problems
 * as warnings.
 */
export async function loadHooks(input: {
  config: HooksConfig | undefined;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  redact: (text: string) => string;
  onEvent: (event: AgentEvent) => void;
}): Promise<HooksFactory | undefined> {
  const { config } = input;
  if (
    config === undefined ||
    !Object.values(config).some((groups) => groups.some((group) => group.hooks.length > 0))
  )
    return undefined;
  const { agentHooks, HookRunner } = await import("../../hooks/index.js");
  const env = { ...input.env, PANTO_PROJECT_DIR: input.projectRoot };
  return (session) =>
    agentHooks(
      new HookRunner({
        config,
        cwd: input.projectRoot,
        env,
        sessionId: session.header.id,
        transcriptPath: session.path,
        redact: input.redact,
        report: (run) => input.onEvent({ type: "hook", run }),
        warn: (message) => input.onEvent({ type: "warning", message }),
      }),
    );
}
