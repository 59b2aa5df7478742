/**
 * The navigation response body as text, decoded the way a browser picks the encoding: a byte order
 * mark, then the Content-Type header's charset, then a `<meta charset>` (or `http-equiv` Content-Type)
 * in the first 1,024 bytes, else UTF-8. Only the links' hrefs are read from it, so an odd or unknown
 * label falls back to UTF-8 rather than failing.
 */

const PRESCAN_BYTES = 1024;

function decoderFor(label: string | null | undefined): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().replace(/^["']|["']$/g, ""));
  } catch {
    return null;
  }
}

function charsetOf(contentType: string | null): string | null {
  return /charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? "")?.[2] ?? null;
}

function metaCharset(body: Buffer): string | null {
  const head = body.subarray(0, PRESCAN_BYTES).toString("latin1");
  const direct = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  return direct ?? null;
}

export function decodeBody(body: Buffer, contentType: string | null): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder("utf-8").decode(body);
  if ((body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe))
    return new TextDecoder(body[0] === 0xfe ? "utf-16be" : "utf-16le").decode(body);
  const decoder = decoderFor(charsetOf(contentType)) ?? decoderFor(metaCharset(body)) ?? new TextDecoder("utf-8");
  return decoder.decode(body);
}
