import zlib from "node:zlib";
import sharp from "sharp";

/**
 * Image files for the logo tests, made here rather than kept as binaries: real PNG, JPEG, GIF and WebP
 * files encoded by libvips, and hand-written PNGs whose header claims what their data does not hold.
 */

type Rgb = { r: number; g: number; b: number };

/** A PNG of one colour; `alpha` below 1 makes it translucent (an RGBA PNG). */
export function pngOf(width: number, height: number, color: Rgb = { r: 200, g: 30, b: 30 }, alpha = 1) {
  return sharp({ create: { width, height, channels: 4, background: { ...color, alpha } } })
    .png()
    .toBuffer();
}

export function jpegOf(width: number, height: number, color: Rgb = { r: 20, g: 100, b: 200 }) {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

export function gifOf(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .gif()
    .toBuffer();
}

export function webpOf(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .webp()
    .toBuffer();
}

/** A 16-bit RGB PNG (libvips keeps 16 bits per channel when asked). */
export function png16Of(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 90 } } })
    .toColourspace("rgb16")
    .png()
    .toBuffer();
}

/** A JPEG whose EXIF orientation (6: rotate 90° clockwise) turns its stored `width × height` pixels upright as `height × width`. */
export function rotatedJpegOf(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 90, b: 90 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export const SVG_LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64" fill="#f00"/></svg>',
);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid-looking PNG of a few hundred bytes whose header (IHDR) says `width × height` RGB pixels while
 * its data holds a few rows: a decompression bomb's shape (50,000 × 50,000 would be 7.5 GB decoded).
 */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + Math.min(width, 4096) * 3);
  const data = zlib.deflateSync(Buffer.concat(Array.from({ length: 4 }, () => row)), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", data),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
