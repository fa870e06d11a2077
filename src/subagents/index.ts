export { type AgentDefinition, AgentDefinitionError, parseAgentDefinition } from "./agent-definition.js";
export { type AgentDefinitions, agentFolders, loadAgentDefinitions } from "./load-agent-definitions.js";
export { ParallelLimit } from "./parallel-limit.js";
export {
  CONCLUDE_PROMPT,
  childTools,
  DEFAULT_TASK_MAX_REQUESTS,
  runTask,
  TASK_INSTRUCTIONS,
  type TaskEnvironment,
  type TaskEvent,
} from "./run-task.js";
export { MAX_ANSWER_CHARS, MAX_LIST_ITEMS, taskHeadline, taskReport } from "./task-report.js";
export { createTaskTool, DEFAULT_MAX_PARALLEL_TASKS } from "./task-tool.js";
