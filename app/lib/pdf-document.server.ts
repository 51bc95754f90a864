import PDFDocument from "pdfkit";
import { pdfText } from "./pdf-text";

/**
 * The A4 documents the app prints with pdfkit (the work order, the inspection report): the same page,
 * margins, metadata and buffered pages (for the footers drawn last), and the bytes once it ends.
 */
export const A4 = { width: 595.28, height: 841.89 }; // in points

export function openA4(options: { margin: number; title: string; author: string; subject?: string; lang: string }): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const { margin } = options;
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: margin, bottom: margin, left: margin, right: margin },
    bufferPages: true,
    autoFirstPage: true,
    info: {
      Title: pdfText(options.title),
      Author: pdfText(options.author),
      ...(options.subject ? { Subject: pdfText(options.subject) } : {}),
      Creator: "Caretaker",
    },
    lang: options.lang,
    displayTitle: true,
  });
  return { doc, done: bytesOf(doc) };
}

/** The document's bytes, once `doc.end()` is called (listen before drawing: pdfkit streams as it goes). */
export function bytesOf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
}

/** A footer on every page: a rule, `left` and the page's number (`page(n, of)`), below the bottom margin. */
export function drawFooters(doc: PDFKit.PDFDocument, options: { margin: number; left: string; page: (page: number, pages: number) => string; rule: string; color: string }) {
  const { margin } = options;
  const width = A4.width - 2 * margin;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: pdfkit would otherwise start a new page for the footer's text.
    doc.page.margins.bottom = 0;
    const y = A4.height - margin + 4;
    doc.lineWidth(0.5).strokeColor(options.rule).moveTo(margin, y - 6).lineTo(A4.width - margin, y - 6).stroke();
    doc.fillColor(options.color).font("Helvetica").fontSize(8).text(pdfText(options.left), margin, y, { width: width - 80, lineBreak: false, height: 10 });
    doc.text(pdfText(options.page(i - range.start + 1, range.count)), A4.width - margin - 80, y, { width: 80, align: "right", lineBreak: false, height: 10 });
  }
}
