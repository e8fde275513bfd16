// A codicon glyph; decorative (its meaning is always given by text or an aria-label nearby).
export function Icon({ name, spin, class: cls }: { name: string; spin?: boolean; class?: string }) {
  return (
    <span
      class={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}${cls ? ` ${cls}` : ''}`}
      aria-hidden="true"
    />
  );
}
