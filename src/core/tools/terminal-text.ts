// Terminal output as plain text: escape sequences removed and carriage-return overwrites applied
// (progress bars redraw a line with '\r'; only the final state is worth the model's tokens).

// CSI (colours, cursor moves), OSC (titles, links; ended by BEL or ESC \), charset selection,
// and the other two-byte escapes.
const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()#][0-9A-Za-z]|\u001b[@-Z\\-_=>78c]/g;
// C0 controls left over (a lone ESC, backspace, bell...) except tab and newline.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function stripTerminalControls(text: string): string {
  const plain = text.replace(ESCAPES, '').replace(/\r+\n/g, '\n');
  const lines = plain.split('\n').map((line) => (line.includes('\r') ? overwriteSegments(line) : line));
  return lines.join('\n').replace(CONTROLS, '');
}

/** Applies '\r' overwrites the way a terminal would: each segment writes over the start of the line. */
function overwriteSegments(line: string): string {
  let screen = '';
  for (const segment of line.split('\r')) screen = segment + screen.slice(segment.length);
  return screen;
}
