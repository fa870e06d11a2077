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
