import os from "node:os";
import type { SandboxConfig } from "../config/index.js";
import { DEFAULT_SANDBOX_MODE, type SandboxMode } from "../core/index.js";

/** What config and flags ask of the sandbox, before any path is resolved. */
export interface SandboxSettings {
  mode: SandboxMode;
  network: boolean;
  writableRoots: string[];
  hiddenPaths: string[];
  askCommands: boolean;
  /** Processes and threads one sandboxed command may run at once. */
  maxProcesses: number;
  /** Memory each sandboxed process may allocate, in megabytes. */
  maxMemoryMb: number;
}

/** Enough for parallel builds (make -j, cargo, gradle's threads) while a fork bomb stops early. */
export const DEFAULT_MAX_PROCESSES = 4096;

/** Half the machine's memory: a runaway command cannot take it all, a real build still fits. */
export function defaultMaxMemoryMb(): number {
  return Math.max(1, Math.floor(os.totalmem() / 2 / 1024 / 1024));
}

/** The settings from config "sandbox" with `--sandbox MODE` over it; defaults where neither says. */
export function resolveSandboxSettings(
  config: SandboxMode | SandboxConfig | undefined,
  flagMode: SandboxMode | undefined,
): SandboxSettings {
  const object = typeof config === "string" ? { mode: config } : (config ?? {});
  return {
    mode: flagMode ?? object.mode ?? DEFAULT_SANDBOX_MODE,
    network: object.network ?? false,
    writableRoots: object.writable_roots ?? [],
    hiddenPaths: object.hidden_paths ?? [],
    askCommands: object.ask_commands ?? false,
    maxProcesses: object.max_processes ?? DEFAULT_MAX_PROCESSES,
    maxMemoryMb: object.max_memory_mb ?? defaultMaxMemoryMb(),
  };
}
