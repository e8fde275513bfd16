// Loaded by VS Code's extension host in place of a test suite (extensionTestsPath) by the activation
// bench's VS Code rows: activates Logbook, then reads VS Code's own record of that activation, the
// "Extension Activation Stats" of Developer: Startup Performance (the perf: document the workbench
// writes), and prints Logbook's row and the table's header for the bench to read.
const vscode = require('vscode');

const ID = 'logbook.logbook-agent';

exports.run = async function run() {
  const extension = vscode.extensions.getExtension(ID);
  if (!extension) throw new Error(`${ID} is not installed in this window`);
  await extension.activate();
  // The view's document is served once the view has been shown (the workbench makes its provider then).
  await vscode.commands.executeCommand('perfview.show');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('perf:Startup Performance'));
  // The workbench fills the document once the window has settled: read it until Logbook's row is in.
  let lines = [];
  let at = -1;
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    lines = doc.getText().split('\n');
    at = lines.findIndex((l) => /^#+ Extension Activation Stats/.test(l));
    if (at >= 0 && lines.slice(at).some((l) => l.toLowerCase().includes(ID))) break;
  }
  const table = lines.slice(at + 1).filter((l) => l.trim().startsWith('|'));
  const cells = (l) =>
    l
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const header = table.length ? cells(table[0]) : [];
  const row = table.map(cells).find((c) => c[0]?.toLowerCase() === ID);
  console.log(`LOGBOOK_VSCODE_ACTIVATION ${JSON.stringify({ found: at >= 0, header, row: row ?? null })}`);
};
