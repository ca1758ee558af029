import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import type { ExportCell } from '../../../domain/admin/export-cells.ts';

export type ExportFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * A file written row by row to a local path (decision 036): what is written goes to the disk as it
 * comes, so a table of any size costs the same memory. `rows` waits while the disk is behind.
 */
export interface TableWriter {
  rows(rows: readonly ExportCell[][]): Promise<void>;
  /** Ends the file; it is complete once this resolves. */
  finish(): Promise<void>;
  /** Stops writing and removes what was written. */
  abort(): Promise<void>;
}

/** Waits until the file has taken what it was given (its buffer below the high-water mark). */
async function drained(file: WriteStream): Promise<void> {
  if (file.writableNeedDrain) await once(file, 'drain');
}

/**
 * CSV in UTF-8 with a byte-order mark (Excel reads the Chinese then), every cell that a spreadsheet
 * would take for a formula (`=`, `+`, `-`, `@`, tab, carriage return first) written after a `'`.
 */
function csvWriter(path: string, header: readonly string[]): TableWriter {
  const file = createWriteStream(path);
  const csv = stringify({ bom: true, escape_formulas: true, record_delimiter: 'windows' });
  csv.pipe(file);
  csv.write(header);
  return {
    async rows(rows) {
      for (const row of rows) if (!csv.write(row)) await once(csv, 'drain');
      await drained(file);
    },
    async finish() {
      csv.end();
      await finished(file);
    },
    async abort() {
      csv.destroy();
      file.destroy();
      await rm(path, { force: true });
    },
  };
}

/**
 * XLSX through exceljs's streaming writer: each row is committed (turned into XML and zipped) as it
 * is added. The writer does not wait for the disk by itself, so each batch waits for the file.
 */
function xlsxWriter(path: string, header: readonly string[], sheetName: string): TableWriter {
  const file = createWriteStream(path);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Export');
  sheet.addRow([...header]).commit();
  return {
    async rows(rows) {
      for (const row of rows) sheet.addRow(row).commit();
      // The zip hands its output on after a turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      await drained(file);
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      if (!file.writableFinished) await finished(file);
    },
    async abort() {
      file.destroy();
      await rm(path, { force: true });
    },
  };
}

export function tableWriter(
  format: ExportFormat,
  path: string,
  header: readonly string[],
  sheetName: string,
): TableWriter {
  return format === 'csv' ? csvWriter(path, header) : xlsxWriter(path, header, sheetName);
}
