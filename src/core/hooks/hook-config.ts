// The hooks' configuration in the shape Claude Code's settings use, so a team's existing file works:
// `{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…",
// "timeout": 60}]}]}}`. The same schema is read from the user's `logbook.hooks` setting, a
// repository's `.claude/settings.json` (its `hooks` key) and `.logbook/hooks.json`.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
  'Notification',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run when its entry names no timeout. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

const CommandHookSchema = lazySchema(() =>
  z.strictObject({
    type: z.literal('command'),
    command: z.string().trim().min(1),
    timeout: z.number().positive().max(3600).optional(),
  }),
);

const MatcherGroupSchema = lazySchema(() =>
  z.strictObject({
    matcher: z.string().optional(),
    hooks: z.array(CommandHookSchema),
  }),
);

/** The value of a `hooks` key: event name → matcher groups. Unknown event names are errors. */
export const HooksValueSchema = lazySchema(() =>
  z.partialRecord(z.enum(HOOK_EVENTS), z.array(MatcherGroupSchema)),
);
export type HooksValue = z.infer<typeof HooksValueSchema>;

/** Where a hook was configured: the user's settings, or a file of the repository. */
export type HookOrigin = 'user' | '.claude/settings.json' | '.logbook/hooks.json';

/** One command hook, flattened from its event and matcher group. */
export interface ConfiguredHook {
  event: HookEventName;
  /** The matcher as written ('' or '*': every tool). Only tool events read it. */
  matcher: string;
  command: string;
  timeoutSeconds: number;
  origin: HookOrigin;
}

/** Reads a `hooks` value; a value that does not fit is an error naming where and what. */
export function parseHooks(value: unknown, origin: HookOrigin): ConfiguredHook[] {
  const parsed = HooksValueSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length ? ` at hooks.${issue.path.join('.')}` : '';
    throw new Error(
      `The hooks in ${origin === 'user' ? 'your settings (logbook.hooks)' : origin} do not fit the hooks schema${at}: ${issue.message}. ` +
        `Expected {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…"}]}]}; events: ${HOOK_EVENTS.join(', ')}.`,
    );
  }
  const out: ConfiguredHook[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of parsed.data[event] ?? []) {
      for (const h of group.hooks) {
        out.push({
          event,
          matcher: group.matcher ?? '',
          command: h.command,
          timeoutSeconds: h.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
          origin,
        });
      }
    }
  }
  return out;
}

/** Whether a hook's matcher takes a tool, by Logbook's name or the Claude Code name it maps to. */
export function matchesTool(matcher: string, names: readonly string[]): boolean {
  const m = matcher.trim();
  if (m === '' || m === '*') return true;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${m})$`);
  } catch {
    // Not a regular expression: taken as the literal tool name.
    return names.includes(m);
  }
  return names.some((n) => re.test(n));
}

/** The text a user accepts for a repository's hooks: each hook's event, matcher and command line. */
export function hookLines(hooks: readonly ConfiguredHook[]): string[] {
  return hooks.map((h) => `${h.event}${h.matcher ? ` [${h.matcher}]` : ''}: ${h.command}`);
}
