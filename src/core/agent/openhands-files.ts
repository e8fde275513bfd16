// The OpenHands formats the editor reads and writes only on Import and Export Conversation: one
// entry, so the extension loads this code (the SDK's and V0's event shapes, the import, the
// exporter) when the user asks for it, not at every activation (scripts/lazy-bundles.mjs).
export { exportedChainId, importOpenHands } from './import-openhands';
export { SdkExporter } from '../events/openhands-sdk-export';
