import type { SandboxLayout } from "./sandbox-layout.js";
import type { SandboxPolicy } from "./sandbox-policy.js";

/**
 * How to start one command: the program and its arguments, and whether bubblewrap reports on file
 * descriptor 3 whether the command itself started (so a sandbox that failed to start is told
 * apart from a command that failed). `layout` is what the command runs under; `finish`, called
 * once the command's processes are gone, puts back what it may not change (see AfterCommand).
 */
export interface PreparedCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  statusFd: boolean;
  layout: SandboxLayout;
  finish(): AfterCommand;
}

/** What the check after a command found, one line each, for the model and the user. */
export interface AfterCommand {
  /** Protected paths the command changed, each put back or aside: the command did not do all it meant to. */
  refused: string[];
  /** Changes left in place that deserve a look (a `.gitmodules`), and checks cut short. */
  notes: string[];
}

/**
 * What a tool call needs of a sandbox (ToolContext.sandbox): the policy, the layout to check paths
 * against, and how to start a command confined. `Sandbox` is the real one.
 */
export interface ToolSandbox {
  readonly policy: SandboxPolicy;
  layout(): SandboxLayout;
  prepare(command: string, cwd: string, env: NodeJS.ProcessEnv): PreparedCommand;
  /**
   * Resolves once the sandbox is known to start on this machine, rejects with a SandboxError
   * saying why it cannot; awaited before the first command, so a run that starts none never pays it.
   */
  ready?(env: NodeJS.ProcessEnv): Promise<void>;
  /**
   * From now on, run every command of this sandbox in one shared network namespace (a loopback
   * only, when the network is off), so a server started in the background can be reached by later
   * commands; awaited before a background command starts. Where it cannot, nothing changes.
   */
  shareLoopback?(): Promise<void>;
}
