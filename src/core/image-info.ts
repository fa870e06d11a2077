import type { ImageBlock } from "./content.js";

/** The image types panto sends, by media type: what every supported provider accepts. */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** File extensions of those types, as a prompt's `@PATH` or `--image FILE` names them. */
export const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** What an image's header says: its real type (whatever its name claims) and its size in pixels. */
export interface ImageInfo {
  mediaType: string;
  width: number;
  height: number;
}

/**
 * The type and dimensions from the first bytes of a PNG, JPEG, GIF or WebP file, or undefined when
 * the bytes are none of these (or too damaged to tell). Headers only: no decoding, no dependency.
 */
export function readImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString("latin1", 12, 16) === "IHDR")
    return { mediaType: "image/png", width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  if (view.length >= 10 && /^GIF8[79]a$/.test(view.toString("latin1", 0, 6)))
    return { mediaType: "image/gif", width: view.readUInt16LE(6), height: view.readUInt16LE(8) };
  if (
    view.length >= 30 &&
    view.toString("latin1", 0, 4) === "RIFF" &&
    view.toString("latin1", 8, 12) === "WEBP"
  )
    return webpInfo(view);
  if (view.length >= 4 && view[0] === 0xff && view[1] === 0xd8) return jpegInfo(view);
  return undefined;
}

function webpInfo(view: Buffer): ImageInfo | undefined {
  const chunk = view.toString("latin1", 12, 16);
  const mediaType = "image/webp";
  if (chunk === "VP8X")
    return { mediaType, width: view.readUIntLE(24, 3) + 1, height: view.readUIntLE(27, 3) + 1 };
  if (chunk === "VP8L" && view[20] === 0x2f) {
    const bits = view.readUInt32LE(21);
    return { mediaType, width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ")
    return { mediaType, width: view.readUInt16LE(26) & 0x3fff, height: view.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegInfo(view: Buffer): ImageInfo | undefined {
  let offset = 2;
  while (offset + 9 <= view.length) {
    if (view[offset] !== 0xff) return undefined;
    const marker = view[offset + 1] as number;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame)
      return {
        mediaType: "image/jpeg",
        width: view.readUInt16BE(offset + 7),
        height: view.readUInt16BE(offset + 5),
      };
    offset += 2 + view.readUInt16BE(offset + 2);
  }
  return undefined;
}

/** Bytes of base64 decoded to find a header: enough for PNG, GIF and WebP, and a JPEG's usual metadata. */
const HEADER_BYTES = 256 * 1024;

/** {@link readImageInfo} of an image block's base64 bytes (the start first, all of it only if needed). */
export function imageBlockInfo(block: Pick<ImageBlock, "data">): ImageInfo | undefined {
  const prefix = block.data.slice(0, Math.ceil(HEADER_BYTES / 3) * 4);
  const info = readImageInfo(Buffer.from(prefix, "base64"));
  if (info !== undefined || prefix.length === block.data.length) return info;
  return readImageInfo(Buffer.from(block.data, "base64"));
}

/** How many bytes a base64 text decodes to, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/**
 * The one line an image stands as where its bytes must not go (a compaction transcript, a text
 * export, a terminal): `[image: shot.png, image/png, 1280x800, 312 KB]`, each part given when known.
 */
export function imagePlaceholder(block: Pick<ImageBlock, "mediaType" | "data" | "name" | "file">): string {
  const info = typeof block.data === "string" ? imageBlockInfo(block) : undefined;
  const parts = [
    ...(block.name === undefined ? [] : [block.name]),
    block.mediaType,
    ...(info === undefined ? [] : [`${info.width}x${info.height}`]),
    ...(typeof block.data === "string" ? [formatBytes(base64Bytes(block.data))] : []),
  ];
  return `[image: ${parts.join(", ")}]`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The providers' documented ways of counting an image's tokens. */
export type ImageTokenFormula = "anthropic" | "openai" | "gemini";

/**
 * What one provider counts for an image of `width` x `height` pixels, by its documented formula:
 * - Anthropic: width * height / 750, after scaling the long side down to 1568 px, and at most about
 *   1600 (larger images are scaled down to that);
 * - OpenAI (high detail, the most `auto` can cost): fit in 2048 x 2048, shortest side down to 768,
 *   then 85 + 170 per 512 px tile;
 * - Gemini: 258 when both sides are at most 384 px, else 258 per tile, a tile's side being the
 *   shorter side / 1.5 (from 256 to 768 px).
 */
export function imageTokens(width: number, height: number, formula: ImageTokenFormula): number {
  if (width <= 0 || height <= 0) return 0;
  if (formula === "anthropic") {
    const scale = Math.min(1, 1568 / Math.max(width, height));
    return Math.min(1600, Math.ceil((width * scale * height * scale) / 750));
  }
  if (formula === "openai") {
    const fit = Math.min(1, 2048 / Math.max(width, height));
    const shortest = Math.min(width, height) * fit;
    const scale = fit * Math.min(1, 768 / shortest);
    return 85 + 170 * Math.ceil((width * scale) / 512) * Math.ceil((height * scale) / 512);
  }
  if (width <= 384 && height <= 384) return 258;
  const tile = Math.min(768, Math.max(256, Math.floor(Math.min(width, height) / 1.5)));
  return 258 * Math.ceil(width / tile) * Math.ceil(height / tile);
}

/** Images sized lately, by a cheap key: the estimator sizes the same images on every request. */
const sized = new Map<string, ImageInfo | undefined>();
const SIZED_KEPT = 64;

/** {@link imageBlockInfo}, remembered for the last images asked about. */
export function cachedImageInfo(block: Pick<ImageBlock, "data">): ImageInfo | undefined {
  const { data } = block;
  const key = `${data.length}:${data.slice(0, 64)}:${data.slice(-64)}`;
  if (sized.has(key)) return sized.get(key);
  const info = imageBlockInfo(block);
  if (sized.size >= SIZED_KEPT) sized.delete(sized.keys().next().value as string);
  sized.set(key, info);
  return info;
}
