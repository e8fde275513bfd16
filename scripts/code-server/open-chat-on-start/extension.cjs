// npm start's window opens on Logbook's chat rather than the Explorer: a new user meets the
// product first. A separate extension, so Logbook itself still activates only when it is used.
const vscode = require('vscode');

exports.activate = () => {
  void vscode.commands.executeCommand('workbench.view.extension.logbook');
};
