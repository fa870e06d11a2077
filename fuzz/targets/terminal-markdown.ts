import type { AgentEvent } from "../../src/agent/index.js";
import { createStyle } from "../../src/frontends/shared/style.js";
import { createHighlight } from "../../src/frontends/terminal/toolkit/code-highlight.js";
import { MarkdownStream } from "../../src/frontends/terminal/toolkit/markdown-stream.js";
import { TerminalMarkdown } from "../../src/frontends/terminal/toolkit/markdown-terminal.js";
import { fitStatus } from "../../src/frontends/terminal/toolkit/status-line.js";
import { TerminalRenderer } from "../../src/frontends/terminal/toolkit/terminal-renderer.js";
import { textWidth } from "../../src/frontends/terminal/toolkit/text-width.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { cutPieces } from "../support/chunked-body.js";
import { FakeTerminalOutput } from "../support/fake-terminal-output.js";
import { strayControl } from "../support/terminal-safety.js";

const highlight = createHighlight();

/**
 * The interactive terminal's rendering of model and tool text: the streamed Markdown renderer
 * (with syntax colours), thinking, tool calls and results, warnings, and the status line while a
 * tool runs. The input is the model's answer (streamed in pieces); its lines also serve as the
 * thinking, a tool call's name and command, the tool's output and a warning. Invariants: nothing
 * throws; no control character from the text reaches stdout or stderr other than panto's own style
 * sequences (the status line included, drawn while the tool runs); `fitStatus` always fits its row.
 */
export const target: FuzzTarget = {
  description: "model/tool text -> TerminalRenderer (Markdown stream, highlighter, notices) and fitStatus",
  dictionary: [
    "```",
    "```ts\n",
    "\n\n",
    "# ",
    "- ",
    "1. ",
    "> ",
    "|a|b|\n|-|-|\n",
    "**",
    "_",
    "`",
    "[x](http://a)",
    "[x][a]",
    "\n[a]: http://a\n",
    "![i](data:x)",
    "<b>",
    "\u001b[2J",
    "\u001b]8;;http://x\u001b\\",
    "\u0007",
    "\r",
    "\u009b31m",
    "\u200b",
    "\u4e2d",
    "\t",
    "    ",
  ],
  maxLength: 8192,
  run(input) {
    const text = input.toString("utf8");
    const columns = 20 + ((input[0] ?? 0) % 120);
    const out = new FakeTerminalOutput(columns);
    const err = new FakeTerminalOutput(columns);
    const markdown = new TerminalMarkdown(() => columns, highlight);
    const renderer = new TerminalRenderer(out, err, createStyle(true), new MarkdownStream(markdown));
    for (const event of events(text, input)) renderer.render(event);
    renderer.endLine();
    for (const [name, written] of [
      ["stdout", out.text],
      ["stderr", err.text],
    ] as const) {
      const stray = strayControl(written);
      invariant(stray === undefined, `a control character reached ${name}: ${stray}`);
    }
    const lines = text.split("\n");
    const status = fitStatus("⠋", lines[0] ?? "", lines[1] ?? "", "3s", columns - 1);
    invariant(
      textWidth(status) <= columns - 1,
      `status line of width ${textWidth(status)} in ${columns - 1} columns`,
    );
    invariant(!status.includes("\n"), "a status line that takes more than one row");
  },
};

function* events(text: string, input: Buffer): Generator<AgentEvent> {
  const lines = text.split("\n");
  const call = {
    type: "tool-call" as const,
    id: "t1",
    name: lines[0] ?? "bash",
    arguments: { command: text },
  };
  yield { type: "request-started", model: lines[1] ?? "m" };
  yield { type: "thinking-delta", text: lines.slice(0, 3).join("\n") };
  for (const piece of cutPieces(input)) yield { type: "text-delta", text: new TextDecoder().decode(piece) };
  yield { type: "tool-call", call };
  yield { type: "tool-started", call };
  yield {
    type: "tool-result",
    result: {
      type: "tool-result",
      toolCallId: "t1",
      toolName: call.name,
      content: [{ type: "text", text }],
      isError: (input[1] ?? 0) % 2 === 0,
    },
  };
  yield { type: "warning", message: lines.at(-1) ?? "" };
  yield { type: "retry-wait", attempt: 1, delayMs: 1500, reason: lines[2] ?? "" };
  yield { type: "request-started", model: "m" };
  yield { type: "text-delta", text };
  // Ends the answer and stops the status line's timer.
  yield {
    type: "assistant-message",
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      provider: "p",
      api: "openai-chat",
      model: "m",
      stopReason: "stop",
    },
  };
}
