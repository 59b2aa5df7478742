import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { normalizeLogo, sniffImageType } from "@/lib/branding/logo-image";
import { gifOf, jpegOf, png16Of, pngClaiming, pngOf, rotatedJpegOf, SVG_LOGO, webpOf } from "../../helpers/images";

/**
 * What a logo upload becomes (reports-and-channels.md "Branding"): a PNG that fits 512 × 512, read back
 * here with another decoder (pngjs), never what was sent; and every upload that is not the PNG or JPEG it
 * claims refused with 400 INVALID_REQUEST before anything is kept.
 */

async function refusal(bytes: Uint8Array, claimed: "image/png" | "image/jpeg"): Promise<ApiError> {
  const error = await normalizeLogo(bytes, claimed).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("INVALID_REQUEST");
  return error as ApiError;
}

function decoded(png: Buffer) {
  const image = PNG.sync.read(png);
  const pixel = (x: number, y: number) => [
    ...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
  ];
  return { width: image.width, height: image.height, pixel };
}

describe("a logo upload, decoded and re-encoded", () => {
  it("scales a large PNG down to fit 512 × 512, keeping its shape, its colour and its transparency", async () => {
    const logo = await normalizeLogo(await pngOf(1600, 400, { r: 200, g: 30, b: 30 }, 0.5), "image/png");
    expect([logo.width, logo.height]).toEqual([512, 128]);
    const image = decoded(logo.png);
    expect([image.width, image.height]).toEqual([512, 128]);
    const [r, g, b, a] = image.pixel(256, 64);
    expect(Math.abs((r ?? 0) - 200)).toBeLessThanOrEqual(2);
    expect(Math.abs((g ?? 0) - 30)).toBeLessThanOrEqual(2);
    expect(Math.abs((b ?? 0) - 30)).toBeLessThanOrEqual(2);
    expect(Math.abs((a ?? 0) - 128)).toBeLessThanOrEqual(2);
  });

  it("turns a JPEG into a PNG, and never enlarges a small logo", async () => {
    const logo = await normalizeLogo(await jpegOf(300, 120), "image/jpeg");
    expect(logo.png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect([logo.width, logo.height]).toEqual([300, 120]);
    const [r, g, b] = decoded(logo.png).pixel(150, 60);
    expect([r, g, b].map((c, i) => Math.abs((c ?? 0) - [20, 100, 200][i]!) <= 3)).toEqual([true, true, true]);
  });

  it("scales a tall image by its height, reads 16-bit PNGs and turns a JPEG upright from its EXIF orientation", async () => {
    const tall = await normalizeLogo(await pngOf(100, 2048), "image/png");
    expect([tall.width, tall.height]).toEqual([25, 512]);
    const deep = await normalizeLogo(await png16Of(64, 32), "image/png");
    expect(decoded(deep.png).width).toBe(64);
    const upright = await normalizeLogo(await rotatedJpegOf(200, 100), "image/jpeg");
    expect([upright.width, upright.height]).toEqual([100, 200]);
  });

  it("keeps nothing of the file but its pixels (no text, EXIF, colour profile or time in the PNG)", async () => {
    const logo = await normalizeLogo(await rotatedJpegOf(40, 20), "image/jpeg");
    const chunks: string[] = [];
    for (let offset = 8; offset < logo.png.length;) {
      const length = logo.png.readUInt32BE(offset);
      chunks.push(logo.png.subarray(offset + 4, offset + 8).toString("latin1"));
      offset += 12 + length;
    }
    expect(chunks[0]).toBe("IHDR");
    expect(chunks.at(-1)).toBe("IEND");
    expect(chunks.filter((type) => ["eXIf", "tEXt", "zTXt", "iTXt", "iCCP", "tIME"].includes(type))).toEqual([]);
  });
});

describe("uploads refused with 400 INVALID_REQUEST", () => {
  it("a PNG sent as a JPEG, and a JPEG sent as a PNG, with the type to send", async () => {
    expect((await refusal(await pngOf(10, 10), "image/jpeg")).message).toMatch(
      /it is a PNG; send it with Content-Type: image\/png/,
    );
    expect((await refusal(await jpegOf(10, 10), "image/png")).message).toMatch(
      /it is a JPEG; send it with Content-Type: image\/jpeg/,
    );
  });

  it.each([
    ["an SVG", SVG_LOGO],
    ["a GIF", null],
    ["a WebP image", null],
    ["text", Buffer.from("this is not an image at all")],
    ["one byte", Buffer.from([0x89])],
  ])("%s sent as a PNG", async (name, given) => {
    const bytes = given ?? (name === "a GIF" ? await gifOf(8, 8) : await webpOf(8, 8));
    expect((await refusal(bytes, "image/png")).message).toMatch(/not a readable PNG image: it does not begin like one/);
  });

  it("a truncated PNG and a truncated JPEG (the header reads, the pixels end early)", async () => {
    const png = await pngOf(300, 300);
    const jpeg = await jpegOf(300, 300);
    for (const [bytes, type] of [
      [png.subarray(0, Math.floor(png.length / 2)), "image/png"],
      [png.subarray(0, png.length - 30), "image/png"],
      [jpeg.subarray(0, Math.floor(jpeg.length / 2)), "image/jpeg"],
    ] as const) {
      expect((await refusal(bytes, type)).message).toMatch(/damaged or truncated|header cannot be read/);
    }
  });

  it("a PNG of 300 bytes that claims 50,000 × 50,000 pixels: refused from its header, before it is decoded", async () => {
    const bomb = pngClaiming(50_000, 50_000);
    expect(bomb.length).toBeLessThan(1_000);
    const before = process.memoryUsage().rss;
    const error = await refusal(bomb, "image/png");
    expect(error.message).toBe(
      "The image is 50,000 × 50,000 pixels; a logo may have at most 16,777,216 (as many as 4096 × 4096).",
    );
    // 7.5 GB decoded; nothing near that was allocated.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    // Just over the cap is refused the same way; at the cap the header passes (its data then fails to decode).
    expect((await refusal(pngClaiming(4097, 4096), "image/png")).message).toMatch(/4,097 × 4,096 pixels/);
    expect((await refusal(pngClaiming(4096, 4096), "image/png")).message).toMatch(/damaged or truncated/);
  });

  it("knows the two signatures and nothing else", () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF89a"))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
  });
});
