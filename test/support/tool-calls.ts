import type { FakeReply } from "../../src/simulator/fake-provider-types.js";

/** One item of a todo call, as a model writes it (statuses not checked here: tests send wrong ones on purpose). */
export type TodoItem = { content: string; status: string; evidence?: string };

/** A scripted model's answer that calls the todo tool with this list. */
export const todoCall = (id: string, items: TodoItem[]): FakeReply => ({
  type: "tool-calls",
  calls: [{ id, name: "todo", arguments: { items } }],
});

/** A scripted model's answer that runs this command with the bash tool. */
export const bashCall = (id: string, command: string): FakeReply => ({
  type: "tool-calls",
  calls: [{ id, name: "bash", arguments: { command } }],
});
