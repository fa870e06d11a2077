import { describe, expect, it } from "vitest";
import { estimateImageTokens, IMAGE_TOKEN_ESTIMATE } from "../../src/compaction/index.js";
import { imagePlaceholder, imageTokens, readImageInfo } from "../../src/core/index.js";
import { jpegHeader, tinyPng } from "../support/tiny-images.js";

/** A WebP (VP8X) header naming `width` x `height`. */
function webpHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write("RIFF", 0, "latin1");
  bytes.write("WEBP", 8, "latin1");
  bytes.write("VP8X", 12, "latin1");
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
}

/** A GIF header naming `width` x `height`. */
function gifHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write("GIF89a", 0, "latin1");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

describe("image headers", () => {
  it("reads the type and size of PNG, JPEG, GIF and WebP from their headers, and nothing else", () => {
    expect(readImageInfo(tinyPng(5, 3))).toEqual({ mediaType: "image/png", width: 5, height: 3 });
    expect(readImageInfo(jpegHeader(1280, 800))).toEqual({
      mediaType: "image/jpeg",
      width: 1280,
      height: 800,
    });
    expect(readImageInfo(gifHeader(320, 200))).toEqual({ mediaType: "image/gif", width: 320, height: 200 });
    expect(readImageInfo(webpHeader(1000, 700))).toEqual({
      mediaType: "image/webp",
      width: 1000,
      height: 700,
    });
    expect(readImageInfo(Buffer.from("just some text, long enough to be looked at"))).toBeUndefined();
  });

  it("stands an image as one line with its name, type, pixels and size", () => {
    const png = tinyPng(2, 2);
    const block = {
      type: "image" as const,
      mediaType: "image/png",
      data: png.toString("base64"),
      name: "a.png",
    };
    expect(imagePlaceholder(block)).toBe(`[image: a.png, image/png, 2x2, ${png.length} B]`);
  });
});

describe("image tokens by each provider's documented formula", () => {
  it("counts Anthropic's width*height/750, scaled to a 1568 px long side and at most about 1600", () => {
    expect(imageTokens(200, 200, "anthropic")).toBe(54);
    expect(imageTokens(1000, 1000, "anthropic")).toBe(1334);
    expect(imageTokens(4000, 3000, "anthropic")).toBe(1600);
  });

  it("counts OpenAI's 85 + 170 per 512 px tile after fitting 2048 and a 768 px shortest side", () => {
    expect(imageTokens(512, 512, "openai")).toBe(255);
    expect(imageTokens(1024, 1024, "openai")).toBe(765);
    expect(imageTokens(2048, 4096, "openai")).toBe(1105);
  });

  it("counts Gemini's 258 up to 384 px, else 258 per tile", () => {
    expect(imageTokens(384, 300, "gemini")).toBe(258);
    expect(imageTokens(960, 540, "gemini")).toBe(258 * 3 * 2);
  });

  it("estimates an image at the most any formula counts, the fixed charge only when the size cannot be read", () => {
    const block = (data: Buffer) => ({
      type: "image" as const,
      mediaType: "image/png",
      data: data.toString("base64"),
    });
    expect(estimateImageTokens(block(tinyPng(2, 2)))).toBe(258);
    expect(estimateImageTokens(block(jpegHeader(1024, 1024)))).toBe(1399);
    expect(estimateImageTokens(block(Buffer.from("no header here at all, none")))).toBe(IMAGE_TOKEN_ESTIMATE);
  });
});
