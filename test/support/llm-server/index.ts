// Public API of the scripted LLM test server.
export {
  startScriptedLlm,
  type RecordedRequest,
  type ScriptedLlm,
  type StartScriptedLlmOptions,
} from './server';
export {
  loadScenarioFile,
  parseScenario,
  ScenarioFormatError,
  type EndlessKind,
  type Fault,
  type FinishReason,
  type Reply,
  type Scenario,
  type ScriptedToolCall,
  type ScriptedUsage,
  type Turn,
  type TurnMatch,
} from './scenario';
export {
  validateChatRequest,
  validateMessages,
  validateTools,
  type RequestProblem,
} from './validate-messages';
