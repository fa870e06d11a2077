import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { KeyInput, pasteAsLine } from "../../src/frontends/terminal/toolkit/key-input.js";

/** A KeyInput over a fake terminal, recording the keys it passes on to readline. */
function keyboard(): {
  stdin: PassThrough;
  keys: KeyInput;
  seen: Array<{ text: string | undefined; name?: string }>;
} {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const keys = new KeyInput(stdin);
  const seen: Array<{ text: string | undefined; name?: string }> = [];
  keys.on("keypress", (text: string | undefined, key: { name?: string }) =>
    seen.push({ text, ...(key.name === undefined ? {} : { name: key.name }) }),
  );
  return { stdin, keys, seen };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("the keyboard in front of readline", () => {
  it("passes a bracketed paste on as one insertion, its line breaks shown as ↵ and nothing sent", async () => {
    const { stdin, seen } = keyboard();
    stdin.write("\u001b[200~first\r\nsecond\tx\rthird\n\u001b[201~");
    await settle();
    expect(seen).toEqual([{ text: "first↵second\tx↵third" }]);
  });

  it("turns Alt-Enter and Shift-Enter (CSI u and xterm's modifyOtherKeys forms) into a line break", async () => {
    const { stdin, seen } = keyboard();
    stdin.write("a\u001b\rb\u001b[13;2uc\u001b[27;2;13~d\r");
    await settle();
    expect(seen.map((key) => key.text ?? `<${key.name}>`).join("")).toBe("a↵b↵c↵d\r");
    expect(seen.at(-1)?.name).toBe("return");
  });

  it("lets an interceptor take keys first, and passes the others on", async () => {
    const { stdin, keys, seen } = keyboard();
    const taken: string[] = [];
    keys.intercept = (text) => {
      if (text !== "y") return false;
      taken.push(text);
      return true;
    };
    stdin.write("xy");
    await settle();
    expect(taken).toEqual(["y"]);
    expect(seen).toEqual([{ text: "x", name: "x" }]);
  });

  it("hands Esc Esc (one ESC ESC sequence, or two presses close together) to onDoubleEscape, not to readline", async () => {
    const { stdin, keys, seen } = keyboard();
    let opened = 0;
    keys.onDoubleEscape = () => {
      opened++;
    };
    stdin.write("\u001b\u001b");
    // The decoder waits half a second for more of an escape sequence before it reports the keys.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(opened).toBe(1);
    expect(seen).toEqual([]);
    // A lone Escape reaches readline after the decoder's wait; a second one soon after is the pair.
    stdin.write("\u001b");
    await new Promise((resolve) => setTimeout(resolve, 600));
    stdin.write("\u001b");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(opened).toBe(2);
    expect(seen).toEqual([{ text: undefined, name: "escape" }]);
  });

  it("turns bracketed paste on in a terminal and off again", () => {
    const { keys } = keyboard();
    let written = "";
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    terminal.on("data", (chunk: Buffer) => {
      written += chunk.toString();
    });
    keys.enablePaste(terminal);
    keys.disablePaste();
    keys.disablePaste();
    expect(written).toBe("\u001b[?2004h\u001b[?2004l");
    const notTerminal = Object.assign(new PassThrough(), { isTTY: false });
    keys.enablePaste(notTerminal);
    expect(notTerminal.read()).toBeNull();
  });

  it("drops a paste's trailing line breaks and control characters other than tab", () => {
    expect(pasteAsLine("a\r\nb\n\n")).toBe("a↵b");
    expect(pasteAsLine("x\u0007y\tz")).toBe("xy\tz");
  });
});
