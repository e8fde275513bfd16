// Names a function cannot take without changing what a later command runs: bash's builtins and
// reserved words. Both the reset of the shells Logbook starts and the check of commands for the
// user's own shell use this list, so they agree on which functions are hooks.

/** Names of bash builtins and reserved words, space-separated. */
export const SHELL_WORDS =
  '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare ' +
  'dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let ' +
  'local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source ' +
  'suspend test times trap true type typeset ulimit umask unalias unset wait if then else elif fi ' +
  'case esac for select while until do done in function time coproc';

/** Functions a shell itself calls when a command is not found (bash, zsh). */
export const NOT_FOUND_HANDLERS = ['command_not_found_handle', 'command_not_found_handler'];
