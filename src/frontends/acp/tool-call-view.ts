import type {
  ContentBlock,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type { ToolCallBlock, ToolResultBlock } from "../../core/index.js";
import { shorten } from "../../runtime/format-text.js";
import { type FileChange, resolveToolPath } from "../../tools/index.js";

/** What the editor shows of one tool call: its title, kind (for the icon) and the files it touches. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

/** How panto's tools map onto ACP's kinds: reading, editing, running, searching. */
export function toolKind(name: string): ToolKind {
  switch (name) {
    case "read":
      return "read";
    case "write":
    case "edit":
      return "edit";
    case "bash":
      return "execute";
    case "ls":
    case "glob":
    case "grep":
      return "search";
    default:
      return "other";
  }
}

/**
 * The view of a call: a short title, its kind, and the absolute locations (with a line) the editor
 * can follow. `change` (a write's or edit's real change, when known) gives the line edited.
 */
export function toolCallView(call: ToolCallBlock, cwd: string, change?: FileChange): ToolCallView {
  const args = call.arguments;
  const text = (value: unknown): string | undefined =>
    typeof value === "string" && value !== "" ? value : undefined;
  const at = (given: string | undefined, line?: number): ToolCallLocation[] =>
    given === undefined
      ? []
      : [{ path: resolveToolPath(cwd, given), ...(line === undefined ? {} : { line }) }];
  const path = text(args.path);
  const kind = toolKind(call.name);
  switch (call.name) {
    case "read": {
      const offset = typeof args.offset === "number" ? args.offset : 1;
      return { title: `Read ${path ?? "?"}`, kind, locations: at(path, offset) };
    }
    case "write":
    case "edit":
      return {
        title: `${call.name === "write" ? "Write" : "Edit"} ${path ?? "?"}`,
        kind,
        locations: change === undefined ? at(path, 1) : [{ path: change.path, line: change.line }],
      };
    case "bash":
      return { title: shorten(text(args.command) ?? "bash", 100), kind, locations: [] };
    case "ls":
      return { title: `List ${path ?? "."}`, kind, locations: at(path ?? ".") };
    case "glob":
      return { title: `Find ${shorten(text(args.pattern) ?? "?", 80)}`, kind, locations: at(path) };
    case "grep":
      return { title: `Search ${shorten(text(args.pattern) ?? "?", 80)}`, kind, locations: at(path) };
    default:
      return { title: call.name, kind, locations: [] };
  }
}

/** A change as ACP's diff content: the whole file's text before (absent for a new file) and after. */
export function diffContent(change: FileChange): ToolCallContent {
  return {
    type: "diff",
    path: change.path,
    ...(change.oldText === undefined ? {} : { oldText: change.oldText }),
    newText: change.newText,
  };
}

/** A result's status and content: the diff of what a write or edit changed, then what the tool said. */
export function toolResultView(
  result: ToolResultBlock,
  change: FileChange | undefined,
): { status: ToolCallStatus; content: ToolCallContent[] } {
  const blocks: ContentBlock[] = result.content.map((block) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "image", data: block.data, mimeType: block.mediaType },
  );
  const diff = change === undefined || result.isError ? [] : [diffContent(change)];
  return {
    status: result.isError ? "failed" : "completed",
    content: [...diff, ...blocks.map((content): ToolCallContent => ({ type: "content", content }))],
  };
}
