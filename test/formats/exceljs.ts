/**
 * exceljs, an XLSX writer nobody here wrote, for the upload tests' workbooks. It comes from the real
 * suites' tools (scripts/tools, installed on demand outside the repository), not the contributor
 * install: its 23 MB kept `node_modules` over issue 21's 400 MB. Typed as far as the tests use it.
 */
import { createRequire } from 'node:module';
import { toolPath } from '../../scripts/tools/install.mjs';

interface Cell {
  value: unknown;
}

interface Worksheet {
  addRow(values: unknown[]): unknown;
  getCell(address: string): Cell;
}

interface Workbook {
  addWorksheet(name: string): Worksheet;
  xlsx: { writeBuffer(): Promise<ArrayBuffer> };
}

/** A new, empty exceljs workbook. */
export function newWorkbook(): Workbook {
  const exceljs = createRequire(import.meta.url)(toolPath('exceljs')) as { Workbook: new () => Workbook };
  return new exceljs.Workbook();
}
