// One command that plants every kind of hook a shell could keep (a DEBUG trap, an alias, a
// function, PROMPT_COMMAND, shell options) and moves and exports, and the later command that
// shows which of them carried: shared by the unit and host tests of the fresh shell.

/** The planting command, run from a folder with a `sub` folder; each hook writes to `mark` if it fires. */
export function plantHooks(mark: string): string {
  return [
    `trap 'echo HIT >> ${mark}' DEBUG`,
    "alias ls='echo ALIAS'",
    'greet() { echo FN; }',
    `PROMPT_COMMAND='echo PC >> ${mark}'`,
    'set -e; shopt -s extglob',
    'ls; greet; cd sub && export CARRY_ME=1',
  ].join('\n');
}

/** Lists the folder, and says whether the function, extglob, set -e, the export and the prompt hook are there. */
export const AFTER_PLANTING =
  'ls; type greet 2>&1; shopt extglob; false; echo "after x=$CARRY_ME pc=${PROMPT_COMMAND-}"';
