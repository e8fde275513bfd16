// package.json shows its user-facing strings through `%key%` placeholders whose English text is in
// package.nls.json (and each translation in package.nls.LANG.json). This moves any literal string of
// those fields into package.nls.json under a key derived from where it stands, and takes every
// setting's description from the settings schema, so that the schema stays the one source of it.
// Running it again on its own output changes nothing; a unit test checks that it does not.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const PLACEHOLDER = /^%([^%\s]+)%$/;

export function placeholderKey(value: Json | undefined): string | undefined {
  return typeof value === 'string' ? PLACEHOLDER.exec(value)?.[1] : undefined;
}

export interface Localized {
  manifest: JsonObject;
  nls: Record<string, string>;
}

/**
 * @param manifest package.json as parsed (not changed: a copy is returned).
 * @param nls package.nls.json as parsed.
 * @param settingDescriptions the schema's description of each `logbook.*` setting.
 */
export function localizeManifest(
  manifest: JsonObject,
  nls: Record<string, string>,
  settingDescriptions: Record<string, string>,
): Localized {
  const out = structuredClone(manifest);
  const next: Record<string, string> = {};
  const place = (owner: JsonObject | Json[], field: string | number, key: string, source?: string): void => {
    const value = (owner as Record<string | number, Json>)[field];
    const existing = placeholderKey(value);
    const text = source ?? (existing ? nls[existing] : typeof value === 'string' ? value : undefined);
    if (text === undefined) {
      if (existing) throw new Error(`package.json names %${existing}%, which package.nls.json lacks`);
      return;
    }
    let unique = key;
    for (let n = 2; next[unique] !== undefined && next[unique] !== text; n++) unique = `${key}.${n}`;
    next[unique] = text;
    (owner as Record<string | number, Json>)[field] = `%${unique}%`;
  };

  place(out, 'description', 'extension.description');
  const untrusted = objectAt(out, ['capabilities', 'untrustedWorkspaces']);
  if (untrusted) place(untrusted, 'description', 'untrustedWorkspaces.description');

  const contributes = objectAt(out, ['contributes']) ?? {};
  for (const command of objects(contributes.commands)) {
    place(command, 'title', `${String(command.command)}.title`);
    if (command.category !== undefined) place(command, 'category', 'category');
  }
  for (const containers of Object.values(objectAt(contributes, ['viewsContainers']) ?? {})) {
    for (const c of objects(containers)) place(c, 'title', `viewsContainer.${String(c.id)}.title`);
  }
  for (const views of Object.values(objectAt(contributes, ['views']) ?? {})) {
    for (const v of objects(views)) place(v, 'name', `view.${String(v.id)}.name`);
  }
  for (const w of objects(contributes.walkthroughs)) {
    const prefix = `walkthrough.${String(w.id)}`;
    place(w, 'title', `${prefix}.title`);
    place(w, 'description', `${prefix}.description`);
    for (const step of objects(w.steps)) {
      const stepKey = `${prefix}.${String(step.id)}`;
      place(step, 'title', `${stepKey}.title`);
      place(step, 'description', `${stepKey}.description`);
      const media = objectAt(step, ['media']);
      if (media && media.altText !== undefined) place(media, 'altText', `${stepKey}.altText`);
    }
  }
  for (const category of objects(contributes.configuration)) {
    place(category, 'title', `configuration.${String(category.id)}.title`);
    for (const [name, property] of Object.entries(objectAt(category, ['properties']) ?? {})) {
      if (!isObject(property)) continue;
      const field = property.markdownDescription !== undefined ? 'markdownDescription' : 'description';
      place(property, field, `${name}.description`, settingDescriptions[name]);
      localizeSchema(property, name, place, false);
    }
  }
  return { manifest: out, nls: next };
}

type Place = (owner: JsonObject | Json[], field: string | number, key: string, source?: string) => void;

/** The texts inside a setting's JSON schema: its enum's descriptions and labels, and those of nested properties. */
function localizeSchema(node: JsonObject, key: string, place: Place, withOwn: boolean): void {
  if (withOwn) {
    for (const field of ['description', 'markdownDescription']) {
      if (typeof node[field] === 'string') place(node, field, `${key}.description`);
    }
  }
  const values = Array.isArray(node.enum) ? node.enum : [];
  for (const field of ['enumDescriptions', 'markdownEnumDescriptions']) {
    const list = node[field];
    if (!Array.isArray(list)) continue;
    list.forEach((_, i) => place(list, i, `${key}.enum.${String(values[i] ?? i)}`));
  }
  // The names the Settings editor shows in place of the values.
  const labels = node.enumItemLabels;
  if (Array.isArray(labels))
    labels.forEach((_, i) => place(labels, i, `${key}.enumLabel.${String(values[i] ?? i)}`));
  for (const [name, child] of Object.entries(objectAt(node, ['properties']) ?? {})) {
    if (isObject(child)) localizeSchema(child, `${key}.${name}`, place, true);
  }
  for (const field of ['additionalProperties', 'items']) {
    const child = node[field];
    if (isObject(child)) localizeSchema(child, key, place, true);
  }
  for (const field of ['anyOf', 'oneOf']) {
    for (const child of objects(node[field])) localizeSchema(child, key, place, true);
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objects(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function objectAt(root: JsonObject, path: string[]): JsonObject | undefined {
  let node: Json | undefined = root;
  for (const p of path) node = isObject(node) ? node[p] : undefined;
  return isObject(node) ? node : undefined;
}
