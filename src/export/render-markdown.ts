import type { MarkdownIt, RendererRule } from "markdown-it";

/** Renders Markdown text to HTML that can neither run a script nor load anything. */
export type MarkdownToHtml = (markdown: string) => string;

const ALLOWED_LINK = /^(?:https?:|mailto:)/i;

/**
 * A Markdown renderer for model answers and summaries, built on markdown-it (loaded here, lazily,
 * only when an export runs). Safe by construction rather than by a sanitising pass afterwards:
 * - `html: false`: raw HTML in the text is escaped, never passed through;
 * - links only to http, https and mailto (anything else, `javascript:` and `data:` included,
 *   stays plain text);
 * - images are never loaded: `![alt](url)` shows as text naming the alt text and the address.
 * markdown-it escapes every text run and attribute it writes (fence languages included).
 */
export async function createMarkdownRenderer(): Promise<MarkdownToHtml> {
  const { default: MarkdownItClass } = await import("markdown-it");
  const markdown: MarkdownIt = new MarkdownItClass({ html: false, linkify: true, typographer: false });
  markdown.validateLink = (url: string) => ALLOWED_LINK.test(url.trim());
  const escapeText = markdown.utils.escapeHtml;
  const image: RendererRule = (tokens, index) => {
    const token = tokens[index];
    if (token === undefined) return "";
    const alt = token.children?.map((child) => child.content).join("") ?? "";
    return `<span class="md-image">[image${alt === "" ? "" : `: ${escapeText(alt)}`} · ${escapeText(String(token.attrGet("src") ?? ""))}, not loaded]</span>`;
  };
  markdown.renderer.rules.image = image;
  const linkOpen = markdown.renderer.rules.link_open;
  const link: RendererRule = (tokens, index, options, env, self) => {
    tokens[index]?.attrSet("rel", "noreferrer noopener nofollow");
    return linkOpen === undefined
      ? self.renderToken(tokens, index, options)
      : linkOpen(tokens, index, options, env, self);
  };
  markdown.renderer.rules.link_open = link;
  return (text) => markdown.render(text);
}
