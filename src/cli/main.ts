#!/usr/bin/env node
import { subscribe } from "node:diagnostics_channel";
import { closeSync, fstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxMode } from "../core/sandbox-mode.js";
import { fastRunArgs } from "./fast-run-args.js";

/**
 * The `panto` executable. Nothing is loaded up front: `--version` answers from package.json alone,
 * a plain run's command line is read by fastRunArgs and any other by commander (imported only
 * then), and the agent, the providers and their SDKs load once a mode needs them. The installed command is this file bundled by scripts/bundle-cli.mjs, where each
 * of those imports is a chunk of its own.
 */
async function main(): Promise<number> {
  enableCompileCache();
  keepHttpParserUnoptimised();
  const version = readVersion();
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  // `panto acp` as editors start it: no option for commander to parse (loading and building the
  // parser costs about a quarter of node's own start), and the editor waits for the first answer.
  if (args.length === 1 && args[0] === "acp") return runAcp(version, {});
  // A plain run's command line is read without commander (see fastRunArgs); the rest, help and every
  // usage error by commander.
  const parsed =
    fastRunArgs(args) ??
    (await import("./parse-cli-args.js")).parseCliArgs(args, version, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    });
  if (parsed.command === "exit") return parsed.code;
  if (parsed.command === "demo")
    return (await import("./demo/demo.js")).runDemo({ stdout: process.stdout, keep: parsed.keep });
  if (parsed.command === "sessions")
    return (await import("./sessions/sessions-command.js")).runSessionsCommand({
      json: parsed.json,
      cwd: process.cwd(),
      env: process.env,
      stdout: process.stdout,
      stderr: process.stderr,
    });
  if (parsed.command === "acp") return runAcp(version, parsed);
  if (parsed.command === "sandbox")
    return (await import("./sandbox/sandbox-command.js")).runSandboxCommand({
      json: parsed.json,
      ...(parsed.mode === undefined ? {} : { mode: parsed.mode }),
      cwd: process.cwd(),
      env: process.env,
      stdout: process.stdout,
      stderr: process.stderr,
    });
  if (parsed.command === "permissions")
    return (await import("./permissions-command.js")).runPermissionsCommand({
      json: parsed.json,
      cwd: process.cwd(),
      env: process.env,
      stdout: process.stdout,
      stderr: process.stderr,
    });
  const io = {
    cwd: process.cwd(),
    env: process.env,
    version,
    // Node makes process.stdin when first read (2-3 ms); a -p run whose stdin is a file or the null
    // device reads it through stdinText instead and never makes it.
    get stdin() {
      return process.stdin;
    },
    stdinText: wholeStdinIfFile,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  if (parsed.command === "export")
    return (await import("./sessions/run-export.js")).runExport(parsed.options, io);
  if (parsed.command === "import")
    return (await import("./sessions/import-command.js")).runImport(parsed.options, io);
  if (parsed.command === "fidelity")
    return (await import("./fidelity/run-fidelity.js")).runFidelity(parsed.options, io);
  if (parsed.command === "rewind")
    return (await import("./rewind/run-rewind.js")).runRewind(parsed.options, io);
  if (parsed.command === "sessions-rm")
    return (await import("./sessions/remove-session-command.js")).runRemoveSession(parsed, io);
  const { runCli } = await import("./run-cli.js");
  return runCli(parsed.options, io);
}

/**
 * All of stdin when it is a regular file or the null device (`< file`, `</dev/null`, a service's
 * stdin), read from where it stands as the stream would; undefined for a pipe, a socket, a terminal
 * or any other device, which may wait or never end and is read as the stream (with its note when it
 * stays silent). Read once: a second call answers the same.
 */
function wholeStdinIfFile(): string | undefined {
  if (stdinRead !== undefined) return stdinRead.text;
  let text: string | undefined;
  try {
    const info = fstatSync(0);
    const nullDevice = info.isCharacterDevice() && info.rdev === statSync("/dev/null").rdev;
    if (info.isFile() || nullDevice) text = nullDevice ? "" : readFileSync(0, "utf8");
  } catch {
    // No stdin, or one that cannot be read this way: the stream decides, as before.
    text = undefined;
  }
  stdinRead = { text };
  return text;
}
let stdinRead: { text: string | undefined } | undefined;

/** `panto acp` with its options (-m, --max-turns, --sandbox), on this process's stdio. */
async function runAcp(
  version: string,
  options: { model?: string; maxTurns?: number; sandbox?: SandboxMode },
): Promise<number> {
  return (await import("../frontends/acp/run-acp.js")).runAcp({
    env: process.env,
    version,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
}

/**
 * Node's on-disk cache of compiled modules (Node 22.1 and later; NODE_DISABLE_COMPILE_CACHE=1 turns
 * it off): later runs skip most of the parsing and compiling of the modules they load. Node 20 has
 * no such cache and goes on without it. The cache goes where Node puts it by default, the temporary
 * folder, but only when that is an existing folder outside /proc and /sys: Node creates a missing
 * one (leaving folders behind a TMPDIR panto must refuse) and spins when asked to under /proc.
 */
function enableCompileCache(): void {
  const { enableCompileCache: enable } = nodeModule as { enableCompileCache?: (folder: string) => unknown };
  if (enable === undefined) return;
  try {
    const folder = realpathSync(tmpdir());
    if (/^\/(proc|sys)(\/|$)/.test(folder) || !statSync(folder).isDirectory()) return;
    enable(join(folder, "node-compile-cache"));
  } catch {
    // No usable temporary folder, or a cache folder that cannot be created: only the speed-up is lost.
  }
}

/**
 * Node's fetch (undici) parses HTTP with llhttp compiled to WebAssembly. Once the parser is busy, V8
 * recompiles it optimised on a background thread, and Node waits for that work before the process
 * may exit: 100 ms or more after a `-p` run has finished, longer on a busy machine. So panto keeps
 * the parser on V8's baseline code (`--liftoff-only`), which parses what a model sends at no
 * noticeable cost. The flag is set when the first HTTP request is created, not earlier: any change
 * of V8's flags makes V8 refuse Node's built-in code cache for the internal modules loaded after
 * it, and undici (loaded just before its first request) would then take twice as long to load.
 */
function keepHttpParserUnoptimised(): void {
  let set = false;
  subscribe("undici:request:create", () => {
    if (set) return;
    set = true;
    // Required here rather than imported: node:v8 takes milliseconds to load, which --help need not pay.
    const v8 = nodeModule.createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
    v8.setFlagsFromString("--liftoff-only");
  });
}

function readVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    return manifest.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/**
 * `panto --help | head` closes the pipe early: that is the reader's choice, not a crash. A terminal
 * that hung up (EIO) shows nothing more, but the session in it still finishes writing (SIGHUP).
 */
function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (error.code === "EIO") return;
    throw error;
  });
}

/** The interactive session's status after its terminal hung up (EXIT_HANGUP, not imported: start-up stays lean). */
const HANGUP_EXIT = 129;

/**
 * After a hang-up the session is written and closed; the terminal's file descriptors are closed
 * too, because Node, on its way out, restores a terminal's settings on each one that is still the
 * same terminal, and aborts (a core dump, status 134) when the terminal is gone (EIO).
 */
function forgetDeadTerminal(): void {
  for (const fd of [0, 1, 2]) {
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to restore there either.
    }
  }
}

exitQuietlyOnClosedPipe(process.stdout);
exitQuietlyOnClosedPipe(process.stderr);
// Not a top-level await: the installed command is this file bundled as CommonJS (see
// scripts/bundle-cli.mjs), which has none.
void main().then((exitCode) => {
  process.exitCode = exitCode;
  if (exitCode === HANGUP_EXIT) forgetDeadTerminal();
  // Keep-alive sockets or timers left by a provider SDK must not hold the process open.
  setTimeout(() => process.exit(exitCode), 100).unref();
});
