/**
 * Writes a small but real PDF by hand: one page, ASCII lines in the standard Helvetica font,
 * and optionally a CJK line in a Type0 font (Identity-H) whose ToUnicode map gives the text
 * back, the way PDF producers make Chinese extractable. No library is involved, so the test
 * reads exactly what a PDF file holds.
 */
const hex4 = (text: string): string =>
  [...text].map((c) => (c.codePointAt(0) as number).toString(16).padStart(4, '0')).join('')

const escape = (line: string): string => line.replace(/[\\()]/g, (c) => `\\${c}`)

export function minimalPdf(lines: readonly string[], cjkLine?: string): Buffer {
  let content = 'BT /F1 12 Tf 72 720 Td 14 TL\n'
  for (const line of lines) content += `(${escape(line)}) Tj T*\n`
  if (cjkLine) content += `/F2 12 Tf <${hex4(cjkLine)}> Tj T*\n`
  content += 'ET'
  const chars = cjkLine ? [...new Set(cjkLine)] : []
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `${chars.length} beginbfchar`,
    ...chars.map((c) => `<${hex4(c)}> <${hex4(c)}>`),
    'endbfchar',
    'endcmap CMapName currentdict /CMap defineresource pop end end'
  ].join('\n')
  const stream = (body: string) =>
    `<< /Length ${Buffer.byteLength(body)} >>\nstream\n${body}\nendstream`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 6 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    stream(content),
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 9 0 R >>',
    stream(cmap),
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 80 >>'
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out)
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'utf8')
}
