import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { findProjectRoot, resolvePantoHome } from "../../config/index.js";
import { addConfigSecrets, addEnvironmentSecrets } from "../../runtime/setup/known-secrets.js";
import { resolveSessionArgument } from "../../runtime/setup/session-argument.js";
import { SecretRedactor } from "../../secrets/index.js";
import { isSessionError } from "../../session/index.js";
import type { CliIo } from "../cli-io.js";
import type { ExportCliOptions } from "../cli-options.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "../exit-status.js";

type Format = "html" | "md" | "json";

/** What one export should do, once the session file is known. */
export interface ExportRequest {
  sessionPath: string;
  /** Output file, "-" for stdout, undefined for `<session name>.<format>` in `cwd`. */
  output?: string;
  format?: Format;
  full: boolean;
  cwd: string;
  /** Replaces known credentials in every string the export writes. */
  redact: (text: string) => string;
}

function formatOf(request: ExportRequest): Format {
  if (request.format !== undefined) return request.format;
  const extension = request.output === undefined ? "" : extname(request.output).toLowerCase();
  if (extension === ".md" || extension === ".markdown") return "md";
  if (extension === ".json" || extension === ".jsonl") return "json";
  return "html";
}

/**
 * Writes the export (the exporter is loaded only now). A file is written beside its target and
 * renamed into place, so a failed export never leaves half a page. Returns where it went.
 */
export async function exportToTarget(
  request: ExportRequest,
  stdout: NodeJS.WritableStream,
): Promise<{ target: string; entries: number; compactions: number; invalidLines: number[] }> {
  const { exportSession, streamSink } = await import("../../export/index.js");
  const format = formatOf(request);
  const options = { path: request.sessionPath, format, full: request.full, redact: request.redact };
  if (request.output === "-") {
    const summary = await exportSession(options, streamSink(stdout, false));
    return { target: "stdout", ...summary };
  }
  const target = resolve(
    request.cwd,
    request.output ?? `${basename(request.sessionPath, ".jsonl")}.${format}`,
  );
  const temporary = `${target}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const summary = await exportSession(
      options,
      streamSink(createWriteStream(temporary, { mode: 0o600 }), true),
    );
    await rename(temporary, target);
    return { target, ...summary };
  } finally {
    await rm(temporary, { force: true });
  }
}

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
    if (isSessionError(error) || error instanceof UsageError) {
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
