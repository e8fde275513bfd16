// Moved into the session factory's folder; kept so imports of the old path go on working.
export * from './session/conversation-assembly';
