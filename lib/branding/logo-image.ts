import sharp from "sharp";
import { ApiError } from "../errors";
import type { ImageBodyType } from "../http/read-body";
import { LOGO_BOX, MAX_LOGO_PIXELS } from "../schemas/branding";

/**
 * A logo upload made safe to keep and show (reports-and-channels.md "Branding"): the bytes must be the
 * PNG or JPEG their Content-Type claims; the header's size is checked before a pixel is decoded (a small
 * file may claim 50,000 × 50,000 pixels); the image is decoded whole (a truncated file is refused),
 * turned upright from its EXIF orientation, scaled down to fit LOGO_BOX × LOGO_BOX (never up: a small
 * logo drawn at report size gains nothing from more pixels, only bytes), and re-encoded as a PNG with no
 * metadata. Only that PNG is kept; what was sent is never stored or served.
 *
 * libvips (through sharp) decodes: it runs on libuv's threads, never on the event loop, handles every
 * PNG and JPEG variant (16-bit, palette, interlaced, progressive, CMYK) and refuses what it cannot read.
 */

// One libvips thread per image and no operation cache: logos are small and rare, the machine's cores
// belong to the analyzer's renders.
sharp.concurrency(1);
sharp.cache(false);

export interface NormalizedLogo {
  png: Buffer;
  width: number;
  height: number;
}

const NAMES: Record<ImageBodyType, string> = { "image/png": "PNG", "image/jpeg": "JPEG" };
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, i) => bytes[i] === byte);

/** Which of the accepted types the bytes begin as (their signature), or null for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageBodyType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return "image/png";
  if (startsWith(bytes, JPEG_SIGNATURE)) return "image/jpeg";
  return null;
}

const HINT =
  "Send a PNG or JPEG file as it is, with the Content-Type of its type (image/png or image/jpeg); export the image again if it is damaged.";

function undecodable(claimed: ImageBodyType, why: string): ApiError {
  return new ApiError("INVALID_REQUEST", `The file is not a readable ${NAMES[claimed]} image: ${why}`, { hint: HINT });
}

/**
 * The logo to keep from an upload's bytes and the type it claims; 400 INVALID_REQUEST when the bytes are
 * not an image of that type, are damaged or truncated, or have more than MAX_LOGO_PIXELS pixels.
 */
export async function normalizeLogo(bytes: Uint8Array, claimed: ImageBodyType): Promise<NormalizedLogo> {
  const actual = sniffImageType(bytes);
  if (actual !== claimed) {
    // Nothing but a PNG or a JPEG ever reaches the decoder: an SVG sent as image/png stops here.
    throw undecodable(
      claimed,
      actual ? `it is a ${NAMES[actual]}; send it with Content-Type: ${actual}.` : "it does not begin like one.",
    );
  }
  const header = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!header || header.format !== (claimed === "image/png" ? "png" : "jpeg") || !header.width || !header.height)
    throw undecodable(claimed, "its header cannot be read.");
  if (header.width * header.height > MAX_LOGO_PIXELS) {
    throw new ApiError(
      "INVALID_REQUEST",
      `The image is ${header.width.toLocaleString("en-US")} × ${header.height.toLocaleString("en-US")} pixels; a logo may have at most ${MAX_LOGO_PIXELS.toLocaleString("en-US")} (as many as 4096 × 4096).`,
      { hint: `Scale the image down first; it is stored at most ${LOGO_BOX} × ${LOGO_BOX} pixels anyway.` },
    );
  }
  try {
    // failOn "truncated": a file that ends early is refused, a harmless libjpeg warning is not.
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_LOGO_PIXELS, failOn: "truncated" })
      .autoOrient()
      .resize(LOGO_BOX, LOGO_BOX, { fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    throw undecodable(claimed, "it is damaged or truncated.");
  }
}
