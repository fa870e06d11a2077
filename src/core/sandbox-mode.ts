/**
 * How far the model's commands and file tools are confined (src/sandbox): `read-only` (nothing
 * writable but a private temporary folder), `workspace-write` (the project too), `full` (no
 * sandbox). Here in core because config validates it and the run reports it.
 */
export const SANDBOX_MODES = ["read-only", "workspace-write", "full"] as const;

export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** How a run confined the model's tools, as its session records it and its export shows it. */
export interface SandboxRecord {
  mode: SandboxMode;
  network: boolean;
  /** Folders commands could write (the private temporary folder aside); empty in read-only and full modes. */
  writableRoots: string[];
}

/** The mode wherever the sandbox works and nothing else is configured. */
export const DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write";
