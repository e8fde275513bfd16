// A secret the host knows by name; its own module so both the redactor and the URL scanner can name
// it without importing each other.
export interface NamedSecret {
  /** Shown in the marker, e.g. `OPENAI_API_KEY`; never the value. */
  name: string;
  value: string;
}
