/**
 * The web app's PNG icons (app-shell.ts), drawn in code: a browser's install prompt asks for PNGs
 * of 192 and 512 pixels, and the hub has no build step to ship image files. The drawing is the
 * SVG icon's: a disc inside a ring, light on the theme colour, full-bleed with the shape inside
 * the maskable safe zone (the middle 80%). Each pixel's coverage comes from the shape's signed
 * distance, so edges are smooth; the image is indexed colour (16 shades between the two colours)
 * compressed with the runtime's own `CompressionStream('deflate')` (zlib, as PNG's IDAT is), on
 * Node and in workerd alike, no dependency.
 */

/** The icon's colours: the theme colour (the dashboard's link blue) and the shape on it. */
export const ICON_BACKGROUND = '#0b4f9c';
export const ICON_FOREGROUND = '#ffffff';

/** The shape, as fractions of the side: the disc's radius, the ring's middle radius and half width. */
export const ICON_SHAPE = { disc: 0.16, ring: 0.33, halfWidth: 0.03 } as const;

const SHADES = 16;

/** The icon as a PNG of `size` × `size` pixels. */
export async function iconPng(size: number): Promise<Uint8Array<ArrayBuffer>> {
  const rows = new Uint8Array((size + 1) * size);
  const middle = size / 2;
  for (let y = 0; y < size; y++) {
    const row = y * (size + 1);
    rows[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - middle, y + 0.5 - middle) / size;
      const inside = Math.min(d - ICON_SHAPE.disc, Math.abs(d - ICON_SHAPE.ring) - ICON_SHAPE.halfWidth);
      const coverage = Math.min(1, Math.max(0, 0.5 - inside * size));
      rows[row + 1 + x] = Math.round(coverage * (SHADES - 1));
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 3, 0, 0, 0], 8); // 8 bits, indexed colour, deflate, no filter, no interlace
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette()),
    chunk('IDAT', await deflate(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** SHADES colours from the background to the foreground. */
function palette(): Uint8Array {
  const from = rgb(ICON_BACKGROUND);
  const to = rgb(ICON_FOREGROUND);
  const colours = new Uint8Array(SHADES * 3);
  for (let i = 0; i < SHADES; i++) {
    for (let c = 0; c < 3; c++) {
      const a = from[c] ?? 0;
      colours[i * 3 + c] = Math.round(a + ((to[c] ?? 0) - a) * (i / (SHADES - 1)));
    }
  }
  return colours;
}

const rgb = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));

async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** One PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
