import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxPolicy } from "../sandbox/index.js";
import { createBashOutputTool, createKillTaskTool } from "./background-task-tools.js";
import { BackgroundTasks } from "./background-tasks.js";
import { createBashTool } from "./bash-tool.js";
import { createEditTool } from "./edit-tool.js";
import { createGlobTool } from "./glob-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadTool } from "./read-tool.js";
import type { Tool } from "./tool.js";
import { createWebFetchTool } from "./web-fetch-tool.js";
import { createWriteTool } from "./write-tool.js";

/**
 * The coding tools offered by default: read, write, edit, bash, bash_output, kill_task, ls, glob,
 * grep, web_fetch. `bashEnv` is the environment `bash` commands get (default: this process's,
 * secret-looking names withheld); `webFetch` is config "web_fetch"; `tasks` holds the background
 * commands (a run's, whose logs go to its session folder; by default one logging under the temp folder).
 */
export function createDefaultTools(
  options: {
    bashEnv?: NodeJS.ProcessEnv;
    sandbox?: SandboxPolicy;
    webFetch?: { allow_private?: boolean };
    tasks?: BackgroundTasks;
  } = {},
): Tool[] {
  const tasks = options.tasks ?? new BackgroundTasks(() => join(tmpdir(), `panto-tasks-${process.pid}`));
  return [
    createReadTool(),
    createWriteTool(),
    createEditTool(),
    createBashTool({
      ...(options.bashEnv === undefined ? {} : { env: options.bashEnv }),
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
      tasks,
    }),
    createBashOutputTool(tasks),
    createKillTaskTool(tasks),
    createLsTool(),
    createGlobTool(),
    createGrepTool(),
    createWebFetchTool({ allowPrivate: options.webFetch?.allow_private === true }),
  ];
}
