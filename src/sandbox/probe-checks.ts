import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { pathState } from "./path-state.js";
import type { ProbeWorld } from "./probe-world.js";
import { restoreWatched } from "./restore-watched.js";
import type { Sandbox } from "./sandbox.js";

/** One rule checked on this machine. */
export interface ProbeCheck {
  id: string;
  /** What holds when `ok`, in words. */
  rule: string;
  ok: boolean;
  /** What was tried and seen. */
  detail: string;
}

export interface CheckContext {
  sandbox: Sandbox;
  world: ProbeWorld;
  /** Runs a command in the sandbox from the workspace; its output. */
  run(command: string): Promise<string>;
  pantoPid: number;
  /** The home folder commands get. */
  home: string;
}

export type Check = (context: CheckContext) => Promise<ProbeCheck>;

const unique = () => randomBytes(4).toString("hex");

const writesInside: Check = async ({ sandbox, world, run }) => {
  const file = path.join(world.workspace, `probe-${unique()}.txt`);
  await run(`echo probe > ${quote(file)}`);
  const written = existsSync(file);
  rmSync(file, { force: true });
  const expected = sandbox.policy.mode === "workspace-write";
  return {
    id: "writes-inside",
    rule: expected
      ? "commands can write in the project"
      : "commands cannot write in the project (read-only mode)",
    ok: written === expected,
    detail: `writing a file in the project ${written ? "worked" : "failed"}`,
  };
};

const writesOutside: Check = async ({ world, run, home }) => {
  const name = `.panto-sandbox-probe-${unique()}`;
  const targets = [path.join(home, name), path.join("/etc", name), path.join(world.outside, name)];
  await run(targets.map((target) => `echo probe > ${quote(target)} 2>/dev/null`).join("; "));
  const written = targets.filter((target) => existsSync(target));
  for (const target of written) rmSync(target, { force: true });
  return {
    id: "writes-outside",
    rule: "writes outside the writable folders leave this machine unchanged (home, /etc, the machine's temporary folder)",
    ok: written.length === 0,
    detail:
      written.length === 0 ? `tried ${targets.join(", ")}` : `written (and removed): ${written.join(", ")}`,
  };
};

const protectedPaths: Check = async ({ sandbox, world, run }) => {
  const config = path.join(world.workspace, ".git", "config");
  const before = readFileSync(config, "utf8");
  const layout = sandbox.layout();
  await run(
    "echo '[core] fsmonitor = probe' >> .git/config; echo probe > .git/hooks/pre-commit; echo '{\"hooks\":{}}' > .panto/config.json; echo '{}' > .mcp.json",
  );
  const restored = restoreWatched(layout.watched);
  const changed = [
    readFileSync(config, "utf8") === before ? undefined : ".git/config",
    existsSync(path.join(world.workspace, ".git", "hooks", "pre-commit")) ? ".git/hooks" : undefined,
    readFileSync(path.join(world.workspace, ".panto", "config.json"), "utf8") === "{}\n"
      ? undefined
      : ".panto",
    existsSync(path.join(world.workspace, ".mcp.json")) ? ".mcp.json" : undefined,
  ].filter((entry) => entry !== undefined);
  return {
    id: "protected-paths",
    rule: ".git/config, .git/hooks, .panto/ and .mcp.json stay as they are inside the project",
    ok: changed.length === 0,
    detail:
      changed.length === 0
        ? `writes refused${restored.length > 0 ? `; moved aside what the command created there: ${restored.map((note) => path.basename(note.split(" ")[0] ?? "")).join(", ")}` : ""}`
        : `changed: ${changed.join(", ")}`,
  };
};

const credentials: Check = async ({ sandbox, run }) => {
  const present = sandbox.policy.hiddenPaths.filter((hidden) => pathState(hidden).kind !== "missing");
  const probes = present.map(
    (hidden) =>
      `if [ -d ${quote(hidden)} ]; then ls -A ${quote(hidden)} >/dev/null 2>&1 && echo "READABLE ${hidden}"; ` +
      `else head -c 1 ${quote(hidden)} >/dev/null 2>&1 && echo "READABLE ${hidden}"; fi`,
  );
  const output = present.length === 0 ? "" : await run(probes.join("\n"));
  const readable = output.split("\n").filter((line) => line.startsWith("READABLE "));
  return {
    id: "credentials-hidden",
    rule: "credential files and folders (and panto's own home) cannot be read",
    ok: readable.length === 0,
    detail:
      readable.length > 0
        ? readable.map((line) => line.slice("READABLE ".length)).join(", ")
        : present.length === 0
          ? `none of the ${sandbox.policy.hiddenPaths.length} credential paths exists for this user`
          : `unreadable: ${present.join(", ")}`,
  };
};

const network: Check = async ({ sandbox, world, run }) => {
  const output = await run(`(exec 3<>/dev/tcp/127.0.0.1/${world.port}) 2>/dev/null && echo reached`);
  const reached = output.includes("reached");
  const on = sandbox.policy.network;
  return {
    id: "network",
    rule: on
      ? "the network is on (configured): the host's 127.0.0.1 is reachable"
      : "no network: not even the host's 127.0.0.1",
    ok: reached === on,
    detail: `a TCP server on 127.0.0.1:${world.port} was ${reached ? "reached" : "not reached"}`,
  };
};

const unixSockets: Check = async ({ world, run }) => {
  const sockets = [
    world.socket,
    ...["/var/run/docker.sock", "/run/docker.sock"].filter((socket) => existsSync(socket)),
  ];
  const output = await run(
    sockets.map((socket) => `[ -e ${quote(socket)} ] && echo "VISIBLE ${socket}"`).join("; "),
  );
  const visible = output.split("\n").filter((line) => line.startsWith("VISIBLE "));
  return {
    id: "unix-sockets",
    rule: "Unix sockets outside the writable folders (the machine's temporary folders, /run, the Docker socket) cannot be reached",
    ok: visible.length === 0,
    detail: visible.length === 0 ? `not found inside: ${sockets.join(", ")}` : visible.join(", "),
  };
};

const privileges: Check = async ({ sandbox, run }) => {
  if (sandbox.policy.platform === "darwin") {
    return {
      id: "no-new-privileges",
      rule: "no new privileges",
      ok: true,
      detail: "not applicable under Seatbelt",
    };
  }
  const output = await run("grep -E '^(NoNewPrivs|CapEff):' /proc/self/status");
  const ok = /NoNewPrivs:\s*1/.test(output) && /CapEff:\s*0+\s*$/m.test(output);
  return {
    id: "no-new-privileges",
    rule: "no new privileges (setuid programs gain nothing) and no capabilities",
    ok,
    detail:
      output
        .trim()
        .replace(/:\s*/g, " ")
        .replace(/\s*\n\s*/g, ", ") || "no /proc/self/status",
  };
};

const processIsolation: Check = async ({ run, pantoPid }) => {
  const output = await run(`kill -0 ${pantoPid} 2>/dev/null && echo "SEES ${pantoPid}"; echo "pid $$"`);
  return {
    id: "pid-namespace",
    rule: "commands cannot see or signal this machine's processes",
    ok: !output.includes("SEES"),
    detail: output.includes("SEES")
      ? `panto's PID ${pantoPid} was visible`
      : `panto's PID ${pantoPid} is not visible; the shell was ${output.match(/pid \d+/)?.[0] ?? "?"}`,
  };
};

const processTree: Check = async ({ run }) => {
  const marker = `1000.${Date.now() % 100000}${Math.floor(Math.random() * 1000)}`;
  await run(`setsid sleep ${marker} >/dev/null 2>&1 & sleep ${marker}1 >/dev/null 2>&1 & echo started`);
  const left = await survivors(marker);
  return {
    id: "process-tree",
    rule: "background and setsid children die with the command",
    ok: left.length === 0,
    detail: left.length === 0 ? "none left after the command" : `still running: PIDs ${left.join(", ")}`,
  };
};

/** PIDs whose command line has `marker`, once they had 2 s to go. */
async function survivors(marker: string): Promise<string[]> {
  for (let attempt = 0; ; attempt += 1) {
    const listing = spawnSync("ps", ["-A", "-o", "pid=,stat=,args="], { encoding: "utf8" }).stdout ?? "";
    const left = listing
      .split("\n")
      .filter((line) => line.includes(`sleep ${marker}`) && !/^\s*\d+\s+Z/.test(line))
      .map((line) => line.trim().split(/\s+/)[0] ?? "");
    if (left.length === 0 || attempt >= 40) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Every rule `panto sandbox` checks, in the order it reports them. */
export const CHECKS: readonly Check[] = [
  writesInside,
  writesOutside,
  protectedPaths,
  credentials,
  network,
  unixSockets,
  privileges,
  processIsolation,
  processTree,
];
