// docs/SETTINGS.md, written from the schema (scripts/settings-doc.ts; a test checks it is current).
import { SETTING_CATEGORIES } from './categories';
import { type SettingDef, SETTINGS } from './schema';

const HOSTS = { cli: 'CLI', vscode: 'VS Code' } as const;

export function settingsReference(): string {
  const lines = [
    '# Settings reference',
    '',
    '<!-- Generated from src/core/settings/schema.ts by `npm run docs:settings`; do not edit by hand. -->',
    '',
    'Every setting of Logbook. In VS Code a setting is `logbook.KEY` in the Settings',
    'editor (user, then workspace, then folder settings). The CLI reads the same KEY from its config',
    'file, `$XDG_CONFIG_HOME/logbook/config.json` (`~/.config/logbook/config.json`), a JSON object',
    'such as `{"model.name": "llama3.2", "sandbox.mode": "required"}`; then the environment variables,',
    'then the flags, each over the one before. `approve`, `reject` and `resolve` put what the run',
    'recorded (its endpoint, model, confirmation mode, limits, MCP file) between the file and the',
    'environment. `logbook config` prints each value with where it came from.',
    '',
    'Settings marked "Guards you" (what asks before it runs, where the API key goes, what starts,',
    'what the sandbox and the web let through) are read from your own settings only: VS Code ignores a',
    "workspace's or folder's value, says so, and uses it only once you accept that very value by name;",
    'the CLI never reads them from a file inside the workspace.',
    '',
    'A bad value in the CLI (wrong type in the file, a variable out of its choices) is an error naming',
    'where it came from; VS Code flags it in the Settings editor and uses the value below it.',
    '',
    'The Model settings were `llm.*` before (`llm.baseUrl` is now `model.baseURL`, `llm.model` is',
    '`model.name`, the others kept their last part). VS Code moves a value still under an old key',
    'to the new one at the same scope when it starts (and says so in the Logbook output); the CLI',
    'reads an old key in its config file as the new one, with a line on stderr asking to rename it.',
    '',
    'The settings come in the categories of the Settings editor (Settings → Extensions → Logbook):',
    `${byCategory()
      .map(({ title }) => `[${title}](#${anchor(title)})`)
      .join(', ')}.`,
    '',
    ...byCategory().flatMap(({ title, defs }) => [
      `## ${title}`,
      '',
      '| Setting | Type | Default | Read by | Environment | Flag |',
      '| --- | --- | --- | --- | --- | --- |',
      ...defs.map(row),
      '',
      ...defs.flatMap(section),
    ]),
  ];
  return lines.join('\n');
}

/** The settings of each category, in its order (a setting not placed yet goes to the last one). */
function byCategory(): { title: string; defs: SettingDef[] }[] {
  const placed = new Set(SETTING_CATEGORIES.flatMap((c) => c.keys));
  return SETTING_CATEGORIES.map((c, i) => ({
    title: c.title,
    defs: [
      ...c.keys.flatMap((k) => SETTINGS.filter((d) => d.key === k)),
      ...(i === SETTING_CATEGORIES.length - 1 ? SETTINGS.filter((d) => !placed.has(d.key)) : []),
    ],
  }));
}

function row(def: SettingDef): string {
  const env = (def.env ?? []).map((e) => `\`${e}\``).join(', ');
  const flag = def.flag ? [def.flag.name, def.flag.alias].filter(Boolean).map((f) => `\`--${f}\``) : [];
  return `| [\`${def.key}\`](#${anchor(def.key)}) | ${type(def)} | ${defaultText(def)} | ${def.hosts
    .map((h) => HOSTS[h])
    .join(', ')} | ${env} | ${flag.join(', ')} |`;
}

function section(def: SettingDef): string[] {
  const facts = [
    `- Type: ${type(def)}; default: ${defaultText(def)}`,
    `- Read by: ${def.hosts.map((h) => HOSTS[h]).join(', ')}${def.scope ? ` (VS Code scope: ${def.scope})` : ''}`,
    ...(def.env?.length ? [`- Environment: ${def.env.map((e) => `\`${e}\``).join(', then ')}`] : []),
    ...(def.flag
      ? [
          `- Flag: \`--${def.flag.name}\`${def.flag.alias ? ` (or \`--${def.flag.alias}\`)` : ''}${def.adds ? '; the file, variable and flags add up' : ''}`,
        ]
      : []),
    ...(def.secret ? ['- Secret: never read from the config file, never shown (only set or unset)'] : []),
    ...(def.guards
      ? [
          "- Guards you: only your own value counts; a workspace's value is ignored, with a notice, until you accept it by name ([Settings a workspace cannot change](SECURITY.md#settings-a-workspace-cannot-change))",
        ]
      : []),
  ];
  return [
    `### ${def.key}`,
    '',
    def.description.replace(/#logbook\.([\w.]+)#/g, '`logbook.$1`'),
    '',
    ...facts,
    '',
  ];
}

function type(def: SettingDef): string {
  const { type, enum: choices, nullable } = def.kind.json;
  const base = choices ? choices.map((c) => `\`${c}\``).join(' \\| ') : type;
  return nullable ? `${base} or empty` : base;
}

function defaultText(def: SettingDef): string {
  if (def.default === null) return 'empty';
  if (def.default === '') return '""';
  return `\`${JSON.stringify(def.default)}\``;
}

function anchor(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9 -]/g, '');
}
