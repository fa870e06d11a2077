export { flaggedTodos, sessionLedger, todosInForce } from "./todo-state.js";
export { createTodoTool, flagsInTodoAnswer, type TodoToolOptions, todoAnswer } from "./todo-tool.js";
