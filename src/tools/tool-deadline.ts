import type { ToolOutput } from "./tool.js";
import { errorOutput } from "./tool-output.js";

/** How long a tool may run, and how long it gets to stop by itself once interrupted. */
export interface ToolDeadline {
  deadlineMs: number;
  abortGraceMs: number;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Runs a tool with a signal that fires at the deadline or when `outer` (the user's interrupt)
 * fires. A tool that stops on its signal answers for itself; one that is stuck (a call the
 * operating system never returns from cannot be cancelled) is abandoned: the caller gets an error
 * result at the deadline, or `abortGraceMs` after an interrupt, and the agent moves on.
 */
export async function runWithDeadline(
  name: string,
  limits: ToolDeadline,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<ToolOutput>,
): Promise<ToolOutput> {
  const controller = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  let giveUp: (output: ToolOutput) => void = () => {};
  const givenUp = new Promise<ToolOutput>((resolve) => {
    giveUp = resolve;
  });
  const interrupt = (): void => {
    controller.abort(outer?.reason);
    const text = `${name} was interrupted and did not stop within ${seconds(limits.abortGraceMs)}; abandoned`;
    timers.push(setTimeout(() => giveUp(errorOutput(text)), limits.abortGraceMs));
  };
  timers.push(
    setTimeout(() => {
      controller.abort(new Error(`${name} ran past its deadline`));
      const text = `${name} did not finish within ${seconds(limits.deadlineMs)} and was abandoned (a stuck file system or a file that never ends?); try another way`;
      giveUp(errorOutput(text));
    }, limits.deadlineMs),
  );
  if (outer?.aborted) interrupt();
  else outer?.addEventListener("abort", interrupt, { once: true });
  try {
    return await Promise.race([run(controller.signal), givenUp]);
  } finally {
    outer?.removeEventListener("abort", interrupt);
    for (const timer of timers) clearTimeout(timer);
  }
}
