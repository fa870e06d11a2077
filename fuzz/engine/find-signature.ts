import type { FindKind } from "./worker-protocol.js";

/** What the engine records about one failing input. */
export interface Failure {
  kind: FindKind;
  /** Same bug, same signature: the kind, the error's name and message shape, and where it was thrown. */
  signature: string;
  message: string;
  stack: string;
}

/** Describes what `run` threw. */
export function describeFailure(error: unknown, bundleFile: string): Failure {
  const name = error instanceof Error ? error.name : typeof error;
  // By name: the target's bundle has its own copy of the class.
  const kind: FindKind = name === "InvariantBroken" ? "invariant" : "crash";
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const frame =
    stack.split("\n").find((line) => line.includes(bundleFile) && !line.includes(" at invariant ")) ?? "";
  const where = /:(\d+):\d+\)?$/.exec(frame)?.[1] ?? "?";
  return { kind, signature: `${kind} ${name} @${where}`, message, stack };
}
