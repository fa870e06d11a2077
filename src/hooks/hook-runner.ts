import {
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  type HookCommandConfig,
  type HookEventName,
  type HooksConfig,
} from "./hook-config.js";
import { matchesHook } from "./matches-hook.js";
import { type HookProcessResult, runHookCommand } from "./run-hook-command.js";

/** One hook command's run, as reported (the JSON `hook` event). */
export interface HookRun {
  event: HookEventName;
  /** The command as configured, secrets redacted. */
  command: string;
  /** null when the command was killed (timeout) or could not start. */
  exitCode: number | null;
  durationMs: number;
  /** Whether this run blocked what the event announced (a prompt, a tool call, a compaction). */
  blocked: boolean;
  timedOut: boolean;
}

/** What the hooks of one event decided. `reason` (their stderr or JSON reason) is set when blocked. */
export interface HookVerdict {
  blocked: boolean;
  reason?: string;
}

export interface HookRunnerOptions {
  config: HooksConfig;
  /** The project root: every hook runs there. */
  cwd: string;
  /** The environment hooks get: the same sanitised one as `bash` (no provider keys). */
  env: NodeJS.ProcessEnv;
  sessionId: string;
  transcriptPath: string;
  redact: (text: string) => string;
  report: (run: HookRun) => void;
  warn: (message: string) => void;
}

const ALLOWED: HookVerdict = { blocked: false };

/**
 * Runs the configured hooks of an event, one after another in config order, each with the event as
 * JSON on stdin. Exit 0 goes on (a JSON stdout may still block: `{"decision": "block", "reason"}`, or
 * for PreToolUse `hookSpecificOutput.permissionDecision: "deny"`); exit 2 blocks with stderr as the
 * reason where the event can be blocked; anything else, a timeout or a command that cannot start is
 * a warning and the session goes on.
 */
export class HookRunner {
  readonly #options: HookRunnerOptions;

  constructor(options: HookRunnerOptions) {
    this.#options = options;
  }

  /** Whether any hook is configured for `event`, so callers can skip building its input. */
  has(event: HookEventName): boolean {
    return (this.#options.config[event] ?? []).length > 0;
  }

  /**
   * Runs the hooks of `event` whose matcher selects `subject`. `canBlock` false: an exit 2 or a
   * block decision is reported as a warning (`whyNot` says why it cannot block) and changes nothing.
   */
  async run(
    event: HookEventName,
    subject: string | undefined,
    fields: Record<string, unknown>,
    blocking: { canBlock: boolean; whyNot?: string },
  ): Promise<HookVerdict> {
    const commands = (this.#options.config[event] ?? [])
      .filter((group) => subject === undefined || matchesHook(group.matcher, subject))
      .flatMap((group) => group.hooks);
    if (commands.length === 0) return ALLOWED;
    const input = `${JSON.stringify({ ...this.#commonFields(event), ...fields })}\n`;
    const reasons: string[] = [];
    for (const hook of commands) {
      const reason = await this.#runOne(event, hook, input, blocking);
      if (reason !== undefined) reasons.push(reason);
    }
    return reasons.length === 0 ? ALLOWED : { blocked: true, reason: reasons.join("\n") };
  }

  #commonFields(event: HookEventName): Record<string, unknown> {
    const { sessionId, transcriptPath, cwd } = this.#options;
    return { session_id: sessionId, transcript_path: transcriptPath, cwd, hook_event_name: event };
  }

  /** Runs one command; returns the block reason when it blocked. */
  async #runOne(
    event: HookEventName,
    hook: HookCommandConfig,
    input: string,
    blocking: { canBlock: boolean; whyNot?: string },
  ): Promise<string | undefined> {
    const { redact } = this.#options;
    const timeoutSeconds = hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
    const result = await runHookCommand(hook.command, {
      cwd: this.#options.cwd,
      env: this.#options.env,
      input,
      timeoutMs: Math.round(timeoutSeconds * 1000),
    });
    const command = redact(hook.command);
    const wanted = blockRequest(event, result);
    const blocked = wanted !== undefined && blocking.canBlock;
    this.#options.report({
      event,
      command,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      blocked,
      timedOut: result.timedOut,
    });
    const problem = describeProblem(result, timeoutSeconds);
    if (problem !== undefined) this.#options.warn(`${event} hook \`${command}\` ${redact(problem)}`);
    if (wanted === undefined) return undefined;
    const reason = redact(wanted.trim()) || `blocked by a ${event} hook (\`${command}\`)`;
    if (blocked) return reason;
    this.#options.warn(
      `${event} hook \`${command}\` asked to block, which it cannot${blocking.whyNot === undefined ? "" : ` (${blocking.whyNot})`}; going on. Its reason: ${reason}`,
    );
    return undefined;
  }
}

/** The reason a hook asks to block with (possibly empty), or undefined when it does not ask. */
function blockRequest(event: HookEventName, result: HookProcessResult): string | undefined {
  if (result.exitCode === 2) return result.stderr;
  if (result.exitCode !== 0) return undefined;
  const decision = jsonDecision(result.stdout);
  if (decision === undefined) return undefined;
  if (decision.decision === "block") return stringOr(decision.reason);
  const specific = decision.hookSpecificOutput;
  if (event === "PreToolUse" && isObject(specific) && specific.permissionDecision === "deny")
    return stringOr(specific.permissionDecisionReason);
  return undefined;
}

/** stdout as a JSON object, when it is one (plain text output is fine and means nothing). */
function jsonDecision(stdout: string): Record<string, unknown> | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A warning's text for a hook that failed, hung or could not start; undefined for exit 0 and 2. */
function describeProblem(result: HookProcessResult, timeoutSeconds: number): string | undefined {
  if (result.spawnError !== undefined) return `could not start: ${result.spawnError}`;
  if (result.timedOut) return `timed out after ${timeoutSeconds}s and was killed; going on without it`;
  if (result.exitCode === 0 || result.exitCode === 2) return undefined;
  const detail = firstLine(result.stderr);
  const status =
    result.exitCode === null ? "was killed by a signal" : `exited with status ${result.exitCode}`;
  return `${status} (not a block; going on)${detail === "" ? "" : `: ${detail}`}`;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0]?.slice(0, 300) ?? "";
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
