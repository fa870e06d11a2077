import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-web";
const KEY = "sk-ant-web-fetch-test-key";

/** A real site on 127.0.0.1; every request it gets is kept, headers included. */
let site: http.Server;
let siteUrl = "";
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  site = http.createServer((request, response) => {
    seen.push(request.headers);
    if (request.url === "/docs")
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          '<html><head><title>Widget</title><script>exfiltrate()</script></head><body><h1>Widget docs</h1><p>Read <a href="/guide">the guide</a> first.</p></body></html>',
        );
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => {
  site.closeAllConnections();
  site.close();
});

let provider: FakeServer | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  seen.length = 0;
});

/**
 * Runs `panto -p` in a project with `config`, against a fake Anthropic server whose model calls
 * web_fetch on the local site's /docs once and then answers; `flags` go before -p.
 */
async function fetchRun(config: Record<string, unknown>, flags: string[]) {
  provider = await startFakeAnthropicServer();
  provider.enqueue(
    {
      type: "tool-calls",
      calls: [{ id: "call_web", name: "web_fetch", arguments: { url: `${siteUrl}/docs` } }],
    },
    { type: "text", text: "read it" },
  );
  const box = await makeSandbox();
  await mkdir(join(box.project, ".panto"));
  await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify({ model: MODEL, ...config }));
  const run = await runPanto([...flags, "-p", "read the widget docs"], {
    cwd: box.project,
    env: {
      ...box.env,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: provider.url,
      PANTO_MANAGED_SETTINGS: join(box.root, "managed.json"),
    },
  });
  return { run, requests: provider.requests };
}

/** The tool_result block the provider received for the call, as the model reads it. */
function resultSent(requests: RecordedRequest[]): { is_error?: boolean; text: string } {
  const messages = (requests[1]?.body as { messages?: Array<{ content: unknown }> } | undefined)?.messages;
  const blocks = messages?.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  const result = blocks?.find(
    (block: { type?: string; tool_use_id?: string }) =>
      block.type === "tool_result" && block.tool_use_id === "call_web",
  ) as { is_error?: boolean; content: unknown } | undefined;
  if (result === undefined) throw new Error("the provider got no tool_result for call_web");
  const text =
    typeof result.content === "string"
      ? result.content
      : (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
  return { ...(result.is_error === undefined ? {} : { is_error: result.is_error }), text };
}

describe("web_fetch through the built CLI", () => {
  it("refuses a loopback page by default, even with --allow-tools, and sends the site nothing", async () => {
    const { run, requests } = await fetchRun({}, ["--json", "--allow-tools"]);
    expect(run.code).toBe(0);
    const results = jsonLines(run.stdout).filter((event) => event.type === "tool_result");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: "web_fetch", is_error: true });
    expect(String(results[0]?.text)).toContain("127.0.0.1 is a loopback address");
    expect(String(results[0]?.text)).toContain('"web_fetch": {"allow_private": true}');
    const sent = resultSent(requests);
    expect(sent.is_error).toBe(true);
    expect(sent.text).toContain("127.0.0.1 is a loopback address");
    expect(seen).toHaveLength(0);
  });

  it("with config web_fetch.allow_private, hands the provider the page as Markdown marked untrusted, sending no key", async () => {
    const { run, requests } = await fetchRun({ web_fetch: { allow_private: true } }, [
      "--json",
      "--allow-tools",
    ]);
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    const result = events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ name: "web_fetch", is_error: false });
    const sent = resultSent(requests);
    expect(sent.is_error ?? false).toBe(false);
    expect(sent.text.split("\n")[0]).toContain("Untrusted web content");
    expect(sent.text).toContain(`URL: ${siteUrl}/docs`);
    expect(sent.text).toContain("(converted to Markdown)");
    expect(sent.text).toContain("# Widget docs");
    expect(sent.text).toContain(`Read [the guide](${siteUrl}/guide) first.`);
    expect(sent.text).not.toContain("exfiltrate");
    expect(sent.text).not.toContain("<h1>");
    // One request reached the site, naming panto and carrying no credential of any kind.
    expect(seen).toHaveLength(1);
    expect(seen[0]?.["user-agent"]).toBe("panto (web_fetch)");
    expect(seen[0]).not.toHaveProperty("cookie");
    expect(seen[0]).not.toHaveProperty("authorization");
    expect(seen[0]).not.toHaveProperty("x-api-key");
    expect(JSON.stringify(seen[0])).not.toContain(KEY);
  });

  it("in plain -p without --allow-tools, in the network-off sandbox, denies the call (nobody to ask) and says so", async () => {
    const { run, requests } = await fetchRun({ web_fetch: { allow_private: true } }, [
      "--sandbox",
      "workspace-write",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("denied web_fetch: pass --allow-tools");
    expect(run.stdout).toContain("read it");
    const sent = resultSent(requests);
    expect(sent.is_error).toBe(true);
    expect(sent.text).not.toContain("Widget docs");
    expect(seen).toHaveLength(0);
  });

  it("in plain -p without --allow-tools, runs a call an allow rule WebFetch(domain:HOST) covers", async () => {
    const { run, requests } = await fetchRun(
      { web_fetch: { allow_private: true }, permissions: { allow: ["WebFetch(domain:127.0.0.1)"] } },
      ["--sandbox", "workspace-write"],
    );
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("denied web_fetch");
    const sent = resultSent(requests);
    expect(sent.is_error ?? false).toBe(false);
    expect(sent.text).toContain("# Widget docs");
    expect(seen).toHaveLength(1);
  });

  it("in plain -p, a deny rule WebFetch(domain:HOST) refuses the call, --allow-tools included, naming the rule", async () => {
    const { run, requests } = await fetchRun(
      { web_fetch: { allow_private: true }, permissions: { deny: ["WebFetch(domain:127.0.0.1)"] } },
      ["--allow-tools"],
    );
    expect(run.code).toBe(0);
    const sent = resultSent(requests);
    expect(sent.is_error).toBe(true);
    expect(sent.text).toContain("WebFetch(domain:127.0.0.1) (permissions.deny[0]");
    expect(seen).toHaveLength(0);
  });
});
