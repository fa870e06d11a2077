/** The elements the export writes itself (page shell, entries, timeline) and markdown-it's. */
const TAGS = new Set(
  (
    "html head meta title style body a header h1 h2 h3 h4 h5 h6 main div footer p script section article " +
    "details summary span code pre ol ul li dl dt dd time svg line polyline path circle text strong em s " +
    "blockquote hr br table thead tbody tr th td del ins b i img small sup sub"
  ).split(" "),
);

/** The attributes those elements carry. */
const ATTRIBUTES = new Set(
  (
    "lang charset http-equiv content name class href id tabindex datetime title open role aria-label " +
    "aria-hidden aria-labelledby aria-describedby aria-current viewbox dy dx xmlns x y x1 x2 y1 y2 cx cy r d points width height fill stroke stroke-width " +
    "text-anchor font-size data-line data-entry data-id data-status data-kind rel start style colspan " +
    "rowspan align transform dominant-baseline data-tool data-effective data-role data-type"
  ).split(" "),
);

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([^\s=/"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/**
 * The first sign of live markup from session content in an exported page, or undefined: a tag or
 * attribute the exporter never writes, an event handler, a `javascript:`/`data:` link, a second
 * script or style element, or a `<` that opens a tag the scan cannot read. Text inside the one
 * script and style element is the exporter's own and is skipped.
 */
export function liveMarkup(page: string): string | undefined {
  const scripts = page.match(/<script\b/gi)?.length ?? 0;
  const styles = page.match(/<style\b/gi)?.length ?? 0;
  if (scripts !== 1 || styles !== 1) return `${scripts} script and ${styles} style elements`;
  const body = page
    .replace(/^<!DOCTYPE html>/, "")
    .replace(/<script>[\s\S]*?<\/script>/, "<script></script>")
    .replace(/<style>[\s\S]*?<\/style>/, "<style></style>");
  for (const match of body.matchAll(TAG)) {
    const [whole, , name = "", attributes = ""] = match;
    if (!TAGS.has(name.toLowerCase())) return `element ${whole.slice(0, 80)}`;
    const problem = attributeProblem(attributes);
    if (problem !== undefined) return `${problem} in ${whole.slice(0, 120)}`;
  }
  const stray = /<(?=[A-Za-z!?/])/g;
  const tagStarts = new Set([...body.matchAll(TAG)].map((match) => match.index));
  for (const match of body.matchAll(stray))
    if (!tagStarts.has(match.index))
      return `unreadable tag at ${JSON.stringify(body.slice(match.index, match.index + 60))}`;
  return undefined;
}

function attributeProblem(attributes: string): string | undefined {
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? "").toLowerCase();
    const value = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "")
      .replace(/\s/g, "")
      .toLowerCase();
    if (!ATTRIBUTES.has(name)) return `attribute ${name}`;
    if ((name === "href" || name === "src") && !/^(?:https?:|mailto:|#)/.test(value))
      return `link to ${value.slice(0, 40)}`;
  }
  return undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000),
    )
    .replace(/&#([0-9]+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ":");
}
