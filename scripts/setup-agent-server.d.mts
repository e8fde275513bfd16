/** Where the agent-server's source is ($LOGBOOK_AGENT_SERVER_SRC, else the vendored copy). */
export declare function agentServerSource(): string;
/** Prepares (once) and returns the launcher of the agent-server's Python. */
export declare function setupAgentServer(options?: { force?: boolean }): string;
