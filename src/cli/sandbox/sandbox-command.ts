import { loadConfig } from "../../config/index.js";
import type { SandboxMode } from "../../core/index.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import { asUsageError } from "../../runtime/setup/setup-errors.js";
import { probeSandbox, resolveSandboxSettings } from "../../sandbox/index.js";
import { formatProbeReport, probeReportJson } from "./format-probe-report.js";

export interface SandboxCommandIo {
  json: boolean;
  /** `--sandbox MODE` given to `panto sandbox`, else the configured mode. */
  mode?: SandboxMode;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * `panto sandbox`: builds the sandbox this project's config (and `--sandbox`) asks for around a
 * scratch workspace, tries each rule for real, and prints what holds (`--json`: the report as one
 * JSON object). Exit 0 when every rule holds, 1 when one does not or the sandbox cannot start, 2
 * for a bad config.
 */
export async function runSandboxCommand(io: SandboxCommandIo): Promise<number> {
  let loaded: Awaited<ReturnType<typeof loadConfig>>;
  try {
    loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    io.stderr.write(`panto: ${usage.message}\n`);
    return EXIT_USAGE;
  }
  const settings = resolveSandboxSettings(loaded.config.sandbox, io.mode);
  const report = await probeSandbox(settings, {
    projectRoot: loaded.projectRoot,
    pantoHome: loaded.pantoHome,
    env: io.env,
  });
  io.stdout.write(io.json ? `${JSON.stringify(probeReportJson(report))}\n` : formatProbeReport(report));
  return report.ok ? EXIT_OK : EXIT_FAILURE;
}
