import { writeFileSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** What a printed PDF holds, as a reader would see it: each page's text, and each page drawn to a PNG. */
export interface PdfPages {
  /** One entry a page, its text in reading order, a line break where the PDF ends a line. */
  texts: string[];
}

/** pdf.js's canvas factory in Node (its types say only `Object`): canvases of @napi-rs/canvas. */
interface NodeCanvasFactory {
  create(width: number, height: number): {
    canvas: HTMLCanvasElement & { toBuffer(type: 'image/png'): Buffer };
    context: CanvasRenderingContext2D;
  };
}

/**
 * Reads a PDF with pdf.js from npm (Node's "legacy" build) and, when `pngBase` is given, draws each page
 * to `${pngBase}-<n>.png` at 60 dpi with pdf.js's canvas for Node (@napi-rs/canvas, a prebuilt binary
 * from the registry), so nothing beyond `npm ci` is needed: no poppler, no system libraries.
 */
export async function readPdf(bytes: Uint8Array, pngBase?: string): Promise<PdfPages> {
  // pdf.js may take the buffer over (transfer it to its worker): give it a copy.
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  try {
    const texts: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      // A ligature ("fi") is an item of its own: join the items as they run, breaking only at line ends.
      texts.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      if (pngBase !== undefined) {
        const viewport = page.getViewport({ scale: 60 / 72 });
        const { canvas, context } = (document.canvasFactory as NodeCanvasFactory).create(viewport.width, viewport.height);
        await page.render({ canvas, canvasContext: context, viewport }).promise;
        writeFileSync(`${pngBase}-${number}.png`, canvas.toBuffer('image/png'));
      }
      page.cleanup();
    }
    return { texts };
  } finally {
    await document.destroy();
  }
}
