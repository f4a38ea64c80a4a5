/**
 * Text of WordprocessingML and DrawingML parts in reading order. Both use the same local names:
 * p (paragraph), r (run), t (text), br, tab, tbl/tr/tc (tables). Table rows become one line with
 * tab-separated cells; text boxes nested in a paragraph come out as their own paragraphs; the
 * fallback branch of markup-compatibility blocks is skipped so alternate content is not doubled.
 */
import { readXml } from './xmlReader.js';

/** Paragraph and table blocks of one XML part, empty ones dropped. */
export function ooxmlTextBlocks(xml: string): string[] {
  const blocks: string[] = [];
  const paragraphStack: string[] = [];
  let current: string | undefined;
  let runDepth = 0;
  let inText = false;
  let fallbackDepth = 0;
  let tableDepth = 0;
  let tableRows: string[] = [];
  let rowCells: string[] = [];
  let cellParagraphs: string[] = [];

  const append = (text: string) => {
    if (current !== undefined) current += text;
  };

  for (const event of readXml(xml)) {
    if (fallbackDepth > 0) {
      if (event.type === 'open' && event.name === 'Fallback' && !event.selfClosing) fallbackDepth++;
      else if (event.type === 'close' && event.name === 'Fallback') fallbackDepth--;
      continue;
    }
    if (event.type === 'text') {
      if (inText) append(event.text);
      continue;
    }
    if (event.type === 'open') {
      switch (event.name) {
        case 'Fallback':
          if (!event.selfClosing) fallbackDepth = 1;
          break;
        case 'p':
          if (event.selfClosing) break;
          if (current !== undefined) paragraphStack.push(current);
          current = '';
          break;
        case 'r':
          if (!event.selfClosing) runDepth++;
          break;
        case 't':
          inText = !event.selfClosing;
          break;
        case 'tab':
          if (runDepth > 0) append('\t');
          break;
        case 'br':
        case 'cr':
          append('\n');
          break;
        case 'noBreakHyphen':
          append('-');
          break;
        case 'tbl':
          if (!event.selfClosing) tableDepth++;
          break;
        case 'tr':
          if (tableDepth === 1) rowCells = [];
          break;
        case 'tc':
          if (tableDepth === 1) cellParagraphs = [];
          break;
      }
      continue;
    }
    switch (event.name) {
      case 'p': {
        const text = (current ?? '').replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
        current = paragraphStack.pop();
        if (!text.trim()) break;
        if (tableDepth > 0) cellParagraphs.push(text.replace(/\s*\n\s*/g, ' '));
        else blocks.push(text);
        break;
      }
      case 'r':
        runDepth = Math.max(0, runDepth - 1);
        break;
      case 't':
        inText = false;
        break;
      case 'tc':
        if (tableDepth === 1) rowCells.push(cellParagraphs.join(' ').replace(/\t/g, ' '));
        break;
      case 'tr':
        if (tableDepth === 1 && rowCells.some((cell) => cell.trim())) tableRows.push(rowCells.join('\t').replace(/\t+$/, ''));
        break;
      case 'tbl':
        tableDepth = Math.max(0, tableDepth - 1);
        if (tableDepth === 0 && tableRows.length > 0) {
          blocks.push(tableRows.join('\n'));
          tableRows = [];
        }
        break;
    }
  }
  return blocks;
}
