import { createHash } from "node:crypto";
import { escapeHtml } from "./clean-text.js";

/**
 * The page's only script, a progressive enhancement: buttons to open or close every collapsed
 * block. The page reads the same without it. Allowed by its hash in the Content-Security-Policy.
 */
const PAGE_SCRIPT = `(function(){var bar=document.getElementById("tools");if(!bar)return;function all(open){document.querySelectorAll("details").forEach(function(d){d.open=open;});}[["Expand all",true],["Collapse all",false]].forEach(function(p){var b=document.createElement("button");b.type="button";b.textContent=p[0];b.addEventListener("click",function(){all(p[1]);});bar.appendChild(b);});})();`;

const PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1d1f23;--muted:#5b6270;--line:#d8dce3;--panel:#f5f7fa;--accent:#2458c6;--overflow:#c2410c;--manual:#2458c6;--edited:#7c3aed;--cold:#0369a1;--failed:#b91c1c;--undone:#6b7280;--kept:#047857;--summarised:#8a6d00;--effective:#0f766e}
@media (prefers-color-scheme:dark){:root{--bg:#14161a;--fg:#e6e8eb;--muted:#9aa3b2;--line:#343a44;--panel:#1c2027;--accent:#7aa7ff;--overflow:#fb923c;--manual:#7aa7ff;--edited:#c4b5fd;--cold:#38bdf8;--failed:#f87171;--undone:#9ca3af;--kept:#34d399;--summarised:#facc15;--effective:#2dd4bf}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main,body>header,#timeline{max-width:64rem;margin:0 auto;padding:0 1rem}
a{color:var(--accent)}a:focus-visible,summary:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--panel);padding:.5rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem;margin:.4rem 0;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.timeline{width:100%;height:auto;display:block;border:1px solid var(--line);border-radius:8px;background:var(--panel)}
.timeline .grid{stroke:var(--line)}.timeline .tick{fill:var(--muted);font-size:11px}
.timeline .size{fill:none;stroke:var(--accent);stroke-width:1.5}.timeline .estimated{fill:var(--bg);stroke:var(--accent)}
.timeline .window{stroke:var(--failed);stroke-dasharray:6 4}
.timeline .marker .rule{stroke:transparent;stroke-width:10}.timeline .marker:hover .rule,.timeline .marker:focus .rule{stroke:var(--line)}
.timeline .marker .drop{stroke-width:3}.timeline .marker circle{stroke:var(--bg);stroke-width:1.5}
.timeline .trigger-overflow .drop{stroke:var(--overflow)}.timeline .trigger-overflow circle{fill:var(--overflow)}
.timeline .trigger-manual .drop{stroke:var(--manual)}.timeline .trigger-manual circle{fill:var(--manual)}
.timeline .trigger-edited .drop{stroke:var(--edited)}.timeline .trigger-edited circle{fill:var(--edited)}
.timeline .trigger-cold-cache .drop{stroke:var(--cold)}.timeline .trigger-cold-cache circle{fill:var(--cold)}
.timeline .failed .cross{stroke:var(--failed);stroke-width:3}
.timeline .undone .drop,.timeline .incomplete .drop{stroke:var(--undone);stroke-dasharray:3 3}.timeline .undone circle,.timeline .incomplete circle{fill:var(--bg);stroke:var(--undone)}
.legend .key::before{content:"";display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.3em;vertical-align:-.05em;background:var(--accent)}
.legend .overflow::before{background:var(--overflow)}.legend .manual::before{background:var(--manual)}.legend .edited::before{background:var(--edited)}.legend .cold-cache::before{background:var(--cold)}.legend .failed::before{background:var(--failed)}.legend .undone::before{background:var(--undone)}.legend .window::before{background:var(--failed);border-radius:0;height:.2em}
.legend,.note,.meta,.cut,header time{color:var(--muted);font-size:13px}
.totals{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:.5rem 0}.totals div,.facts div{display:flex;gap:.4rem}.totals dt,.facts dt{color:var(--muted)}.totals dd,.facts dd{margin:0}
.marks li.failed a{color:var(--failed)}.marks li.undone a,.marks li.incomplete a{color:var(--undone);text-decoration-style:dashed}
#tools{position:sticky;top:0;display:flex;gap:.5rem;padding:.4rem 0;background:var(--bg);z-index:1}#tools:empty{display:none}
button{font:inherit;padding:.2rem .7rem;border:1px solid var(--line);border-radius:6px;background:var(--panel);color:var(--fg);cursor:pointer}
.entry,.compaction{content-visibility:auto;contain-intrinsic-size:auto 160px;border-left:4px solid var(--line);padding:.3rem .9rem;margin:.9rem 0}
.entry header,.compaction header{display:flex;flex-wrap:wrap;gap:.2rem .6rem;align-items:baseline}.entry header>a:last-child{margin-left:auto;font-size:12px}
.label{font-weight:600}.badge{font-size:12px;border:1px solid var(--line);border-radius:999px;padding:0 .5rem}
.entry.user{border-left-color:var(--accent)}.entry.summarised{opacity:.72}.entry.summarised .badge{border-color:var(--summarised)}
.entry.kept{border-left-style:double}.entry.copy{border-left-color:var(--kept)}.entry.effective{box-shadow:inset 3px 0 0 var(--effective)}
.entry.failed,.entry.turn-failed{border-left-color:var(--failed)}.error{color:var(--failed)}
.compaction{border:2px solid var(--line);border-left-width:6px;border-radius:8px;background:var(--panel)}
.compaction.trigger-overflow{border-left-color:var(--overflow)}.compaction.trigger-manual{border-left-color:var(--manual)}.compaction.trigger-edited{border-left-color:var(--edited)}.compaction.trigger-cold-cache{border-left-color:var(--cold)}
.compaction.failed{border-left-color:var(--failed);border-style:dashed}.compaction.undone,.compaction.incomplete{border-style:dashed;opacity:.8}.compaction.effective{outline:2px solid var(--effective)}
.compaction h3{margin:.2rem 0}.compaction h4{margin:.6rem 0 .2rem}
details>summary{cursor:pointer;color:var(--muted)}details[open]>summary{color:var(--fg)}
.tool-result.error>summary{color:var(--failed)}.markdown img{display:none}.md-image{color:var(--muted)}
.timeline .todo-marker path{fill:var(--kept);stroke:var(--bg)}.timeline .todo-marker.flagged path{fill:var(--failed)}.legend .todo::before{background:var(--kept);border-radius:0;transform:rotate(45deg) scale(.8)}
.todo-list{border:1px solid var(--line);border-radius:6px;padding:.3rem .8rem;margin:.4rem 0;background:var(--panel)}.todo-list h4{margin:.2rem 0}.todo-list ol{margin:.2rem 0;padding-left:1.5rem}
.todo .status{font-weight:600;margin-right:.3rem}.todo.completed .status{color:var(--kept)}.todo.in-progress .status{color:var(--accent)}.todo.cancelled{color:var(--muted);text-decoration:line-through}
.todo .evidence{color:var(--muted);font-size:13px}.todo .flag{color:var(--failed);margin:0;font-size:13px}.todo-marks li.flagged a{color:var(--failed)}
figure.image{margin:.4rem 0}figure.image img{max-width:100%;max-height:32rem;border:1px solid var(--line)}figure.image figcaption,p.image{color:var(--muted)}
`;

/** The script's hash for the Content-Security-Policy. */
function scriptHash(): string {
  return `sha256-${createHash("sha256").update(PAGE_SCRIPT, "utf8").digest("base64")}`;
}

/**
 * Nothing on the page may load anything: no network, no frames, no forms; inline styles, the one
 * script by its hash, and data: images only.
 */
export function contentSecurityPolicy(): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src '${scriptHash()}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** Everything before the timeline. `title` and `intro` are HTML already escaped by the caller. */
export function pageStart(title: string, intro: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy())}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<a class="skip" href="#entries">Skip to the entries</a>
<header><h1>${title}</h1>${intro}</header>
`;
}

/** Between the timeline and the entries. */
export function entriesStart(): string {
  return `<main id="entries" tabindex="-1"><h2>Entries in file order</h2><div id="tools"></div>\n`;
}

export function pageEnd(footer: string): string {
  return `</main>\n<footer><p class="note">${footer}</p></footer>\n<script>${PAGE_SCRIPT}</script>\n</body>\n</html>\n`;
}
