import { findProjectRoot, resolvePantoHome } from "../../config/index.js";
import { isPathProblem } from "../../core/index.js";
import type { CliIo } from "../../frontends/shared/cli-io.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import { type ExportRequest, exportToTarget } from "../../runtime/export-to-target.js";
import { addConfigSecrets, addEnvironmentSecrets } from "../../runtime/setup/known-secrets.js";
import { resolveSessionArgument } from "../../runtime/setup/session-argument.js";
import { UsageError } from "../../runtime/setup/setup-errors.js";
import { SecretRedactor } from "../../secrets/index.js";
import { isSessionError } from "../../session/index.js";
import type { ExportCliOptions } from "../parse-cli-args.js";

/** `panto export`: resolves the session, writes the export, reports where. */
export async function runExport(options: ExportCliOptions, io: Omit<CliIo, "stdin">): Promise<number> {
  try {
    const pantoHome = resolvePantoHome(io.env);
    const projectRoot = findProjectRoot(io.cwd, { pantoHome });
    const sessionPath = await resolveSessionArgument(options.session, "export", {
      cwd: io.cwd,
      pantoHome,
      projectRoot,
    });
    const request: ExportRequest = {
      sessionPath,
      full: options.full,
      cwd: io.cwd,
      redact: await exportRedactor(io.env, io.cwd),
    };
    if (options.output !== undefined) request.output = options.output;
    if (options.format !== undefined) request.format = options.format;
    const result = await exportToTarget(request, io.stdout);
    for (const line of result.invalidLines)
      io.stderr.write(
        `panto: ${sessionPath}, line ${line}: not a readable entry; shown as such in the export\n`,
      );
    if (result.target !== "stdout")
      io.stdout.write(
        `Exported ${result.entries} entries (${result.compactions} compactions) to ${result.target}\n`,
      );
    return EXIT_OK;
  } catch (error) {
    if (isSessionError(error) || isPathProblem(error) || error instanceof UsageError) {
      io.stderr.write(`panto: ${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`panto: export failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
}

/**
 * The provider keys in the environment and those config names (`api_key_env`, secret headers), as in
 * every other run. A config file that does not load only costs its secrets: the export goes on.
 */
async function exportRedactor(env: NodeJS.ProcessEnv, cwd: string): Promise<(text: string) => string> {
  const secrets = new SecretRedactor();
  addEnvironmentSecrets(secrets, env);
  try {
    const { loadConfig } = await import("../../config/index.js");
    const loaded = await loadConfig({ cwd, env });
    addConfigSecrets(secrets, loaded.config.providers, env);
  } catch {
    // Without a readable config only the environment's keys are known.
  }
  return secrets.redact;
}
