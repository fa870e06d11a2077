import type { CliIo } from "../frontends/shared/cli-io.js";
import type { CliOptions } from "../frontends/shared/cli-options.js";
import { EXIT_FAILURE, EXIT_USAGE } from "../frontends/shared/exit-status.js";
import { addEnvironmentSecrets } from "../runtime/setup/known-secrets.js";
import { SecretRedactor } from "../secrets/index.js";
import { redactingStream } from "./redacting-stream.js";

/**
 * Runs a parsed command line in the right mode: JSON, print (also when stdin is piped and no -p was
 * given), or the interactive terminal. Modes are imported lazily so `--help` never loads them.
 * Resolves with the exit status; unexpected errors are reported and give status 1. Every known
 * secret (provider keys, secret config headers) is redacted from stdout and stderr.
 */
export async function runCli(given: CliOptions, rawIo: CliIo): Promise<number> {
  const secrets = rawIo.secrets ?? new SecretRedactor();
  addEnvironmentSecrets(secrets, rawIo.env);
  // Copied with its accessors, so a stdin made only when read stays unmade (see CliIo.stdinText).
  const io: CliIo = Object.assign(
    Object.defineProperties({} as CliIo, Object.getOwnPropertyDescriptors(rawIo)),
    {
      secrets,
      stdout: redactingStream(rawIo.stdout, secrets.redact),
      stderr: redactingStream(rawIo.stderr, secrets.redact),
    },
  );
  try {
    const options =
      given.resume === true
        ? await (await import("./sessions/resolve-resume.js")).pickResume(given, io)
        : given;
    if (typeof options === "number") return options;
    if (options.maxTurns !== undefined && !options.print && io.stdin.isTTY === true) {
      io.stderr.write("panto: error: --max-turns applies to print and JSON runs (-p, --json)\n");
      return EXIT_USAGE;
    }
    if (options.inputFormat === "stream-json")
      return await (await import("../frontends/json/run-stream-json.js")).runStreamJson(options, io);
    if (options.json) return await (await import("../frontends/json/run-json.js")).runJson(options, io);
    // `panto "PROMPT"` opens the terminal session with it; without a terminal on both ends it is -p.
    if (
      options.print ||
      io.stdin.isTTY !== true ||
      (options.prompt !== undefined && io.stdout.isTTY !== true)
    )
      return await (await import("../frontends/print/run-print.js")).runPrint(
        { ...options, print: true },
        io,
      );
    return await (await import("../frontends/terminal/run-interactive.js")).runInteractive(options, io);
  } catch (error) {
    const usage = (await import("../runtime/setup/setup-errors.js")).asUsageError(error);
    if (usage !== undefined) {
      io.stderr.write(`panto: error (${usage.kind}): ${usage.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(
      `panto: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT_FAILURE;
  }
}
