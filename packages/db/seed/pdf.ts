/**
 * A one-page PDF of text lines, written by hand (PDF 1.4, the standard Helvetica fonts): the demo
 * stores' spec sheets are generated offline like their pictures, without a PDF library.
 */
export function textPdf(lines: { text: string; size: number; bold?: boolean; gap?: number }[]): Buffer {
  // Latin-1 only (WinAnsi): replace what Helvetica cannot show.
  const esc = (s: string) =>
    s
      .replace(/[×]/g, 'x')
      .replace(/[^\x20-\x7e]/g, '-')
      .replace(/[\\()]/g, (c) => `\\${c}`);
  let y = 790;
  const ops: string[] = ['BT'];
  for (const l of lines) {
    y -= l.gap ?? l.size * 1.5;
    ops.push(`/${l.bold ? 'F2' : 'F1'} ${l.size} Tf 1 0 0 1 56 ${y} Tm (${esc(l.text)}) Tj`);
  }
  ops.push('ET');
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
