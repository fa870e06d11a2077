import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportSession, memorySink } from "../../src/export/index.js";
import { imagesFolder, openSession } from "../../src/session/index.js";
import { tinyPng } from "../support/tiny-images.js";
import { useTempDir } from "../support/use-temp-dir.js";

const temp = useTempDir("panto-image-export-");
const png = tinyPng(4, 2, 5);
const data = png.toString("base64");

/** A session whose prompt holds `shot.png`. */
async function sessionWithImage(): Promise<string> {
  const path = join(temp(), "s.jsonl");
  const session = await openSession(path, { cwd: temp() });
  await session.appendMessage({
    role: "user",
    content: [
      { type: "text", text: "what is wrong here?" },
      { type: "image", mediaType: "image/png", data, name: "shot.png" },
    ],
  });
  await session.close();
  return path;
}

describe("images in the HTML export", () => {
  it("shows a stored image inline as a data: URL, captioned with its placeholder", async () => {
    const path = await sessionWithImage();
    const html = memorySink();
    await exportSession({ path, format: "html" }, html);
    expect(html.text()).toContain(
      `<figure class="image"><img src="data:image/png;base64,${data}" alt="shot.png"><figcaption>[image: shot.png, image/png, 4x2, ${png.length} B]</figcaption></figure>`,
    );
  });

  it("names the missing file when the image is gone from the folder beside the session", async () => {
    const path = await sessionWithImage();
    const stored = join(imagesFolder(path), `${createHash("sha256").update(png).digest("hex")}.png`);
    await rm(stored);
    const html = memorySink();
    await exportSession({ path, format: "html" }, html);
    expect(html.text()).toContain(`[image missing: ${stored} (shot.png)]`);
    expect(html.text()).not.toContain("<img src=");
  });
});
