import TurndownService from "turndown";

/** The part of a DOM node the rules below read (turndown parses with domino in Node). */
interface PageNode {
  nodeName: string;
  getAttribute(name: string): string | null;
}

/** Elements whose content is no text a reader sees: dropped whole. */
const DROPPED = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "IFRAME",
  "OBJECT",
  "EMBED",
  "CANVAS",
  "SVG",
]);

/**
 * The page as Markdown, converted by turndown (a DOM parse, not patterns over the text): headings,
 * lists, code blocks, tables' text and links kept. Links and images are made absolute against
 * `base` (the final URL), so the model can fetch a link it reads; javascript: and data: targets are
 * dropped, their text kept.
 */
export function htmlToMarkdown(html: string, base: string): string {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  service.remove((node: PageNode) => DROPPED.has(node.nodeName.toUpperCase()));
  service.addRule("absoluteLinks", {
    filter: (node: PageNode) => node.nodeName === "A" && node.getAttribute("href") !== null,
    replacement: (content: string, node: PageNode) => {
      const target = absolute(node.getAttribute("href") ?? "", base);
      const text = content.trim();
      if (target === undefined) return text;
      return `[${text === "" ? target : text}](${target})`;
    },
  });
  service.addRule("absoluteImages", {
    filter: (node: PageNode) => node.nodeName === "IMG",
    replacement: (_content: string, node: PageNode) => {
      const target = absolute(node.getAttribute("src") ?? "", base);
      const alt = (node.getAttribute("alt") ?? "").replace(/[[\]\n]/g, " ").trim();
      return target === undefined ? alt : `![${alt}](${target})`;
    },
  });
  return service.turndown(html).trim();
}

/** `href` resolved against `base`, with spaces and parentheses percent-encoded for Markdown; undefined for a script or data target. */
function absolute(href: string, base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol === "javascript:" || url.protocol === "data:") return undefined;
  return url.href.replace(/[ ()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}
