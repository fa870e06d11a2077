import type { SandboxMode } from "../core/index.js";
import type { CliOptions } from "../frontends/shared/cli-options.js";
import type { RewindCliOptions } from "./rewind/run-rewind.js";
import type { ImportCliOptions } from "./sessions/import-command.js";

/** `panto export [SESSION] [-o FILE] [--format html|md|json] [--full]` */
export interface ExportCliOptions {
  /** Id prefix or path; undefined: this project's latest session. */
  session?: string;
  /** Output file, "-" for stdout; undefined: a file named after the session in the working directory. */
  output?: string;
  /** Undefined: from the output file's extension, else html. */
  format?: "html" | "md" | "json";
  full: boolean;
}

/** `panto fidelity [SESSION] [--fresh] [--prompt FILE] [--compaction-model M] [--probe] [--baseline] [--json]` */
export interface FidelityCliOptions {
  /** Id prefix or path; undefined: this project's latest session. */
  session?: string;
  fresh: boolean;
  /** With --fresh: another COMPACTION.md. */
  prompt?: string;
  /** With --fresh: another summariser, "provider/model". */
  compactionModel?: string;
  /** The model that answers probes and is the active model of a fresh compaction. */
  model?: string;
  probe: boolean;
  baseline: boolean;
  json: boolean;
}

export type ParsedArgs =
  | { command: "run"; options: CliOptions }
  /** `panto demo`; `keep` leaves its temporary folder in place and says where. */
  | { command: "demo"; keep: boolean }
  /** `panto sessions [--json]`: list this project's sessions. */
  | { command: "sessions"; json: boolean }
  | { command: "export"; options: ExportCliOptions }
  /** `panto import FILE|DIR [--dry-run] [--json]`: Claude Code, Codex and pi sessions made panto sessions. */
  | { command: "import"; options: ImportCliOptions }
  /** `panto acp [-m MODEL] [--max-turns N] [--sandbox MODE]`: the Agent Client Protocol agent on stdio. */
  | { command: "acp"; model?: string; maxTurns?: number; sandbox?: SandboxMode }
  /** `panto sandbox [--sandbox MODE] [--json]`: probe each sandbox rule on this machine. */
  | { command: "sandbox"; json: boolean; mode?: SandboxMode }
  | { command: "permissions"; json: boolean }
  | { command: "fidelity"; options: FidelityCliOptions }
  | { command: "rewind"; options: RewindCliOptions }
  /** `panto sessions rm SESSION [--json]`: delete one session and what only it used. */
  | { command: "sessions-rm"; session: string; json: boolean }
  /** Help, version or a usage error was already written; exit with this status. */
  | { command: "exit"; code: number };

export interface ArgsOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
