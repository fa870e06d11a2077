#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseCliArgs } from "./cli-options.js";

/**
 * The `panto` executable. Only argument parsing is loaded up front; the agent, the providers and
 * their SDKs are imported once a mode needs them, so `--help` and `--version` start fast.
 */
async function main(): Promise<number> {
  const version = readVersion();
  const parsed = parseCliArgs(process.argv.slice(2), version, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
  if (parsed.command === "exit") return parsed.code;
  if (parsed.command === "demo") return (await import("./demo.js")).runDemo({ stdout: process.stdout });
  const io = {
    cwd: process.cwd(),
    env: process.env,
    version,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  if (parsed.command === "export") return (await import("./run-export.js")).runExport(parsed.options, io);
  const { runCli } = await import("./run-cli.js");
  return runCli(parsed.options, io);
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

/** `panto --help | head` closes the pipe early: that is the reader's choice, not a crash. */
function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

exitQuietlyOnClosedPipe(process.stdout);
exitQuietlyOnClosedPipe(process.stderr);
const exitCode = await main();
process.exitCode = exitCode;
// Keep-alive sockets or timers left by a provider SDK must not hold the process open.
setTimeout(() => process.exit(exitCode), 100).unref();
