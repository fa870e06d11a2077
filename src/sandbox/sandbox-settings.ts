import type { SandboxConfig } from "../config/index.js";
import { DEFAULT_SANDBOX_MODE, type SandboxMode } from "../core/index.js";

/** What config and flags ask of the sandbox, before any path is resolved. */
export interface SandboxSettings {
  mode: SandboxMode;
  network: boolean;
  writableRoots: string[];
  hiddenPaths: string[];
  askCommands: boolean;
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
  };
}
