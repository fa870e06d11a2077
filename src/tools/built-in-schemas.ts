import { bashOutputSchema, killTaskSchema } from "./background-task-tools.js";
import { bashSchema } from "./bash-tool.js";
import { editSchema } from "./edit-tool.js";
import { globSchema } from "./glob-tool.js";
import { grepSchema } from "./grep-tool.js";
import { lsSchema } from "./ls-tool.js";
import { readSchema } from "./read-tool.js";
import { recallSchema } from "./recall-schema.js";
import { todoSchema } from "./todo-schema.js";
import { webFetchSchema } from "./web-fetch-tool.js";
import { writeSchema } from "./write-tool.js";

/** Each built-in tool's schema builder, by tool name: the source tool-parameters.ts is generated from. */
export const BUILT_IN_SCHEMAS = {
  read: readSchema,
  write: writeSchema,
  edit: editSchema,
  bash: bashSchema,
  bash_output: bashOutputSchema,
  kill_task: killTaskSchema,
  ls: lsSchema,
  glob: globSchema,
  grep: grepSchema,
  recall: recallSchema,
  web_fetch: webFetchSchema,
  todo: todoSchema,
};
