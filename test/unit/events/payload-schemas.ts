// The built-in tools' payload schemas, as a conversation with those tools checks its events with.
import { defaultTools, payloadSchemasOf } from '../../../src/core/tools';

export const TOOL_PAYLOAD_SCHEMAS = payloadSchemasOf(defaultTools());
