import { common, createEmphasize } from "emphasize";
import type { Highlight } from "./markdown-terminal.js";

/**
 * Syntax colouring for fenced code in the interactive terminal: emphasize (highlight.js through
 * lowlight, with its 37 common languages) turns code into text with ANSI colours and nothing else
 * added. Imported lazily, and only by the interactive mode with colour on; an unknown language
 * gets no colours.
 */
export function createHighlight(): Highlight {
  const emphasize = createEmphasize(common);
  return (code, language) =>
    emphasize.registered(language) ? emphasize.highlight(language, code).value : undefined;
}
