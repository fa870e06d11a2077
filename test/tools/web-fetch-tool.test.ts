import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool } from "../../src/tools/index.js";
import { textOf } from "./temp-dir.js";

/** A real site on 127.0.0.1; `written` counts the bytes of /big the server got out. */
let server: http.Server;
let base = "";
let written = 0;
const BIG_BYTES = 50 * 1024 * 1024;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    if (request.url === "/a") response.writeHead(302, { location: "/page" }).end();
    else if (request.url === "/page")
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end('<h1>Hi</h1><p>See <a href="/docs">the docs</a>.</p><script>steal()</script>');
    else if (request.url === "/pdf")
      response.writeHead(200, { "content-type": "application/pdf", "content-length": "1234567" }).end();
    else if (request.url === "/to-metadata")
      response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    else if (request.url === "/to-localhost")
      response.writeHead(302, { location: `http://localhost:${port}/page` }).end();
    else if (request.url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = (): void => {
        while (written < BIG_BYTES && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once("drain", pump);
            return;
          }
        }
        response.end();
      };
      pump();
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Allowed to reach the test site's address only, as config allow_private would for every one. */
const allowed = createWebFetchTool({ allowedAddresses: ["127.0.0.1"] });
const strict = createWebFetchTool();
const context = { cwd: "/" };

describe("web_fetch", () => {
  it("returns a page as Markdown, marked untrusted, links kept absolute, after following a redirect it reports", async () => {
    const output = await allowed.execute({ url: `${base}/a` }, context);
    const text = textOf(output);
    expect(output.isError).toBe(false);
    expect(text.split("\n")[0]).toContain("Untrusted web content");
    expect(text).toContain(`URL: ${base}/page`);
    expect(text).toContain(`Redirected from: ${base}/a`);
    expect(text).toContain("# Hi");
    expect(text).toContain(`[the docs](${base}/docs)`);
    expect(text).not.toContain("steal()");
  });

  it("refuses a PDF by its type and size without reading it", async () => {
    const output = await allowed.execute({ url: `${base}/pdf` }, context);
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("application/pdf (1.2 MiB)");
  });

  it("refuses a loopback address by default, given literally or as a name resolving to it", async () => {
    const port = (server.address() as AddressInfo).port;
    const literal = await strict.execute({ url: `${base}/page` }, context);
    expect(literal.isError).toBe(true);
    expect(textOf(literal)).toContain("127.0.0.1 is a loopback address");
    const named = await strict.execute({ url: `http://localhost:${port}/page` }, context);
    expect(named.isError).toBe(true);
    expect(textOf(named)).toMatch(/localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
  });

  it("does not follow a redirect to another host: it reports it for a new call", async () => {
    const output = await allowed.execute({ url: `${base}/to-localhost` }, context);
    expect(textOf(output)).toContain("redirects (HTTP 302) to another host: http://localhost:");
    expect(textOf(output)).not.toContain("# Hi");
  });

  it("does not follow an allowed site's redirect to the metadata address, and refuses it asked for directly", async () => {
    const output = await allowed.execute({ url: `${base}/to-metadata` }, context);
    expect(textOf(output)).toContain(
      "redirects (HTTP 301) to another host: http://169.254.169.254/latest/meta-data/",
    );
    expect(textOf(output)).toContain("It was not followed");
    const direct = await allowed.execute({ url: "http://169.254.169.254/latest/meta-data/" }, context);
    expect(direct.isError).toBe(true);
    expect(textOf(direct)).toContain("169.254.169.254 is a link-local (or cloud metadata) address");
  });

  it("cuts a 50 MB body at the bound and stops downloading", async () => {
    const output = await allowed.execute({ url: `${base}/big` }, context);
    expect(textOf(output)).toContain("The body was cut at 2.0 MiB");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(written).toBeLessThan(BIG_BYTES / 4);
  });
});
