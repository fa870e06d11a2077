import type { ProbeReport } from "../../sandbox/index.js";

/**
 * `panto sandbox` as text: the mode and what enforces it, one line per rule (✓ holds, ✗ does not)
 * with what was tried, then a verdict. A sandbox that cannot be made or started shows why instead.
 */
export function formatProbeReport(report: ProbeReport): string {
  const lines = [headline(report)];
  if (report.mode === "full") {
    lines.push(
      `Configured mode: full (no sandbox: the model's commands run with your rights). What ${report.probedMode} would enforce here:`,
    );
  }
  if (report.failure !== undefined) {
    lines.push(`✗ ${report.failure}`);
    return `${lines.join("\n")}\n`;
  }
  for (const check of report.checks) {
    lines.push(`  ${check.ok ? "✓" : "✗"} ${check.rule}`, `      ${check.detail}`);
  }
  const failed = report.checks.filter((check) => !check.ok).length;
  lines.push(
    failed === 0
      ? `All ${report.checks.length} rules hold on this machine.`
      : `${failed} of ${report.checks.length} rules do not hold on this machine.`,
  );
  return `${lines.join("\n")}\n`;
}

function headline(report: ProbeReport): string {
  const launcher = report.launcher;
  const by =
    launcher === undefined
      ? "no sandbox program found"
      : `${launcher.kind}${launcher.version === undefined ? "" : ` ${launcher.version}`} at ${launcher.path}`;
  return `Sandbox: ${report.probedMode}, network ${report.network ? "on" : "off"} (${by})`;
}

/** `panto sandbox --json`: the report as one object, its keys written as every JSON output of panto's. */
export function probeReportJson(report: ProbeReport): Record<string, unknown> {
  return {
    ok: report.ok,
    mode: report.mode,
    probed_mode: report.probedMode,
    network: report.network,
    launcher: report.launcher ?? null,
    checks: report.checks,
    ...(report.failure === undefined ? {} : { failure: report.failure }),
  };
}
