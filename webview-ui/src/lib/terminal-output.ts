// Terminal output as the user would have seen it settle on screen: escape sequences removed,
// carriage-return overwrites applied (a progress line keeps only its last state), spinner frames
// dropped, and the shell's echo of the command left out when the card already shows the command.
import { ENDING_NOTE, NO_OUTPUT } from '../../../src/core/tools/terminal-notes';

// CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), and the other two-byte escapes.
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const ESC2 = /\x1b[@-Z\\-_]/g;
// Moving the cursor to column 1 (CSI G, CSI 1G) works like a carriage return for what stays.
const TO_COLUMN_ONE = /\x1b\[1?G/g;
// Braille patterns are what progress spinners (⠋⠙⠹…) cycle through; a frame stands alone.
const SPINNER_FRAME = /(^|[ \t])[\u2800-\u28ff]+(?=[ \t]|$)/g;
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

export function cleanTerminalOutput(text: string, command?: string): string {
  const plain = text.replace(OSC, '').replace(TO_COLUMN_ONE, '\r').replace(CSI, '').replace(ESC2, '');
  const lines: string[] = [];
  for (const raw of plain.replace(/\r+\n/g, '\n').split('\n')) {
    const settled = applyBackspaces(lastOverwrite(raw)).replace(CONTROL, '');
    const line = settled.replace(SPINNER_FRAME, '$1').trimEnd();
    // A line that held nothing but a spinner is gone with its frames.
    if (line === '' && settled.trim() !== '') continue;
    lines.push(line);
  }
  return dropEcho(lines, command).join('\n');
}

/** What carriage returns leave of a line: its last non-empty segment. */
function lastOverwrite(line: string): string {
  if (!line.includes('\r')) return line;
  return (
    line
      .split('\r')
      .filter((part) => part !== '')
      .at(-1) ?? ''
  );
}

function applyBackspaces(line: string): string {
  if (!line.includes('\b')) return line;
  const out: string[] = [];
  for (const ch of line) {
    if (ch === '\b') out.pop();
    else out.push(ch);
  }
  return out.join('');
}

/** Leaves out a first line that only repeats the command, bare or after a prompt. */
function dropEcho(lines: string[], command: string | undefined): string[] {
  const wanted = command?.trim();
  if (!wanted) return lines;
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return lines;
  const line = lines[first]!.trim();
  const prompt = line.slice(0, line.length - wanted.length);
  const echo = line.endsWith(wanted) && (prompt === '' || /[$#>%]\s$/.test(prompt));
  return echo ? [...lines.slice(0, first), ...lines.slice(first + 1)] : lines;
}

/**
 * What the command printed, from a terminal observation's text for the model: the notes after it
 * that the card shows as its ending (the exit code, still running, stopped waiting) are left out,
 * and the "(no output)" placeholder is nothing. `suffix` is the observation's `metadata.suffix`,
 * the notes as appended (OpenHands writes it too); other notes in it (a new working folder) stay.
 */
export function commandOutput(text: string, suffix: string | undefined): string {
  let body = text;
  let kept: string[] = [];
  if (suffix && suffix.trim() && body.endsWith(suffix)) {
    body = body.slice(0, body.length - suffix.length);
    kept = suffix.split('\n').filter((l) => l.trim() !== '' && !ENDING_NOTE.test(l));
  }
  if (body.trim() === NO_OUTPUT) body = '';
  return [body, ...kept].filter((part) => part !== '').join('\n');
}

/**
 * The exported variables a command left to later ones, from its observation's `carried` note
 * ("carried: working folder /x, exported: A, B"); undefined when it changed none.
 */
export function exportedNames(carried: string | undefined): string | undefined {
  const mark = ', exported: ';
  const at = carried?.lastIndexOf(mark) ?? -1;
  if (!carried || at === -1) return undefined;
  const names = carried.slice(at + mark.length);
  return names === 'none changed' || names === '' ? undefined : names;
}
