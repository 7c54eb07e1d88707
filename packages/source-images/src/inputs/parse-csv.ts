import { TfpipeError } from '@tfpipe/core';

/** One parsed CSV record and the 1-based line it starts on. */
export interface CsvRecord {
  readonly line: number;
  readonly cells: readonly string[];
}

/**
 * A small strict RFC 4180 parser for list files: comma-separated, `"`-quoted cells with `""` escapes,
 * CRLF or LF line ends, blank lines skipped. A stray quote inside an unquoted cell or an unterminated
 * quote is an error, never guessed around.
 * @throws TfpipeError `CSV_PARSE` with the line and column
 */
export function parseCsv(text: string, file: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let cellStarted = false;
  let line = 1;
  let recordLine = 1;
  let column = 0;
  const fail = (reason: string): TfpipeError =>
    new TfpipeError('CSV_PARSE', 'malformed list file', {
      stage: 'imageSource',
      position: { file, line, column },
      fatal: true,
      reason,
    });
  const endRecord = (): void => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
    cellStarted = false;
  };
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let index = start; index < text.length; index++) {
    const character = text[index]!;
    column++;
    if (quoted) {
      if (character === '"') {
        if (text[index + 1] === '"') {
          cell += '"';
          index++;
          column++;
        } else {
          quoted = false;
          const next = text[index + 1];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
            throw fail('a closing quote must end the cell');
          }
        }
      } else {
        if (character === '\n') {
          line++;
          column = 0;
        }
        cell += character;
      }
    } else if (character === '"') {
      if (cellStarted) throw fail('a quote inside an unquoted cell');
      quoted = true;
      cellStarted = true;
    } else if (character === ',') {
      cells.push(cell);
      cell = '';
      cellStarted = false;
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index++;
      endRecord();
      line++;
      column = 0;
      recordLine = line;
    } else {
      cell += character;
      cellStarted = true;
    }
  }
  if (quoted) throw fail('a quoted cell is never closed');
  endRecord();
  return records;
}
