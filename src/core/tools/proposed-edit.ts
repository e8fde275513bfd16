// The text a pending file_editor action would leave, so a person can see the change before saying
// yes: the editor shows it as a diff view, the terminal as a unified diff.
import { insertAfterLine, replaceUnique } from './file-edits';

export interface EditArgs {
  command?: string;
  path?: string;
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
}

/** The text a file_editor action would leave, or undefined when it is not an edit or would fail. */
export function proposedText(args: EditArgs, current: string | undefined): string | undefined {
  switch (args.command) {
    case 'create':
      return current === undefined ? (args.file_text ?? '') : undefined;
    case 'str_replace': {
      if (current === undefined || args.old_str === undefined) return undefined;
      const r = replaceUnique(current.replace(/\r\n/g, '\n'), args.old_str, args.new_str ?? '');
      return r.ok ? r.text : undefined;
    }
    case 'insert': {
      if (current === undefined || args.insert_line === undefined) return undefined;
      const r = insertAfterLine(current.replace(/\r\n/g, '\n'), args.insert_line, args.new_str ?? '');
      return r.ok ? r.text : undefined;
    }
    default:
      return undefined;
  }
}
