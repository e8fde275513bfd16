export {
  CommandSandbox,
  SandboxRequiredError,
  type CommandSandboxOptions,
  type LaunchRequest,
  type SandboxState,
  type SandboxedLaunch,
} from './command-sandbox';
export {
  findExecutable,
  isExecutable,
  sandboxAvailability,
  probeSandbox,
  type SandboxAvailability,
  type SandboxSetting,
} from './sandbox-probe';
export { secretLocations, expandHome } from './secret-locations';
export { installFolder } from './home-readable';
export { hostAllowed, deniedText, blockedHostsText, NetworkProxy } from './network-proxy';
export { bwrapArguments } from './bwrap-arguments';
export { sandboxEnvironment } from './sandbox-environment';
export { describeSandbox, sandboxNotice } from './describe-sandbox';
export { sandboxReport, sandboxReportText, type SandboxReport } from './sandbox-report';
export { readInnerProcessGroup } from './inner-process-group';
