import type { PantoEvent, SessionUsage } from "../frontends/json/json-event-schema.js";

/** How one `run` ended: what the `result` event (and the `error` before it) said, and every event of the turn. */
export interface RunResult {
  /** The final answer; a slash command's report; `!COMMAND`'s output; "" when there is none. */
  text: string;
  /** True when the turn succeeded (exit code 0). */
  ok: boolean;
  /** What `panto -p --json` would exit with: 0, 1 failure, 2 usage, 3 `maxTurns`, 130 interrupted. */
  exitCode: number;
  /** The turn was stopped by its signal (or by `close`). */
  interrupted: boolean;
  /** Why it failed: the turn's `error` event, absent when it succeeded. */
  error?: { code: string; message: string; hint?: string };
  /** The session the turn ran in (a `/clear` starts a new one). */
  sessionId: string;
  /** The whole session's token totals so far, as `/cost` counts them. */
  usage: SessionUsage;
  /** Every event of the turn, as `stream` yields them, ending with `result`. */
  events: PantoEvent[];
}

/** The turn's result, read from its events (the last is its `result`). */
export function runResultOf(events: PantoEvent[]): RunResult {
  const result = events.at(-1);
  if (result?.type !== "result") throw new Error("a turn's events end with its result event");
  const failure = [...events].reverse().find((event) => event.type === "error");
  return {
    text: result.text ?? "",
    ok: result.exit_code === 0,
    exitCode: result.exit_code,
    interrupted: result.exit_code === 130,
    ...(failure?.type === "error"
      ? {
          error: {
            code: failure.code,
            message: failure.message,
            ...(failure.hint === undefined ? {} : { hint: failure.hint }),
          },
        }
      : {}),
    sessionId: result.session_id,
    usage: result.usage,
    events,
  };
}
