/** Drawing operations of a page and their serialisation as PDF content stream operators. */
import type { FontFace } from './helveticaMetrics.js';
import { FONT_RESOURCE } from './pdfFile.js';

export type DrawOp =
  | {
      kind: 'text';
      x: number;
      y: number;
      /** WinAnsi byte string. */
      text: string;
      face: FontFace;
      size: number;
      /** 0 black .. 1 white. */
      gray: number;
      /** Counter-clockwise rotation in degrees about (x, y). */
      angle?: number;
    }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; fillGray?: number; strokeGray?: number; lineWidth?: number }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; gray: number; lineWidth: number };

function num(value: number): string {
  return Number(value.toFixed(3)).toString();
}

/** A PDF literal string; bytes outside printable ASCII are written as octal escapes. */
function pdfLiteralString(byteString: string): string {
  let out = '(';
  for (let i = 0; i < byteString.length; i++) {
    const code = byteString.charCodeAt(i);
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += `\\${byteString[i]}`;
    else if (code < 0x20 || code > 0x7e) out += `\\${(code & 0xff).toString(8).padStart(3, '0')}`;
    else out += byteString[i];
  }
  return `${out})`;
}

function serialiseOp(op: DrawOp): string {
  switch (op.kind) {
    case 'text': {
      const radians = ((op.angle ?? 0) * Math.PI) / 180;
      const cos = Math.cos(radians);
      const sin = Math.sin(radians);
      const matrix = `${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} ${num(op.x)} ${num(op.y)}`;
      return `BT /${FONT_RESOURCE[op.face]} ${num(op.size)} Tf ${num(op.gray)} g ${matrix} Tm ${pdfLiteralString(op.text)} Tj ET`;
    }
    case 'rect': {
      const path = `${num(op.x)} ${num(op.y)} ${num(op.width)} ${num(op.height)} re`;
      const fill = op.fillGray !== undefined ? `${num(op.fillGray)} g ` : '';
      const stroke = op.strokeGray !== undefined ? `${num(op.lineWidth ?? 0.5)} w ${num(op.strokeGray)} G ` : '';
      const paint = fill && stroke ? 'B' : fill ? 'f' : 'S';
      return `q ${fill}${stroke}${path} ${paint} Q`;
    }
    case 'line':
      return `q ${num(op.lineWidth)} w ${num(op.gray)} G ${num(op.x1)} ${num(op.y1)} m ${num(op.x2)} ${num(op.y2)} l S Q`;
  }
}

export function serialiseContentStream(ops: DrawOp[]): string {
  return ops.map(serialiseOp).join('\n') + '\n';
}
