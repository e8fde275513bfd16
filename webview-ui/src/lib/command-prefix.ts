// The "Always allow" suggestion is the core's, so the terminal's question offers the same rule.
export { commandPrefix } from '../../../src/core/security/command-prefix';
