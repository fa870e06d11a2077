import { FIDELITY_FACT_KINDS, type FidelityFactKind } from "./fidelity-fact.js";
import type { FidelityReport } from "./fidelity-report.js";
import { type FactScore, fidelityTotals } from "./score-fidelity.js";

const HEADINGS = [
  "kind",
  "facts",
  "in summary",
  "in block",
  "answered",
  "answered (recall)",
  "answered (full)",
];

/** The report as text: a table by kind, then the facts the block lost and those the model missed. */
export function formatFidelityReport(report: FidelityReport): string {
  const { compaction } = report;
  const what = compaction.fresh ? "a fresh compaction (written nowhere)" : `the compaction in effect`;
  const lines = [
    `Fidelity of ${what} of session ${report.session}: trigger ${compaction.trigger}, summary by ${compaction.model}`,
    "",
    ...table(report),
  ];
  if (report.facts.length === 0) lines.push("", "The summarised turns hold no facts to check.");
  appendList(lines, "Lost (the compaction block does not state them):", report.facts, (f) => !f.inBlock);
  appendList(
    lines,
    "Restored (the summary left them out; the block carries them verbatim):",
    report.facts,
    (f) => f.inBlock && !f.inSummary,
  );
  appendList(lines, "Not answered from the compacted context:", report.facts, (f) => f.answered === false);
  appendList(
    lines,
    "Not answered even with recall:",
    report.facts,
    (f) => f.answered === false && f.answeredRecall === false,
  );
  appendList(
    lines,
    "Not answered from the full context either:",
    report.facts,
    (f) => f.answered === false && f.answeredFull === false,
  );
  lines.push("", `Model requests: ${report.requests}`);
  return `${lines.join("\n")}\n`;
}

function table(report: FidelityReport): string[] {
  const rows = FIDELITY_FACT_KINDS.map((kind) =>
    row(
      kind,
      report.facts.filter((fact) => fact.kind === kind),
    ),
  );
  rows.push(row("total", report.facts));
  const all = [HEADINGS, ...rows];
  const widths = HEADINGS.map((_, column) => Math.max(...all.map((cells) => (cells[column] ?? "").length)));
  return all.map((cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

function row(label: FidelityFactKind | "total", facts: readonly FactScore[]): string[] {
  const answers = {
    ...(facts.some((fact) => fact.answered !== null) ? { compacted: "" } : {}),
    ...(facts.some((fact) => fact.answeredRecall !== null) ? { recall: "" } : {}),
    ...(facts.some((fact) => fact.answeredFull !== null) ? { full: "" } : {}),
  };
  const totals = fidelityTotals(facts, answers);
  const share = (count: number | null): string =>
    count === null
      ? "-"
      : totals.facts === 0
        ? "0"
        : `${count} (${Math.round((100 * count) / totals.facts)}%)`;
  return [
    label,
    String(totals.facts),
    share(totals.inSummary),
    share(totals.inBlock),
    share(totals.answered),
    share(totals.answeredRecall),
    share(totals.answeredFull),
  ];
}

function appendList(
  lines: string[],
  heading: string,
  facts: readonly FactScore[],
  wanted: (fact: FactScore) => boolean,
): void {
  const chosen = facts.filter(wanted);
  if (chosen.length === 0) return;
  lines.push("", heading);
  for (const fact of chosen) lines.push(`  ${fact.kind.padEnd(11)}  ${oneLine(fact.text)}`);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ");
}
