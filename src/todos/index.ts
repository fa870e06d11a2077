export { flaggedTodos, sessionLedger, todosInForce } from "./todo-state.js";
export { createTodoTool, type TodoToolOptions, todoAnswer } from "./todo-tool.js";
