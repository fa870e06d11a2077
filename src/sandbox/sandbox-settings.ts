import { DEFAULT_SANDBOX_MODE, type SandboxMode } from "../core/index.js";

/** Config "sandbox" in its object form (a bare mode string is short for `{"mode": ...}`). */
export interface SandboxConfig {
  mode?: SandboxMode;
  /** Commands may use the network (default false). */
  network?: boolean;
  /** Folders writable besides the project: absolute, `~/...`, or relative to the project root. */
  writable_roots?: string[];
  /** Files and folders hidden besides the built-in credential list, written like writable_roots. */
  hidden_paths?: string[];
  /** Ask before every sandboxed `bash` command too (default false: only escapes ask). */
  ask_commands?: boolean;
}

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
