export declare const AGENT_SERVER_SUITES: Record<string, 'optional' | 'required'>;
export type TestStep =
  | { prepare: 'agent-server' }
  | { suite: string; skip: string }
  | { suite: string; needsAgentServer: boolean };
/** The steps scripts/test.mjs takes for `order`; `sourceMissing` says why the server's source is absent. */
export declare function testPlan(order: readonly string[], sourceMissing: string | undefined): TestStep[];
