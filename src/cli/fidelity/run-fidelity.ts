import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { buildSystemPrompt } from "../../agent/index.js";
import { BASE_COMPACTION_PROMPT_PATH, resolveCompactionPrompt } from "../../compaction/index.js";
import {
  DEFAULT_KEEP_VERBATIM_TOKENS,
  type LoadedConfig,
  loadConfig,
  readCompactionPromptLayers,
} from "../../config/index.js";
import { optional } from "../../core/index.js";
import {
  buildFidelityReport,
  compactionInEffect,
  extractFidelityFacts,
  fidelityJson,
  formatFidelityReport,
  readSessionSnapshot,
  type SessionSnapshot,
  scoreFidelity,
} from "../../fidelity/index.js";
import type { CliIo } from "../../frontends/shared/cli-io.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import { createRecallTool } from "../../recall/index.js";
import { clientFactory } from "../../runtime/setup/client-factory.js";
import { addConfigSecrets, addEnvironmentSecrets } from "../../runtime/setup/known-secrets.js";
import { resolveSessionArgument } from "../../runtime/setup/session-argument.js";
import { asUsageError, UsageError } from "../../runtime/setup/setup-errors.js";
import { SecretRedactor } from "../../secrets/index.js";
import { createDefaultTools } from "../../tools/index.js";
import type { FidelityCliOptions } from "../cli-option-types.js";
import { redactingStream } from "../redacting-stream.js";
import type { FidelityModels, FreshSettings } from "./fidelity-model-calls.js";
import { runFidelityProbes } from "./fidelity-probes.js";

/** Cap on a probe answer's length, unless the config sets a lower one. */
const PROBE_OUTPUT_TOKENS = 2048;

type FidelityIo = Omit<CliIo, "stdin">;

/**
 * `panto fidelity`: reads the session (read-only, no lock), picks the compaction in effect or makes
 * a fresh one written nowhere, scores which facts of the summarised turns survived, optionally asks
 * the model, and prints the report. Everything printed is redacted.
 */
export async function runFidelity(options: FidelityCliOptions, rawIo: FidelityIo): Promise<number> {
  const secrets = new SecretRedactor();
  addEnvironmentSecrets(secrets, rawIo.env);
  const io: FidelityIo = {
    ...rawIo,
    stdout: redactingStream(rawIo.stdout, secrets.redact),
    stderr: redactingStream(rawIo.stderr, secrets.redact),
  };
  const counter = { requests: 0 };
  try {
    return await checkFidelity(options, io, secrets, counter);
  } catch (error) {
    // Before the first model request every problem (config, session, unknown provider, missing
    // key, COMPACTION.md) is the user's to fix; after it, a failure is the model's or the network's.
    const usage = counter.requests === 0 ? asUsageError(error) : undefined;
    if (usage !== undefined) {
      io.stderr.write(`panto: fidelity: ${usage.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`panto: fidelity: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
}

async function checkFidelity(
  options: FidelityCliOptions,
  io: FidelityIo,
  secrets: SecretRedactor,
  counter: { requests: number },
): Promise<number> {
  const loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  addConfigSecrets(secrets, loaded.config.providers, io.env);
  const snapshot = await readSessionSnapshot(
    await resolveSessionArgument(options.session, "fidelity", {
      cwd: io.cwd,
      pantoHome: loaded.pantoHome,
      projectRoot: loaded.projectRoot,
    }),
  );
  for (const warning of snapshot.warnings) io.stderr.write(`panto: warning: ${warning}\n`);
  const models =
    options.fresh || options.probe ? await fidelityModels(options, loaded, io, secrets, snapshot) : undefined;
  const target = options.fresh
    ? await (await import("./fidelity-fresh.js")).freshCompaction(
        snapshot,
        await freshSettings(options, loaded, io.cwd),
        models as FidelityModels,
        {
          probe: options.probe,
          baseline: options.baseline,
          stderr: io.stderr,
          onRequest: () => counter.requests++,
        },
      )
    : compactionInEffect(snapshot.entries);
  if (target === undefined) {
    io.stderr.write(noCompactionMessage(snapshot));
    return EXIT_USAGE;
  }
  const facts = extractFidelityFacts(target.summarised);
  const answers =
    options.probe && facts.length > 0
      ? await runFidelityProbes(target, facts, models as FidelityModels, {
          baseline: options.baseline,
          announce: !options.fresh,
          stderr: io.stderr,
          onRequest: () => counter.requests++,
        })
      : {};
  const report = buildFidelityReport(
    snapshot.header.id,
    { trigger: target.trigger, model: target.model, fresh: target.fresh },
    scoreFidelity(facts, target.summary, target.block, answers),
    answers,
    counter.requests,
  );
  io.stdout.write(options.json ? `${JSON.stringify(fidelityJson(report))}\n` : formatFidelityReport(report));
  return EXIT_OK;
}

function noCompactionMessage(snapshot: SessionSnapshot): string {
  return `panto: fidelity: session ${snapshot.header.id} (${snapshot.path}) has no compaction in effect; panto fidelity --fresh checks a new one, made now and written nowhere\n`;
}

async function fidelityModels(
  options: FidelityCliOptions,
  loaded: LoadedConfig,
  io: FidelityIo,
  secrets: SecretRedactor,
  snapshot: SessionSnapshot,
): Promise<FidelityModels> {
  const model = options.model ?? loaded.config.model;
  if (model === undefined)
    throw new UsageError(
      '--fresh and --probe need a model: pass -m PROVIDER/MODEL or set "model" in the config',
      "config",
    );
  const warn = (message: string): void => {
    io.stderr.write(`panto: warning: ${message}\n`);
  };
  const createClient = await clientFactory(loaded, io.env, warn, secrets);
  createClient(model);
  if (options.compactionModel !== undefined) createClient(options.compactionModel);
  // The tools the next request carries, recall among them; recall answers from this session file.
  const recall = createRecallTool({
    session: () => ({ path: snapshot.path, header: snapshot.header, hasFile: true }),
    redact: secrets.redact,
  });
  return {
    model,
    createClient,
    systemPrompt: await buildSystemPrompt({ cwd: io.cwd, projectRoot: loaded.projectRoot }),
    tools: [...createDefaultTools(), recall].map((tool) => tool.definition),
    maxOutputTokens: Math.min(loaded.config.max_output_tokens ?? PROBE_OUTPUT_TOKENS, PROBE_OUTPUT_TOKENS),
    recall: async (args) => {
      const output = await recall.execute(args, { cwd: io.cwd });
      const text = output.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      return { text, isError: output.isError };
    },
  };
}

/** COMPACTION.md (or --prompt FILE), the summariser (or --compaction-model) and the config's rules. */
async function freshSettings(
  options: FidelityCliOptions,
  loaded: LoadedConfig,
  cwd: string,
): Promise<FreshSettings> {
  const compactionModel = options.compactionModel ?? loaded.config.compaction_model;
  return {
    compactionPrompt:
      options.prompt === undefined
        ? await configuredPrompt(loaded)
        : await promptFile(resolve(cwd, options.prompt)),
    ...optional("compactionModel", compactionModel),
    budgetTokens: loaded.config.keep_verbatim_tokens ?? DEFAULT_KEEP_VERBATIM_TOKENS,
    restoreFacts: loaded.config.restore_facts !== false,
  };
}

async function configuredPrompt(loaded: LoadedConfig): Promise<string> {
  const layers = await readCompactionPromptLayers({
    pantoHome: loaded.pantoHome,
    projectRoot: loaded.projectRoot,
    basePath: BASE_COMPACTION_PROMPT_PATH,
  });
  return resolveCompactionPrompt(layers).prompt;
}

async function promptFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`--prompt ${path}: cannot be read: ${(error as Error).message}`);
  }
  if (text.trim() === "") throw new UsageError(`--prompt ${path}: the file is empty`);
  return text;
}
