import { describe, expect, it } from "vitest";
import { serializeTranscript } from "../../src/compaction/index.js";
import { tinyPng } from "../support/tiny-images.js";
import { assistant, call, image, results, user } from "./builders.js";

describe("serializeTranscript", () => {
  it("marks every role and shows tool names, JSON arguments, error flags and image placeholders", () => {
    const transcript = serializeTranscript([
      user("Why does `npm test` fail?", image("image/png")),
      assistant([
        { type: "thinking", text: "Run the tests first." },
        { type: "text", text: "Let me run them." },
        call("a", "bash", { command: "npm test" }),
        call("b", "read_file", { path: "src/a.ts" }),
      ]),
      results(
        { id: "a", name: "bash", text: "Error: Cannot find module './b.js'", isError: true },
        { id: "b", name: "read_file", text: "import './b.js';", images: [image("image/jpeg")] },
      ),
      assistant("The import path is wrong."),
    ]);
    expect(transcript).toBe(
      [
        "[User]: Why does `npm test` fail?\n[image: image/png, 8 B]",
        "[Assistant thinking]: Run the tests first.",
        "[Assistant]: Let me run them.",
        '[Assistant tool calls]:\nbash {"command":"npm test"}\nread_file {"path":"src/a.ts"}',
        "[Tool result]: bash (error)\nError: Cannot find module './b.js'",
        "[Tool result]: read_file\nimport './b.js';\n[image: image/jpeg, 8 B]",
        "[Assistant]: The import path is wrong.",
      ].join("\n\n"),
    );
  });

  it("stands a real image as one line naming its file, type, size in pixels and bytes, never its bytes", () => {
    const png = tinyPng(640, 400);
    const data = png.toString("base64");
    const transcript = serializeTranscript([
      user("What is wrong on this page?", { type: "image", mediaType: "image/png", data, name: "shot.png" }),
    ]);
    const kb = Math.round(png.length / 1024);
    expect(transcript).toBe(
      `[User]: What is wrong on this page?\n[image: shot.png, image/png, 640x400, ${png.length < 1024 ? `${png.length} B` : `${kb} KB`}]`,
    );
    expect(transcript).not.toContain(data.slice(0, 40));
  });

  it("truncates nothing, however long a tool result is", () => {
    const long = "line of build output\n".repeat(20_000);
    const transcript = serializeTranscript([
      assistant([call("a", "bash", { command: "make" })]),
      results({ id: "a", name: "bash", text: long }),
    ]);
    expect(transcript).toContain(long);
  });

  it("marks redacted thinking without inventing its text and skips empty thinking", () => {
    const transcript = serializeTranscript([
      assistant([
        { type: "thinking", text: "", redacted: "opaque" },
        { type: "thinking", text: "", signature: "sig" },
        { type: "text", text: "ok" },
      ]),
    ]);
    expect(transcript).toBe("[Assistant thinking]: [redacted]\n\n[Assistant]: ok");
  });
});
